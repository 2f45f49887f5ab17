-- Waitlists of full class sessions (app/booking/waitlist.go; db/migrations/00250_classes.sql).

-- name: InsertWaitlistEntry :one
INSERT INTO waitlist_entries (session_id, client_id, source, created_at, updated_at)
VALUES (?, ?, ?, ?, ?)
RETURNING *;

-- name: GetWaitlistEntry :one
SELECT * FROM waitlist_entries WHERE id = ?;

-- A session's waiting clients in queue order.
-- name: WaitingEntries :many
SELECT * FROM waitlist_entries WHERE session_id = ? AND status = 'waiting' ORDER BY id;

-- The entry's place in its queue (1 = next), counting the waiting entries up to it.
-- name: WaitlistPosition :one
SELECT count(*) FROM waitlist_entries
WHERE session_id = sqlc.arg(session_id) AND status = 'waiting' AND id <= sqlc.arg(id);

-- name: BookWaitlistEntry :exec
UPDATE waitlist_entries SET status = 'booked', booking_id = ?, updated_at = ? WHERE id = ?;

-- name: SkipWaitlistEntry :exec
UPDATE waitlist_entries SET status = 'skipped', reason = ?, updated_at = ? WHERE id = ?;

-- name: LeaveWaitlistEntry :execrows
UPDATE waitlist_entries SET status = 'left', updated_at = ? WHERE id = ? AND status = 'waiting';

-- Entries of a session (any status), for the owner, in queue order.
-- name: SessionWaitlist :many
SELECT w.*, c.first_name AS client_first_name, c.last_name AS client_last_name
FROM waitlist_entries w JOIN clients c ON c.id = w.client_id
WHERE w.session_id = ?
ORDER BY w.id;

-- A client's entries, newest first, with their session.
-- name: ClientWaitlist :many
SELECT sqlc.embed(w), s.start_at, s.end_at, s.location_id, s.service_id, s.provider_id
FROM waitlist_entries w JOIN class_sessions s ON s.id = w.session_id
WHERE w.client_id = sqlc.arg(client_id)
ORDER BY w.id DESC
LIMIT CAST(sqlc.arg(limit) AS INTEGER) OFFSET CAST(sqlc.arg(offset) AS INTEGER);

-- name: CountClientWaitlist :one
SELECT count(*) FROM waitlist_entries WHERE client_id = ?;
