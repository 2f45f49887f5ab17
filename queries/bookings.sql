-- Bookings (app/booking/book.go, list.go). GET /v3/bookings builds its filter in Go (see
-- app/booking/list.go) and then reads the page here by id.

-- name: BookingProvider :one
SELECT id, public_name, active, online_booking FROM providers WHERE id = ?;

-- name: BookingClient :one
SELECT id, active FROM clients WHERE id = ?;

-- name: BookingLocationZones :many
SELECT id, timezone FROM locations ORDER BY id;

-- The no-double-booking check inside the write transaction: another non-cancelled block of the
-- provider overlapping [block_start, block_end); floor = block_start - 2 days bounds the index
-- range from below (no block is longer than two days).
-- name: BookingOverlap :many
SELECT id FROM bookings
WHERE provider_id = sqlc.arg(provider_id) AND status_id <> 5
  AND block_start_at > sqlc.arg(floor) AND block_start_at < sqlc.arg(block_end)
  AND block_end_at > sqlc.arg(block_start) AND id <> sqlc.arg(ignore_id)
LIMIT 1;

-- The new row as stored (defaults included), so a create answers without reading it again.
-- name: InsertBooking :one
INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at,
    block_start_at, block_end_at, price_cents, list_price_cents, discount_bp, notes, time_resource_id,
    source, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING *;

-- name: GetBookingRow :one
SELECT * FROM bookings WHERE id = ?;

-- name: UpdateBookingRow :exec
UPDATE bookings SET location_id = ?, service_id = ?, provider_id = ?, client_id = ?, status_id = ?,
    start_at = ?, end_at = ?, block_start_at = ?, block_end_at = ?, price_cents = ?, list_price_cents = ?,
    discount_bp = ?, notes = ?, time_resource_id = ?, change_count = ?, updated_at = ?
WHERE id = ?;

-- name: CancelBookingRow :exec
UPDATE bookings SET status_id = 5, updated_at = ? WHERE id = ? AND status_id <> 5;

-- Bookings with everything their resource shows, for a page of ids (or one); company_id is 0
-- before the business is set up.
-- name: BookingViews :many
SELECT sqlc.embed(b), st.name AS status_name, st.internal_name AS status_internal_name,
    st.description AS status_description, s.name AS service_name, p.public_name AS provider_name,
    l.name AS location_name, l.timezone AS location_timezone,
    sa.status AS sale_status, sa.cart_id AS sale_cart_id,
    CAST(coalesce((SELECT c.id FROM company c ORDER BY c.id LIMIT 1), 0) AS INTEGER) AS company_id
FROM bookings b
JOIN booking_statuses st ON st.id = b.status_id
JOIN services s ON s.id = b.service_id
JOIN providers p ON p.id = b.provider_id
JOIN locations l ON l.id = b.location_id
LEFT JOIN sales sa ON sa.id = b.sale_id
WHERE b.id IN (sqlc.slice(ids));

-- A page of bookings for GET /v3/bookings, without the names BookingViews joins in: those come
-- from the catalog cache (app/booking/names.go), because reading seven text columns per row
-- cost more than the rest of the row.
-- name: BookingPageRows :many
SELECT sqlc.embed(b), sa.status AS sale_status, sa.cart_id AS sale_cart_id
FROM bookings b
LEFT JOIN sales sa ON sa.id = b.sale_id
WHERE b.id IN (sqlc.slice(ids));

-- The names a page of bookings shows, for the catalog cache.
-- name: BookingServiceNames :many
SELECT id, name FROM services WHERE id IN (sqlc.slice(ids));

-- name: BookingProviderNames :many
SELECT id, public_name FROM providers WHERE id IN (sqlc.slice(ids));

-- name: BookingLocationNames :many
SELECT id, name, timezone FROM locations WHERE id IN (sqlc.slice(ids));

-- name: BookingStatuses :many
SELECT * FROM booking_statuses ORDER BY id;

-- The company's id, 0 before the business is set up (as BookingViews reads it).
-- name: BookingCompanyID :one
SELECT CAST(coalesce((SELECT c.id FROM company c ORDER BY c.id LIMIT 1), 0) AS INTEGER) AS company_id;

-- name: BookingStatusByID :one
SELECT * FROM booking_statuses WHERE id = ?;

-- The trigger-maintained count of bookings of one location, client, service or provider
-- (db/migrations/00113_booking_counts_by_status.sql), of one status or (status_id 0) of all;
-- no row means none.
-- name: BookingCount :one
SELECT CAST(coalesce(sum(n), 0) AS INTEGER) AS n FROM booking_counts
WHERE kind = sqlc.arg(kind) AND ref_id = sqlc.arg(ref_id)
  AND (CAST(sqlc.arg(status_id) AS INTEGER) = 0 OR status_id = sqlc.arg(status_id));
