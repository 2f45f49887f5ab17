-- Class sessions and the weekly timetable (app/booking/sessions.go, seats.go, timetable.go;
-- db/migrations/00250_classes.sql). Capacities are resolved here: a session's own
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
-- name: ClassSessionAt :one
SELECT * FROM class_sessions
WHERE provider_id = sqlc.arg(provider_id)
  AND block_start_at > sqlc.arg(start_at) - 172800000 AND block_start_at <= sqlc.arg(start_at)
  AND start_at = sqlc.arg(start_at) AND location_id = sqlc.arg(location_id) AND service_id = sqlc.arg(service_id)
ORDER BY status = 'scheduled' DESC, id
LIMIT 1;

-- name: GetClassSession :one
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

-- name: InsertClassSession :one
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

-- name: InsertTimetableEntry :one
INSERT INTO class_timetable (location_id, service_id, provider_id, day_id, start_min, capacity, room,
    valid_from, valid_to, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING id;

-- name: UpdateTimetableEntry :exec
UPDATE class_timetable SET location_id = ?, service_id = ?, provider_id = ?, day_id = ?, start_min = ?,
    capacity = ?, room = ?, valid_from = ?, valid_to = ?, updated_at = ?
WHERE id = ?;

-- name: DeleteTimetableEntry :exec
DELETE FROM class_timetable WHERE id = ?;

-- A location's timetable for the owner, by weekday and time, with names.
-- name: LocationTimetable :many
SELECT t.*, s.name AS service_name, CAST(s.capacity AS INTEGER) AS service_capacity, p.public_name AS provider_name
FROM class_timetable t
JOIN services s ON s.id = t.service_id
JOIN providers p ON p.id = t.provider_id
WHERE t.location_id = ?
ORDER BY t.day_id, t.start_min, t.id;

-- A timetable entry's scheduled sessions starting after an instant, with what deciding their
-- fate on a change needs: live bookings, and whether anything refers to them at all.
-- name: EntryFutureSessions :many
SELECT s.id, s.local_date, s.location_id, s.service_id, s.provider_id, s.start_at, s.end_at, s.capacity, s.room,
    CAST((SELECT count(*) FROM bookings b WHERE b.session_id = s.id AND b.status_id <> 5) AS INTEGER) AS booked,
    CAST(EXISTS (SELECT 1 FROM bookings b WHERE b.session_id = s.id)
        OR EXISTS (SELECT 1 FROM waitlist_entries w WHERE w.session_id = s.id) AS BOOLEAN) AS referenced
FROM class_sessions s
WHERE s.timetable_id = sqlc.arg(timetable_id) AND s.status = 'scheduled' AND s.start_at > sqlc.arg(after)
ORDER BY s.start_at;

-- Whether any session of an entry ever had a booking or a waiting client (then the entry is
-- history and may only be ended, not deleted).
-- name: EntryHasHistory :one
SELECT CAST(EXISTS (SELECT 1 FROM class_sessions s WHERE s.timetable_id = sqlc.arg(timetable_id)
    AND (EXISTS (SELECT 1 FROM bookings b WHERE b.session_id = s.id)
      OR EXISTS (SELECT 1 FROM waitlist_entries w WHERE w.session_id = s.id))) AS BOOLEAN) AS has_history;

-- name: DeleteEntrySessions :exec
DELETE FROM class_sessions WHERE timetable_id = ?;

-- name: DeleteClassSession :exec
DELETE FROM class_sessions WHERE id = ?;

-- A session leaves its timetable entry (it becomes a one-off), keeping or changing its status.
-- name: DetachClassSession :exec
UPDATE class_sessions SET timetable_id = NULL, status = ?, updated_at = ? WHERE id = ?;

-- name: SetClassSessionSeats :exec
UPDATE class_sessions SET capacity = ?, room = ?, updated_at = ? WHERE id = ?;

-- name: SetClassSessionStatus :exec
UPDATE class_sessions SET status = ?, updated_at = ? WHERE id = ?;

-- A session's live bookings, to cancel them with the session.
-- name: SessionLiveBookings :many
SELECT id FROM bookings WHERE session_id = ? AND status_id <> 5 ORDER BY id;

-- Whether a provider works at a location (and is active) and gives a service.
-- name: ClassProvider :one
SELECT p.active,
    CAST(EXISTS (SELECT 1 FROM provider_locations pl WHERE pl.provider_id = p.id AND pl.location_id = sqlc.arg(location_id)) AS BOOLEAN) AS works_there,
    CAST(EXISTS (SELECT 1 FROM service_providers sp WHERE sp.provider_id = p.id AND sp.service_id = sqlc.arg(service_id)) AS BOOLEAN) AS offers_service
FROM providers p WHERE p.id = sqlc.arg(provider_id);

-- name: ClassService :one
SELECT id, name, active, capacity, duration_min, buffer_before_min, buffer_after_min FROM services WHERE id = ?;
