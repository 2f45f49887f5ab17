-- Products (app/catalog/products.go writes them; GET /v3/products and the admin pages read them
-- through catalog.ListProducts; app/payments sells them as cart items). Lists are ordered by id.
-- A search of three or more characters reads the trigram index product_search (migration
-- 00222); a shorter one compares lower-cased name and SKU (ASCII case only), which a product
-- catalogue's size allows.

-- name: CreateProduct :one
INSERT INTO products (name, sku, price_cents, active, stock, description, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
RETURNING id;

-- name: UpdateProduct :exec
UPDATE products SET name = ?, sku = ?, price_cents = ?, active = ?, stock = ?, description = ?, updated_at = ?
WHERE id = ?;

-- name: GetProduct :one
SELECT * FROM products WHERE id = ?;

-- name: ProductIDBySKU :one
SELECT id FROM products WHERE sku = ? COLLATE NOCASE;

-- name: ProductsByIDs :many
SELECT * FROM products WHERE id IN (sqlc.slice(ids)) ORDER BY id;

-- name: ListProducts :many
SELECT * FROM products
WHERE sqlc.narg(active) IS NULL OR active = sqlc.narg(active)
ORDER BY id LIMIT CAST(sqlc.arg(limit) AS INTEGER) OFFSET CAST(sqlc.arg(offset) AS INTEGER);

-- name: CountProducts :one
SELECT count(*) FROM products WHERE sqlc.narg(active) IS NULL OR active = sqlc.narg(active);

-- phrase is an FTS5 phrase query: the text in double quotes, inner quotes doubled.
-- name: SearchProducts :many
SELECT p.* FROM product_search s JOIN products p ON p.id = s.rowid
WHERE s.doc MATCH sqlc.arg(phrase) AND (sqlc.narg(active) IS NULL OR p.active = sqlc.narg(active))
ORDER BY p.id LIMIT CAST(sqlc.arg(limit) AS INTEGER) OFFSET CAST(sqlc.arg(offset) AS INTEGER);

-- name: CountProductSearch :one
SELECT count(*) FROM product_search s JOIN products p ON p.id = s.rowid
WHERE s.doc MATCH sqlc.arg(phrase) AND (sqlc.narg(active) IS NULL OR p.active = sqlc.narg(active));

-- needle is the lower-cased search text (one or two characters).
-- name: SearchProductsShort :many
SELECT * FROM products
WHERE (instr(lower(name), sqlc.arg(needle)) > 0 OR instr(lower(coalesce(sku, '')), sqlc.arg(needle)) > 0)
    AND (sqlc.narg(active) IS NULL OR active = sqlc.narg(active))
ORDER BY id LIMIT CAST(sqlc.arg(limit) AS INTEGER) OFFSET CAST(sqlc.arg(offset) AS INTEGER);

-- name: CountProductSearchShort :one
SELECT count(*) FROM products
WHERE (instr(lower(name), sqlc.arg(needle)) > 0 OR instr(lower(coalesce(sku, '')), sqlc.arg(needle)) > 0)
    AND (sqlc.narg(active) IS NULL OR active = sqlc.narg(active));

-- A paid sale takes what it sold off a counted stock, never below zero (docs/api.md, "Products").
-- name: TakeProductStock :exec
UPDATE products SET stock = max(stock - CAST(sqlc.arg(quantity) AS INTEGER), 0), updated_at = sqlc.arg(updated_at)
WHERE id = sqlc.arg(id) AND stock IS NOT NULL;

-- name: ImportProduct :one
INSERT INTO products (name, sku, price_cents, active, stock, description, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
RETURNING id;

-- name: GetImportProductKey :one
SELECT * FROM import_product_keys WHERE key = ?;

-- name: CreateImportProductKey :exec
INSERT INTO import_product_keys (key, record_id, imported_at) VALUES (?, ?, ?);
