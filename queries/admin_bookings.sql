-- The admin UI's booking pages (app/admin/bookings.go, dayview.go, explain.go): the choices of
-- their forms and the day view. Bookings are written and listed through app/booking.

-- name: AdminBookingLocations :many
SELECT id, name, timezone, active FROM locations ORDER BY lower(name), id;

-- name: AdminBookingServices :many
SELECT id, name, active, duration_min, buffer_before_min, buffer_after_min FROM services ORDER BY lower(name), id;

-- Providers who work at a location (location_id 0: every provider), active ones first.
-- name: AdminBookingProviders :many
SELECT p.id, p.public_name, p.active FROM providers p
WHERE CAST(sqlc.arg(location_id) AS INTEGER) = 0
   OR p.id IN (SELECT pl.provider_id FROM provider_locations pl WHERE pl.location_id = sqlc.arg(location_id))
ORDER BY p.active DESC, lower(p.public_name), p.id;

-- Bookings at a location that overlap [from_ms, to_ms), cancelled ones included. A booking lasts
-- at most two days (a CHECK on bookings), which bounds the index range from below.
-- name: AdminDayBookings :many
SELECT b.id, b.provider_id, b.client_id, b.status_id, b.start_at, b.end_at, b.client_confirmed_at,
    st.name AS status_name, s.name AS service_name, p.public_name AS provider_name, p.active AS provider_active,
    c.first_name AS client_first_name, c.last_name AS client_last_name
FROM bookings b
JOIN booking_statuses st ON st.id = b.status_id
JOIN services s ON s.id = b.service_id
JOIN providers p ON p.id = b.provider_id
JOIN clients c ON c.id = b.client_id
WHERE b.location_id = sqlc.arg(location_id)
  AND b.end_at > sqlc.arg(from_ms) AND b.start_at < sqlc.arg(to_ms) AND b.start_at > sqlc.arg(from_ms) - 172800000
ORDER BY b.start_at, b.id;

-- The provider's non-cancelled booking (at any location) whose block overlaps [block_start,
-- block_end), to name it when a booking is refused as a conflict.
-- name: AdminBookingConflict :many
SELECT b.id, b.start_at, b.end_at, l.timezone AS location_timezone, l.name AS location_name,
    c.first_name AS client_first_name, c.last_name AS client_last_name
FROM bookings b
JOIN locations l ON l.id = b.location_id
JOIN clients c ON c.id = b.client_id
WHERE b.provider_id = sqlc.arg(provider_id) AND b.status_id <> 5
  AND b.block_end_at > sqlc.arg(block_start) AND b.block_start_at < sqlc.arg(block_end)
  AND b.block_start_at > sqlc.arg(block_start) - 172800000 AND b.id <> sqlc.arg(ignore_id)
ORDER BY b.block_start_at
LIMIT 1;

-- How often each service was booked at a location in [from_ms, to_ms), cancelled bookings left
-- out, most first: the day view offers free times of the location's most-booked service first.
-- name: AdminLocationServiceUse :many
SELECT service_id, count(*) AS bookings FROM bookings
WHERE location_id = sqlc.arg(location_id) AND start_at >= sqlc.arg(from_ms) AND start_at < sqlc.arg(to_ms)
  AND status_id <> sqlc.arg(cancelled)
GROUP BY service_id
ORDER BY count(*) DESC, service_id;

-- The time off of the providers who work at a location overlapping [from_ms, to_ms): the
-- calendar's week and agenda views shade it.
-- name: AdminCalendarTimeOff :many
SELECT t.provider_id, t.starts_at, t.ends_at, t.reason FROM provider_time_off t
WHERE t.provider_id IN (SELECT pl.provider_id FROM provider_locations pl WHERE pl.location_id = sqlc.arg(location_id))
  AND t.ends_at > sqlc.arg(from_ms) AND t.starts_at < sqlc.arg(to_ms)
ORDER BY t.starts_at, t.id;
