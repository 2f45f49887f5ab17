-- name: InsertSigningKey :exec
INSERT INTO signing_keys (name, secret, created_at) VALUES (?, ?, ?)
ON CONFLICT (name) DO NOTHING;

-- name: GetSigningKey :one
SELECT secret FROM signing_keys WHERE name = ?;
