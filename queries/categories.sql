-- name: CountCategories :one
SELECT count(*) FROM categories;

-- name: ListCategories :many
SELECT * FROM categories ORDER BY sort_order, id LIMIT CAST(sqlc.arg(limit) AS INTEGER) OFFSET CAST(sqlc.arg(offset) AS INTEGER);

-- name: ListAllCategories :many
SELECT * FROM categories ORDER BY sort_order, id;

-- name: GetCategory :one
SELECT * FROM categories WHERE id = ?;

-- name: CreateCategory :one
INSERT INTO categories (name, sort_order, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING *;

-- name: UpdateCategory :exec
UPDATE categories SET name = ?, sort_order = ?, updated_at = ? WHERE id = ?;

-- name: DeleteCategory :exec
DELETE FROM categories WHERE id = ?;
