-- Bookings (app/booking/book.go, list.go). GET /v3/bookings builds its filter in Go (see
-- app/booking/list.go) and then reads the page here by id.

-- name: BookingProvider :one
SELECT id, public_name, active, online_booking FROM providers WHERE id = ?;

-- name: BookingClient :one
SELECT id, active FROM clients WHERE id = ?;

-- name: BookingLocationZones :many
SELECT id, timezone FROM locations ORDER BY id;

-- The no-double-booking check inside the write transaction: another non-cancelled block of the
-- provider overlapping [block_start, block_end), or a scheduled class session holding the
-- provider then (its id negated); floor = block_start - 2 days bounds both index ranges from
-- below (no block is longer than two days). A booking inside a session is checked against its
-- session instead (app/booking/seats.go).
-- name: BookingOverlap :many
SELECT o.id FROM (
    SELECT b.id AS id FROM bookings b
    WHERE b.provider_id = sqlc.arg(provider_id) AND b.status_id <> 5
      AND b.block_start_at > sqlc.arg(floor) AND b.block_start_at < sqlc.arg(block_end)
      AND b.block_end_at > sqlc.arg(block_start) AND b.id <> sqlc.arg(ignore_id)
    UNION ALL
    SELECT -s.id AS id FROM class_sessions s
    WHERE s.provider_id = sqlc.arg(provider_id) AND s.status = 'scheduled'
      AND s.block_start_at > sqlc.arg(floor) AND s.block_start_at < sqlc.arg(block_end)
      AND s.block_end_at > sqlc.arg(block_start)
) o
LIMIT 1;

-- The new row as stored (defaults included), so a create answers without reading it again.
-- The new row's id only: the caller has every other value (app/booking.inserted builds the
-- row from these parameters and the table's defaults), and a RETURNING * costs the writer a
-- column name, type and value for each of the table's thirty columns.
-- name: InsertBooking :one
INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at,
    block_start_at, block_end_at, price_cents, list_price_cents, discount_bp, notes, time_resource_id,
    source, session_id, pack_id, created_at, updated_at, series_id)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING id;

-- name: GetBookingRow :one
SELECT * FROM bookings WHERE id = ?;

-- name: UpdateBookingRow :exec
UPDATE bookings SET location_id = ?, service_id = ?, provider_id = ?, client_id = ?, status_id = ?,
    start_at = ?, end_at = ?, block_start_at = ?, block_end_at = ?, price_cents = ?, list_price_cents = ?,
    discount_bp = ?, notes = ?, time_resource_id = ?, change_count = ?, session_id = ?, pack_id = ?, updated_at = ?
WHERE id = ?;

-- pack_returned: whether a booking paid with a pack gives its session back (a cancel within the
-- cancel policy; docs/classes.md); ignored for a booking without a pack.
-- name: CancelBookingRow :exec
UPDATE bookings SET status_id = 5, pack_returned = CASE WHEN pack_id IS NULL THEN 0 ELSE sqlc.arg(pack_returned) END,
    updated_at = sqlc.arg(updated_at), cancelled_at = sqlc.arg(updated_at), cancelled_by = sqlc.arg(cancelled_by),
    cancelled_late = sqlc.arg(cancelled_late)
WHERE id = sqlc.arg(id) AND status_id <> 5;

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
