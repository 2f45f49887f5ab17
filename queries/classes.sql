-- Class sessions and the weekly timetable (app/booking/sessions.go, seats.go, timetable.go;
-- db/migrations/00250_class_sessions.sql). Capacities are resolved here: a session's own
-- capacity, else its service's.

-- The sessions of a class at a location starting in [since, until), scheduled or cancelled,
-- with their live bookings and waiting clients counted (provider_id 0: every provider).
-- name: ScheduleSessions :many
SELECT s.id, s.provider_id, s.start_at, s.end_at, s.status, CAST(coalesce(s.room, '') AS TEXT) AS room,
    CAST(coalesce(s.capacity, sv.capacity) AS INTEGER) AS capacity,
    CAST((SELECT count(*) FROM bookings b WHERE b.session_id = s.id AND b.status_id <> 5) AS INTEGER) AS booked,
    CAST((SELECT count(*) FROM waitlist_entries w WHERE w.session_id = s.id AND w.status = 'waiting') AS INTEGER) AS waiting
FROM class_sessions s JOIN services sv ON sv.id = s.service_id
WHERE s.location_id = sqlc.arg(location_id) AND s.start_at >= sqlc.arg(since) AND s.start_at < sqlc.arg(until)
  AND s.service_id = sqlc.arg(service_id)
  AND (CAST(sqlc.arg(provider_id) AS INTEGER) = 0 OR s.provider_id = sqlc.arg(provider_id))
ORDER BY s.start_at, s.provider_id, s.id;

-- The session a booking at (location, service, provider, start) takes a seat in: a scheduled
-- one before a cancelled one at the same time. The block starts at most two days before the
-- start, which bounds the provider's index range.
-- name: SessionAt :one
SELECT * FROM class_sessions
WHERE provider_id = sqlc.arg(provider_id)
  AND block_start_at > sqlc.arg(start_at) - 172800000 AND block_start_at <= sqlc.arg(start_at)
  AND start_at = sqlc.arg(start_at) AND location_id = sqlc.arg(location_id) AND service_id = sqlc.arg(service_id)
ORDER BY status = 'scheduled' DESC, id
LIMIT 1;

-- name: GetSession :one
SELECT * FROM class_sessions WHERE id = ?;

-- A session's seats, read inside the write transaction before a booking takes one.
-- name: SessionSeats :one
SELECT s.status, CAST(coalesce(s.capacity, sv.capacity) AS INTEGER) AS capacity,
    CAST((SELECT count(*) FROM bookings b WHERE b.session_id = s.id AND b.status_id <> 5) AS INTEGER) AS booked
FROM class_sessions s JOIN services sv ON sv.id = s.service_id
WHERE s.id = ?;

-- The client's live booking in a session, if any.
-- name: SessionClientBooking :many
SELECT id FROM bookings WHERE session_id = ? AND client_id = ? AND status_id <> 5 LIMIT 1;

-- name: InsertSession :one
INSERT INTO class_sessions (location_id, service_id, provider_id, timetable_id, local_date, start_at, end_at,
    block_start_at, block_end_at, capacity, room, status, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING id;

-- Timetable entries still running on or after a date, with what generating their sessions
-- needs.
-- name: TimetableEntriesFrom :many
SELECT t.id, t.location_id, t.service_id, t.provider_id, t.day_id, t.start_min, t.capacity, t.room,
    t.valid_from, t.valid_to, l.timezone, sv.duration_min, sv.buffer_before_min, sv.buffer_after_min
FROM class_timetable t
JOIN locations l ON l.id = t.location_id
JOIN services sv ON sv.id = t.service_id
WHERE t.valid_to IS NULL OR t.valid_to >= sqlc.arg(from_date)
ORDER BY t.id;

-- name: TimetableEntry :one
SELECT t.id, t.location_id, t.service_id, t.provider_id, t.day_id, t.start_min, t.capacity, t.room,
    t.valid_from, t.valid_to, l.timezone, sv.duration_min, sv.buffer_before_min, sv.buffer_after_min
FROM class_timetable t
JOIN locations l ON l.id = t.location_id
JOIN services sv ON sv.id = t.service_id
WHERE t.id = ?;

-- The local dates on which a timetable entry has a session row (scheduled or cancelled).
-- name: TimetableSessionDates :many
SELECT local_date FROM class_sessions
WHERE timetable_id = sqlc.arg(timetable_id) AND local_date >= sqlc.arg(first) AND local_date <= sqlc.arg(last)
ORDER BY local_date;

-- A provider's timetable entries for one class at one location, to find the entry that gives
-- a session at a time no session row exists for yet.
-- name: TimetableEntriesOf :many
SELECT t.id, t.location_id, t.service_id, t.provider_id, t.day_id, t.start_min, t.capacity, t.room,
    t.valid_from, t.valid_to, l.timezone, sv.duration_min, sv.buffer_before_min, sv.buffer_after_min
FROM class_timetable t
JOIN locations l ON l.id = t.location_id
JOIN services sv ON sv.id = t.service_id
WHERE t.location_id = sqlc.arg(location_id) AND t.service_id = sqlc.arg(service_id) AND t.provider_id = sqlc.arg(provider_id)
ORDER BY t.id;
