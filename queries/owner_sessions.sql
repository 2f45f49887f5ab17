-- Each account's signed-in sessions (app/admin/account_sessions.go).

-- name: InsertOwnerSession :exec
INSERT INTO owner_sessions (owner_id, sid_hash, ip, user_agent, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?);

-- name: GetOwnerSession :one
SELECT * FROM owner_sessions WHERE sid_hash = ?;

-- name: TouchOwnerSession :exec
UPDATE owner_sessions SET last_seen_at = ?, ip = ?, user_agent = ? WHERE id = ?;

-- The sessions still alive: seen within the idle timeout, started within the lifetime.
-- name: ListOwnerSessions :many
SELECT * FROM owner_sessions
WHERE owner_id = sqlc.arg(owner_id) AND last_seen_at > sqlc.arg(seen_after) AND created_at > sqlc.arg(created_after)
ORDER BY last_seen_at DESC, id DESC;

-- name: DeleteOwnerSession :execrows
DELETE FROM owner_sessions WHERE id = ? AND owner_id = ?;

-- name: DeleteOwnerSessionBySID :exec
DELETE FROM owner_sessions WHERE sid_hash = ?;

-- name: DeleteOtherOwnerSessions :execrows
DELETE FROM owner_sessions WHERE owner_id = sqlc.arg(owner_id) AND id <> sqlc.arg(keep_id);

-- name: DeleteStaleOwnerSessions :execrows
DELETE FROM owner_sessions WHERE last_seen_at <= sqlc.arg(seen_before) OR created_at <= sqlc.arg(created_before);
