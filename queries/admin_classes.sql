-- The admin UI's class pages (app/admin/timetable.go, class_sessions.go, dayview*.go,
-- clients.go): timetables, sessions with their attendees, packs. Classes are written through
-- app/booking.

-- Class services (capacity > 1), for the timetable's choices.
-- name: AdminClassServices :many
SELECT id, name, active, capacity, duration_min FROM services WHERE capacity > 1 ORDER BY lower(name), id;

-- Services sold in packs (session_count > 1), for recording a pack.
-- name: AdminPackServices :many
SELECT id, name, active, session_count, price_cents FROM services WHERE session_count > 1 ORDER BY lower(name), id;

-- The sessions at a location that overlap [from_ms, to_ms), cancelled ones included, with the
-- names the day view and the timetable show and their seats.
-- name: AdminSessions :many
SELECT s.id, s.service_id, s.provider_id, s.timetable_id, s.start_at, s.end_at, s.status,
    CAST(coalesce(s.room, '') AS TEXT) AS room,
    CAST(coalesce(s.capacity, v.capacity) AS INTEGER) AS capacity,
    v.name AS service_name, p.public_name AS provider_name, p.active AS provider_active,
    CAST((SELECT count(*) FROM bookings b WHERE b.session_id = s.id AND b.status_id <> 5) AS INTEGER) AS booked,
    CAST((SELECT count(*) FROM waitlist_entries w WHERE w.session_id = s.id AND w.status = 'waiting') AS INTEGER) AS waiting
FROM class_sessions s
JOIN services v ON v.id = s.service_id
JOIN providers p ON p.id = s.provider_id
WHERE s.location_id = sqlc.arg(location_id)
  AND s.end_at > sqlc.arg(from_ms) AND s.start_at < sqlc.arg(to_ms) AND s.start_at > sqlc.arg(from_ms) - 172800000
ORDER BY s.start_at, s.id;

-- One session with its names and seats.
-- name: AdminSession :one
SELECT s.id, s.location_id, s.service_id, s.provider_id, s.timetable_id, s.start_at, s.end_at, s.status,
    CAST(coalesce(s.room, '') AS TEXT) AS room, s.capacity AS own_capacity,
    CAST(coalesce(s.capacity, v.capacity) AS INTEGER) AS capacity,
    v.name AS service_name, p.public_name AS provider_name, l.name AS location_name, l.timezone,
    CAST((SELECT count(*) FROM bookings b WHERE b.session_id = s.id AND b.status_id <> 5) AS INTEGER) AS booked
FROM class_sessions s
JOIN services v ON v.id = s.service_id
JOIN providers p ON p.id = s.provider_id
JOIN locations l ON l.id = s.location_id
WHERE s.id = ?;

-- The bookings of sessions (cancelled ones too), by session and then booking order.
-- name: AdminSessionAttendees :many
SELECT b.id, b.session_id, b.client_id, b.status_id, b.pack_id, st.name AS status_name,
    c.first_name AS client_first_name, c.last_name AS client_last_name
FROM bookings b
JOIN booking_statuses st ON st.id = b.status_id
JOIN clients c ON c.id = b.client_id
WHERE b.session_id IN (sqlc.slice(session_ids))
ORDER BY b.session_id, b.status_id = 5, b.id;

-- A location's one-off and cancelled sessions from an instant on, for the timetable page.
-- name: AdminSpecialSessions :many
SELECT s.id, s.start_at, s.status, s.timetable_id, v.name AS service_name, p.public_name AS provider_name,
    CAST((SELECT count(*) FROM bookings b WHERE b.session_id = s.id AND b.status_id <> 5) AS INTEGER) AS booked
FROM class_sessions s
JOIN services v ON v.id = s.service_id
JOIN providers p ON p.id = s.provider_id
WHERE s.location_id = sqlc.arg(location_id) AND s.start_at >= sqlc.arg(from_ms)
  AND (s.timetable_id IS NULL OR s.status = 'cancelled')
ORDER BY s.start_at
LIMIT 100;

-- name: AdminTimetableEntry :one
SELECT * FROM class_timetable WHERE id = ?;
