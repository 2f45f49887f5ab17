-- Session packs (app/booking/packs.go; db/migrations/00250_classes.sql). A pack's used
-- sessions are counted from the bookings that name it: the live ones, and the cancelled ones
-- whose session was not given back.

-- The client's packs of a service that are not expired at start_at, the one expiring first
-- first (packs that never expire last), then the oldest, with their use.
-- name: UsablePacks :many
SELECT p.id, p.sessions_total,
    CAST((SELECT count(*) FROM bookings b WHERE b.pack_id = p.id AND (b.status_id <> 5 OR b.pack_returned = 0)) AS INTEGER) AS used
FROM client_packs p
WHERE p.client_id = sqlc.arg(client_id) AND p.service_id = sqlc.arg(service_id)
  AND (p.expires_at IS NULL OR p.expires_at > sqlc.arg(start_at))
ORDER BY p.expires_at IS NULL, p.expires_at, p.id;

-- name: PackUsage :one
SELECT p.id, p.client_id, p.service_id, p.sessions_total, p.expires_at,
    CAST((SELECT count(*) FROM bookings b WHERE b.pack_id = p.id AND (b.status_id <> 5 OR b.pack_returned = 0)) AS INTEGER) AS used
FROM client_packs p WHERE p.id = ?;

-- name: InsertPack :one
INSERT INTO client_packs (client_id, service_id, sessions_total, price_cents, sale_id, expires_at, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
RETURNING *;

-- A client's packs, newest first, with the service's name and their use.
-- name: ClientPacks :many
SELECT sqlc.embed(p), s.name AS service_name,
    CAST((SELECT count(*) FROM bookings b WHERE b.pack_id = p.id AND (b.status_id <> 5 OR b.pack_returned = 0)) AS INTEGER) AS used
FROM client_packs p JOIN services s ON s.id = p.service_id
WHERE p.client_id = sqlc.arg(client_id)
ORDER BY p.id DESC
LIMIT CAST(sqlc.arg(limit) AS INTEGER) OFFSET CAST(sqlc.arg(offset) AS INTEGER);

-- name: CountClientPacks :one
SELECT count(*) FROM client_packs WHERE client_id = ?;

-- The owner's class and pack settings (one row, created by the migration).
-- name: GetClassSettings :one
SELECT * FROM class_settings WHERE id = 1;

-- name: UpdateClassSettings :exec
UPDATE class_settings SET pack_expiry_days = ?, waitlist_cutoff_min = ?, updated_at = ? WHERE id = 1;

-- Whether the business has any session pack at all (the booking path skips looking for a
-- client's pack of a single-session service when it has none).
-- name: AnyClientPacks :one
SELECT EXISTS (SELECT 1 FROM client_packs);
