-- Read-only views for the admin dashboard (app/admin/dashboard.go).

-- name: ListDashboardLocations :many
SELECT id, name, timezone FROM locations WHERE active = 1 ORDER BY name, id;

-- A provider account's dashboard lists only its own (provider_id 0: every provider).
-- name: ListDashboardBookings :many
SELECT b.id, b.start_at, b.end_at, b.status_id, st.name AS status_name,
    s.name AS service_name, p.public_name AS provider_name,
    c.first_name AS client_first_name, c.last_name AS client_last_name
FROM bookings b
JOIN booking_statuses st ON st.id = b.status_id
JOIN services s ON s.id = b.service_id
JOIN providers p ON p.id = b.provider_id
JOIN clients c ON c.id = b.client_id
WHERE b.location_id = sqlc.arg(location_id)
  AND (CAST(sqlc.arg(provider_id) AS INTEGER) = 0 OR b.provider_id = CAST(sqlc.arg(provider_id) AS INTEGER))
  AND b.start_at >= sqlc.arg(from_ms) AND b.start_at < sqlc.arg(to_ms)
ORDER BY b.start_at, b.id
LIMIT CAST(sqlc.arg(max_rows) AS INTEGER);

-- name: CountWebhooksByState :many
SELECT state, count(*) AS n FROM webhooks GROUP BY state ORDER BY state;

-- name: DeliveryAttemptStatsSince :one
SELECT count(*) AS attempts,
    CAST(coalesce(sum(status_code BETWEEN 200 AND 299), 0) AS INTEGER) AS succeeded
FROM delivery_attempts WHERE started_at >= ?;

-- name: PendingDeliveryStats :one
SELECT count(*) AS pending, CAST(coalesce(min(created_at), 0) AS INTEGER) AS oldest_created_at
FROM deliveries WHERE state = 'pending';
