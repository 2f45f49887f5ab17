-- What the slot engine needs (app/booking/store.go): one location, its policy, one service and
-- the location's providers with their shifts, time off and bookings. Every per-provider query
-- takes the whole provider list at once, so a location loads in the same handful of queries
-- whatever its staff size.

-- How many writes the catalog tables have seen (db/migrations/00110_catalog_version.sql): the
-- catalog part of a schedule is cached for as long as this stays the same.
-- name: CatalogVersion :one
SELECT n FROM catalog_version WHERE id = 1;

-- name: ScheduleLocation :one
SELECT id, name, active, timezone FROM locations WHERE id = ?;

-- name: ScheduleLocationHours :many
SELECT day_id, open_min, close_min FROM location_hours WHERE location_id = ? ORDER BY day_id, open_min;

-- name: ScheduleClosures :many
SELECT date FROM location_closures
WHERE location_id = sqlc.arg(location_id) AND date >= sqlc.arg(first) AND date <= sqlc.arg(last)
ORDER BY date;

-- Every closure of a location, for the cached catalog part of its schedules; the dates the
-- schedule covers are picked from these in Go, by the same text comparison.
-- name: ScheduleAllClosures :many
SELECT date FROM location_closures WHERE location_id = ? ORDER BY date;

-- name: SchedulePolicy :one
SELECT id, slot_step_min, min_notice_min, max_advance_days, can_edit, can_cancel, edit_lock_min, max_changes
FROM company ORDER BY id LIMIT 1;

-- name: ScheduleService :one
SELECT id, name, active, online_booking, duration_min, buffer_before_min, buffer_after_min,
    price_cents, has_discount, discount_bp, capacity, session_count
FROM services WHERE id = ?;

-- Active providers who work at the location, with whether they offer the service.
-- name: ScheduleProviders :many
SELECT p.id, p.public_name, p.online_booking,
    CAST(EXISTS (SELECT 1 FROM service_providers sp
        WHERE sp.provider_id = p.id AND sp.service_id = sqlc.arg(service_id)) AS BOOLEAN) AS offers_service
FROM provider_locations pl JOIN providers p ON p.id = pl.provider_id
WHERE pl.location_id = sqlc.arg(location_id) AND p.active = 1
  AND (CAST(sqlc.arg(provider_id) AS INTEGER) = 0 OR p.id = sqlc.arg(provider_id))
ORDER BY p.id;

-- sqlc expands a slice into bare ? placeholders, which SQLite numbers after the largest ?N before
-- them (queries/README.md); so in these queries every named argument comes before the slice.

-- Shifts at one location with their breaks, one row per break (NULL break: none).
-- name: ScheduleShifts :many
SELECT h.id, h.provider_id, h.day_id, h.open_min, h.close_min, b.start_min AS break_start, b.end_min AS break_end
FROM provider_hours h LEFT JOIN provider_breaks b ON b.hours_id = h.id
WHERE h.location_id = sqlc.arg(location_id) AND h.provider_id IN (sqlc.slice(provider_ids));

-- A schedule's busy time is kept in two parts (app/booking/busy.go), each under its own sum of
-- counters, so a new booking, which moves only the first, has only its part read again: the
-- providers' bookings, and the rest (time off, taught class sessions, calendar busy blocks).
-- The provider list is given twice in the queries below (sqlc expands each slice once).

-- The versions of the two parts: bookings, the sum of the providers' bookings' changes
-- (booking_counts, 00690); rest, the sum of their sessions_provider counters, raised by every
-- write to their class sessions (00363), time off (00370), calendar busy blocks and their
-- connection's stale state or rule (00530). Counters only grow, so a sum changes exactly when
-- one of its counters does.
-- name: ScheduleBusyVersion :one
SELECT CAST(coalesce((SELECT sum(c.changes) FROM booking_counts c
        WHERE c.kind = 'provider' AND c.ref_id IN (sqlc.slice(provider_ids))), 0) AS INTEGER) AS bookings,
    CAST(coalesce((SELECT sum(v.n) FROM etag_versions v
        WHERE v.kind = 'sessions_provider' AND v.ref_id IN (sqlc.slice(teacher_ids))), 0) AS INTEGER) AS rest;

