-- Passkeys (app/passkey).

-- name: ListOwnerPasskeys :many
SELECT * FROM owner_passkeys WHERE owner_id = ? ORDER BY created_at, id;

-- name: CountOwnerPasskeys :one
SELECT count(*) FROM owner_passkeys WHERE owner_id = ?;

-- name: InsertOwnerPasskey :exec
INSERT INTO owner_passkeys (owner_id, name, credential_id, credential, created_at) VALUES (?, ?, ?, ?, ?);

-- name: GetOwnerPasskeyByCredentialID :one
SELECT * FROM owner_passkeys WHERE credential_id = ?;

-- name: UseOwnerPasskey :exec
UPDATE owner_passkeys SET credential = ?, last_used_at = ? WHERE id = ?;

-- name: DeleteOwnerPasskey :execrows
DELETE FROM owner_passkeys WHERE id = ? AND owner_id = ?;
