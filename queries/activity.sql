-- The activity trail (app/activity; db/migrations/00420_activity.sql).

-- name: InsertActivity :exec
INSERT INTO activity (at, actor_kind, actor_id, actor_label, action, entity, entity_id, changes, ip)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- Settings, Activity: newest first, every filter optional (an empty text or a zero leaves it
-- off), a page ending below the id cursor.
-- name: ListActivity :many
SELECT * FROM activity
WHERE (CAST(sqlc.arg(actor_kind) AS TEXT) = '' OR actor_kind = sqlc.arg(actor_kind))
  AND (CAST(sqlc.arg(any_actor_id) AS BOOLEAN) OR actor_id = sqlc.arg(actor_id))
  AND (CAST(sqlc.arg(prefix) AS TEXT) = '' OR substr(action, 1, length(sqlc.arg(prefix)) + 1) = sqlc.arg(prefix) || '.')
  AND (CAST(sqlc.arg(from_at) AS INTEGER) = 0 OR at >= sqlc.arg(from_at))
  AND (CAST(sqlc.arg(to_at) AS INTEGER) = 0 OR at < sqlc.arg(to_at))
  AND (CAST(sqlc.arg(before_id) AS INTEGER) = 0 OR id < sqlc.arg(before_id))
ORDER BY id DESC
LIMIT CAST(sqlc.arg(lim) AS INTEGER);

-- One booking's or client's own history, newest first.
-- name: ListEntityActivity :many
SELECT * FROM activity WHERE entity = ? AND entity_id = ? ORDER BY id DESC LIMIT CAST(sqlc.arg(lim) AS INTEGER);

-- Who has entries, for the person filter: each actor once, with the label of their latest entry.
-- Booking-site customers are many and are filtered by kind instead.
-- name: ListActivityActors :many
SELECT a.actor_kind, a.actor_id, a.actor_label FROM activity a
WHERE a.id IN (SELECT max(b.id) FROM activity b WHERE b.actor_kind != 'client' GROUP BY b.actor_kind, b.actor_id)
ORDER BY a.actor_kind, a.actor_label, a.actor_id
LIMIT 500;

-- name: PruneActivity :execrows
DELETE FROM activity WHERE id IN (
    SELECT a.id FROM activity a WHERE a.at < sqlc.arg(before) ORDER BY a.at LIMIT CAST(sqlc.arg(lim) AS INTEGER));