-- The same versions over every provider id from first_id to last_id, for a location whose
-- providers' ids are close together: a sum over more counters than the schedule's still
-- changes whenever one of its own does (it only also changes for others'), and one range of
-- each kind costs less than half the IN list of ids above, for which SQLite builds a temporary
-- b-tree on every call.
-- name: ScheduleBusyVersionRange :one
SELECT CAST(coalesce((SELECT sum(c.changes) FROM booking_counts c
        WHERE c.kind = 'provider' AND c.ref_id >= sqlc.arg(first_id) AND c.ref_id <= sqlc.arg(last_id)), 0) AS INTEGER) AS bookings,
    CAST(coalesce((SELECT sum(v.n) FROM etag_versions v
        WHERE v.kind = 'sessions_provider' AND v.ref_id >= sqlc.arg(first_id) AND v.ref_id <= sqlc.arg(last_id)), 0) AS INTEGER) AS rest;

-- Non-cancelled bookings of the providers at any location that overlap [since, until), packed
-- into one text of "provider start end" triples separated by spaces (empty for none): a busy day
-- is hundreds of rows, and modernc SQLite spends more on handing over each row and column than
-- on finding it. Blocks are at most two days long (a CHECK), so floor = since - 2 days bounds
-- the index range from below; the index bookings_provider_blocks covers the query.
-- name: ScheduleBookingsPacked :one
SELECT CAST(coalesce(group_concat(b.provider_id || ' ' || b.block_start_at || ' ' || b.block_end_at, ' '), '') AS TEXT) AS blocks
FROM bookings b
WHERE b.block_start_at > sqlc.arg(floor) AND b.block_start_at < sqlc.arg(until) AND b.block_end_at > sqlc.arg(since)
  AND b.status_id <> 5 AND b.id <> sqlc.arg(ignore_booking_id) AND b.provider_id IN (sqlc.slice(provider_ids));

-- The providers' time off and the scheduled class sessions they teach that overlap
-- [since, until), packed as ScheduleBookingsPacked, a session's provider id negated. Sessions
-- are at most two days long (a CHECK), so floor bounds their index range
-- (class_sessions_provider_block) from below; time off has no such bound.
-- name: ScheduleTimeOffPacked :one
SELECT CAST(coalesce(group_concat(x.triple, ' '), '') AS TEXT) AS blocks FROM (
    SELECT '-' || s.provider_id || ' ' || s.block_start_at || ' ' || s.block_end_at AS triple
    FROM class_sessions s
    WHERE s.block_start_at > sqlc.arg(floor) AND s.block_start_at < sqlc.arg(until) AND s.block_end_at > sqlc.arg(since)
      AND s.status = 'scheduled' AND s.provider_id IN (sqlc.slice(teacher_ids))
    UNION ALL
    SELECT t.provider_id || ' ' || t.starts_at || ' ' || t.ends_at AS triple
    FROM provider_time_off t
    WHERE t.starts_at < sqlc.arg(until) AND t.ends_at > sqlc.arg(since) AND t.provider_id IN (sqlc.slice(provider_ids))
) x;

-- Busy blocks from the providers' own calendars (calendar_busy, 00530) that overlap
-- [since, until): a connection whose busy time is stale and whose owner chose that stale busy
-- time does not block is left out. Blocks are at most two days long, so floor bounds the index
-- range from below, as for bookings.
-- name: ScheduleCalendarBusy :many
SELECT b.provider_id, b.starts_at, b.ends_at, b.summary
FROM calendar_busy b JOIN calendar_connections c ON c.id = b.connection_id
WHERE b.starts_at > sqlc.arg(floor) AND b.starts_at < sqlc.arg(until) AND b.ends_at > sqlc.arg(since)
  AND b.provider_id IN (sqlc.slice(provider_ids)) AND (c.stale = 0 OR c.stale_blocks = 1)
ORDER BY b.provider_id, b.starts_at;
