-- A client's whole story on their page (app/admin/client_story.go): figures, visits, waitlists
-- and messages (its packs: queries/packs.sql). Read only.

-- Visits are the past bookings kept (confirmed, reserved, attended); a late cancel is one
-- cancelled later than late_ms before its start (cancelling is a booking's last write, so
-- updated_at is when); spent is what the client's sales took in, refunds and cancelled sales
-- left out.
-- name: AdminClientFigures :one
SELECT
    CAST((SELECT count(*) FROM bookings b WHERE b.client_id = sqlc.arg(client_id) AND b.start_at < sqlc.arg(now_ms) AND b.status_id IN (1, 2, 3)) AS INTEGER) AS visits,
    CAST((SELECT count(*) FROM bookings b WHERE b.client_id = sqlc.arg(client_id) AND b.start_at >= sqlc.arg(now_ms) AND b.status_id <> 5) AS INTEGER) AS upcoming,
    CAST((SELECT count(*) FROM bookings b WHERE b.client_id = sqlc.arg(client_id) AND b.status_id = 4) AS INTEGER) AS no_shows,
    CAST((SELECT count(*) FROM bookings b WHERE b.client_id = sqlc.arg(client_id) AND b.status_id = 5
        AND b.updated_at > b.start_at - sqlc.arg(late_ms)) AS INTEGER) AS late_cancels,
    CAST((SELECT coalesce(sum(s.paid_cents), 0) FROM sales s WHERE s.client_id = sqlc.arg(client_id) AND s.status IN ('paid', 'partially_paid')) AS INTEGER) AS spent_cents;

-- The client's bookings from now_ms on, soonest first, the cancelled left out.
-- name: AdminClientUpcoming :many
SELECT b.id, b.start_at, b.status_id, coalesce(b.notes, '') AS notes,
    s.name AS service_name, p.public_name AS provider_name, l.timezone AS location_timezone
FROM bookings b
JOIN services s ON s.id = b.service_id
JOIN providers p ON p.id = b.provider_id
JOIN locations l ON l.id = b.location_id
WHERE b.client_id = sqlc.arg(client_id) AND b.start_at >= sqlc.arg(now_ms) AND b.status_id <> 5
ORDER BY b.start_at, b.id
LIMIT CAST(sqlc.arg(limit) AS INTEGER);

-- The client's bookings before now_ms, latest first, the cancelled included.
-- name: AdminClientPast :many
SELECT b.id, b.start_at, b.status_id, coalesce(b.notes, '') AS notes,
    s.name AS service_name, p.public_name AS provider_name, l.timezone AS location_timezone
FROM bookings b
JOIN services s ON s.id = b.service_id
JOIN providers p ON p.id = b.provider_id
JOIN locations l ON l.id = b.location_id
WHERE b.client_id = sqlc.arg(client_id) AND b.start_at < sqlc.arg(now_ms)
ORDER BY b.start_at DESC, b.id DESC
LIMIT CAST(sqlc.arg(limit) AS INTEGER);

-- name: AdminClientWaitlist :many
SELECT w.id, w.status, w.session_id, cs.start_at, s.name AS service_name, l.timezone AS location_timezone
FROM waitlist_entries w
JOIN class_sessions cs ON cs.id = w.session_id
JOIN services s ON s.id = cs.service_id
JOIN locations l ON l.id = cs.location_id
WHERE w.client_id = ?
ORDER BY w.id DESC
LIMIT 20;

-- The messages sent (or meant) to the client about their bookings, latest first.
-- name: AdminClientMessages :many
SELECT m.id, m.kind, m.state, m.send_at, m.to_address, l.timezone AS location_timezone
FROM messages m JOIN bookings b ON b.id = m.booking_id JOIN locations l ON l.id = b.location_id
WHERE b.client_id = ? AND m.recipient = 'client'
ORDER BY m.send_at DESC, m.id DESC
LIMIT 20;

-- The service a client booked most often (cancelled bookings left out; a tie goes to the one
-- booked last): the quick booking form offers it first.
-- name: AdminClientUsualService :one
SELECT service_id FROM bookings
WHERE client_id = sqlc.arg(client_id) AND status_id <> 5
GROUP BY service_id
ORDER BY count(*) DESC, max(start_at) DESC, service_id
LIMIT 1;
