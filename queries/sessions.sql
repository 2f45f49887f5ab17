-- The scs session store (app/admin/sessions.go). Tokens arrive already hashed by scs.

-- name: FindSession :one
SELECT data FROM sessions WHERE token = ? AND expiry_at > ?;

-- name: CommitSession :exec
INSERT INTO sessions (token, data, expiry_at) VALUES (?, ?, ?)
ON CONFLICT (token) DO UPDATE SET data = excluded.data, expiry_at = excluded.expiry_at;

-- name: DeleteSession :exec
DELETE FROM sessions WHERE token = ?;

-- name: DeleteExpiredSessions :execrows
DELETE FROM sessions WHERE expiry_at <= ?;
