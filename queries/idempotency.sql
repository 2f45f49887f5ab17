-- name: DeleteExpiredIdempotencyKeys :exec
DELETE FROM idempotency_keys WHERE expires_at <= ?;

-- A reservation is a row with status 0: the request is running. ON CONFLICT makes claiming a
-- key atomic on the single writer connection; zero rows affected means someone has it.
-- name: ReserveIdempotencyKey :execrows
INSERT INTO idempotency_keys (api_key_id, key, method, path, request_hash, status, response_body, created_at, expires_at)
VALUES (?, ?, ?, ?, ?, 0, x'', ?, ?)
ON CONFLICT (api_key_id, key) DO NOTHING;

-- name: GetIdempotencyKey :one
SELECT * FROM idempotency_keys WHERE api_key_id = ? AND key = ?;

-- name: CompleteIdempotencyKey :exec
UPDATE idempotency_keys SET status = ?, response_body = ? WHERE api_key_id = ? AND key = ? AND status = 0;

-- name: ReleaseIdempotencyKey :exec
DELETE FROM idempotency_keys WHERE api_key_id = ? AND key = ? AND status = 0;
