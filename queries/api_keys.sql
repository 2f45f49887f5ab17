-- name: CreateAPIKey :one
INSERT INTO api_keys (name, prefix, key_hash, scopes, created_at) VALUES (?, ?, ?, ?, ?) RETURNING *;

-- name: GetAPIKeyByHash :one
SELECT * FROM api_keys WHERE key_hash = ?;

-- A key's lookup (app/keyauth), when it is not kept under the current api_keys counter
-- (AuthenticationVersions): only the columns it needs, and a revoked key simply has no row. It
-- also reads the catalog version (db/catalog.go), for callers that look keys up directly.
-- name: AuthenticateAPIKey :one
SELECT id, name, scopes, z_means_local, (SELECT n FROM catalog_version WHERE id = 1) AS catalog_version
FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL;

-- What every request reads when its key is kept (app/keyauth): the api_keys counter, which any
-- write to api_keys raises (db/migrations/00371_api_keys_counter.sql), and the catalog version
-- AuthenticateAPIKey would have read with the key. One statement, two index probes.
-- name: AuthenticationVersions :one
SELECT CAST(coalesce((SELECT n FROM etag_versions WHERE kind = 'api_keys' AND ref_id = 0), 0) AS INTEGER) AS keys_version,
    CAST((SELECT n FROM catalog_version WHERE id = 1) AS INTEGER) AS catalog_version;

-- name: ListAPIKeys :many
SELECT * FROM api_keys ORDER BY id;

-- name: RevokeAPIKey :execrows
UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL;

-- name: TouchAPIKey :exec
UPDATE api_keys SET last_used_at = ? WHERE id = ?;

-- API key options (migration 00220). Set right after CreateAPIKey in the same
-- transaction, so CreateAPIKey stays as it is for the other per-key options.
-- name: SetAPIKeyZMeansLocal :exec
UPDATE api_keys SET z_means_local = ? WHERE id = ?;

-- A key's name, for the activity trail's entry of its revocation.
-- name: APIKeyName :one
SELECT name FROM api_keys WHERE id = ?;
