-- Owner accounts and the first-run setup token (app/owner).

-- name: CountOwners :one
SELECT count(*) FROM owners;

-- name: CreateOwner :one
INSERT INTO owners (email, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING *;

-- name: GetOwner :one
SELECT * FROM owners WHERE id = ?;

-- name: GetOwnerByEmail :one
SELECT * FROM owners WHERE email = ?;

-- name: ListOwners :many
SELECT * FROM owners ORDER BY email;

-- name: UpdateOwnerPassword :execrows
UPDATE owners SET password_hash = ?, updated_at = ? WHERE id = ?;

-- name: UpdateOwnerLanguage :execrows
UPDATE owners SET language = ?, updated_at = ? WHERE id = ?;

-- name: CreateSetupToken :exec
INSERT INTO setup_tokens (token_hash, created_at) VALUES (?, ?);

-- name: CountSetupTokensByHash :one
SELECT count(*) FROM setup_tokens WHERE token_hash = ?;

-- name: DeleteSetupTokens :exec
DELETE FROM setup_tokens;

-- Removing an owner (app/owner/remove.go; the last one is kept by migration 00356).
-- name: DeleteOwner :execrows
DELETE FROM owners WHERE id = ?;
