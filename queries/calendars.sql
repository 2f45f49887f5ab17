-- Providers' own calendars (docs/calendars.md, 00530): connections, their CalDAV calendars and
-- the busy blocks the sync worker stores.

-- name: CalendarConnectionByProvider :one
SELECT * FROM calendar_connections WHERE provider_id = ?;

-- name: CalendarConnection :one
SELECT * FROM calendar_connections WHERE id = ?;

-- name: CalendarConnections :many
SELECT * FROM calendar_connections ORDER BY id;

-- name: CalendarConnectionsDue :many
SELECT * FROM calendar_connections WHERE next_poll_at <= ? ORDER BY next_poll_at, id LIMIT ?;

-- name: CalendarNextPoll :one
SELECT CAST(coalesce(min(next_poll_at), 0) AS INTEGER) AS at, count(*) AS n FROM calendar_connections;

-- name: InsertCalendarConnection :one
INSERT INTO calendar_connections (provider_id, kind, url, username, password_sealed, allow_private,
    all_day_busy, reveal_summary, stale_blocks, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING id;

-- name: UpdateCalendarConnection :exec
UPDATE calendar_connections SET kind = ?, url = ?, username = ?, password_sealed = ?, allow_private = ?,
    all_day_busy = ?, reveal_summary = ?, stale_blocks = ?, etag = '', digest = '', next_poll_at = 0, updated_at = ?
WHERE id = ?;

-- name: DeleteCalendarConnection :execrows
DELETE FROM calendar_connections WHERE id = ?;

-- name: CalendarPollStarted :exec
UPDATE calendar_connections SET last_attempt_at = ?, next_poll_at = ? WHERE id = ?;

-- name: CalendarPollSucceeded :exec
UPDATE calendar_connections SET etag = ?, digest = ?, last_success_at = ?, last_error = '', stale = 0 WHERE id = ?;

-- name: CalendarPollFailed :exec
UPDATE calendar_connections SET last_error = ? WHERE id = ?;

-- name: CalendarMarkStale :execrows
UPDATE calendar_connections SET stale = 1
WHERE stale = 0 AND coalesce(last_success_at, created_at) < ?;

-- name: DeleteCalendarBusy :exec
DELETE FROM calendar_busy WHERE connection_id = ?;

-- name: InsertCalendarBusy :exec
INSERT INTO calendar_busy (connection_id, provider_id, starts_at, ends_at, summary) VALUES (?, ?, ?, ?, ?);

-- name: CalendarBusyCount :one
SELECT count(*) FROM calendar_busy WHERE connection_id = ?;

-- name: CalendarSources :many
SELECT * FROM calendar_sources WHERE connection_id = ? ORDER BY name, href;

-- name: UpsertCalendarSource :exec
INSERT INTO calendar_sources (connection_id, href, name, busy) VALUES (?, ?, ?, ?)
ON CONFLICT (connection_id, href) DO UPDATE SET name = excluded.name;

-- name: DeleteCalendarSourcesExcept :exec
DELETE FROM calendar_sources WHERE connection_id = sqlc.arg(connection_id) AND href NOT IN (sqlc.slice(hrefs));

-- name: SetCalendarSourceChoice :exec
UPDATE calendar_sources SET busy = ?, push = ? WHERE connection_id = ? AND id = ?;

-- name: ClearCalendarSummaries :exec
UPDATE calendar_busy SET summary = '' WHERE connection_id = ? AND summary <> '';

-- The zone of a provider's main location: floating times and all-day dates of their calendar
-- are read in it.
-- name: CalendarProviderZone :one
SELECT l.timezone FROM providers p JOIN locations l ON l.id = p.location_id WHERE p.id = ?;

-- name: ResetCalendarPoll :exec
UPDATE calendar_connections SET etag = '', next_poll_at = 0 WHERE id = ?;

-- Bookings written into providers' calendars (00590): the outbox calendar_pushes.

-- name: CalendarPushesDue :many
SELECT * FROM calendar_pushes WHERE due_at IS NOT NULL AND due_at <= ? ORDER BY due_at, booking_id LIMIT ?;

-- name: CalendarPushNext :one
SELECT CAST(coalesce(min(due_at), 0) AS INTEGER) AS at, count(*) AS n FROM calendar_pushes WHERE due_at IS NOT NULL;

-- What a pushed event says of a booking (docs/calendars.md, "What is written").
-- name: CalendarPushBooking :one
SELECT b.id, b.provider_id, b.start_at, b.end_at, b.status_id, b.scheduled, b.session_id, b.change_count, b.updated_at,
    CAST(coalesce(v.n, 0) AS INTEGER) AS version,
    s.name AS service_name, l.name AS location_name, l.timezone, c.first_name
FROM bookings b
JOIN services s ON s.id = b.service_id
JOIN locations l ON l.id = b.location_id
JOIN clients c ON c.id = b.client_id
LEFT JOIN etag_versions v ON v.kind = 'booking' AND v.ref_id = b.id
WHERE b.id = ?;

-- name: CalendarPushSource :one
SELECT href FROM calendar_sources WHERE connection_id = ? AND push = 1 ORDER BY id LIMIT 1;

-- name: CalendarPushPlaced :exec
UPDATE calendar_pushes SET connection_id = ?, href = ?, etag = ? WHERE booking_id = ?;

-- name: CalendarPushDone :exec
UPDATE calendar_pushes SET attempts = 0, last_error = '', attempted_at = sqlc.arg(attempted_at),
    due_at = CASE WHEN version = sqlc.arg(version) THEN NULL ELSE due_at END
WHERE booking_id = sqlc.arg(booking_id);

-- name: CalendarPushForget :exec
DELETE FROM calendar_pushes WHERE booking_id = ? AND version = ? AND href = '';

-- name: CalendarPushFailed :exec
UPDATE calendar_pushes SET attempts = attempts + 1, last_error = sqlc.arg(last_error), attempted_at = sqlc.arg(attempted_at),
    due_at = CASE WHEN version = sqlc.arg(version) THEN sqlc.arg(retry_at) ELSE due_at END
WHERE booking_id = sqlc.arg(booking_id);

-- name: CalendarPushStatus :one
SELECT count(*) AS pending,
    CAST(coalesce((SELECT p.last_error FROM calendar_pushes p WHERE p.provider_id = sqlc.arg(provider_id) AND p.due_at IS NOT NULL
        AND p.last_error <> '' ORDER BY p.attempted_at DESC LIMIT 1), '') AS TEXT) AS last_error
FROM calendar_pushes WHERE provider_id = sqlc.arg(provider_id) AND due_at IS NOT NULL;

-- A new push calendar (or none): every booking of the provider on a calendar, and every coming
-- one, is written again where it now belongs.
-- name: CalendarPushAgain :exec
UPDATE calendar_pushes SET version = version + 1, due_at = 0, attempts = 0
WHERE provider_id = sqlc.arg(provider_id) OR connection_id = sqlc.arg(connection_id);

-- name: CalendarPushComing :exec
INSERT INTO calendar_pushes (booking_id, provider_id, due_at)
SELECT b.id, b.provider_id, 0 FROM bookings b
WHERE b.provider_id = sqlc.arg(provider_id) AND b.end_at > sqlc.arg(now) AND b.status_id <> 5 AND b.scheduled = 1 AND b.session_id IS NULL
ON CONFLICT (booking_id) DO UPDATE SET version = version + 1, due_at = 0, attempts = 0;

-- name: CalendarID :one
SELECT calendar_id FROM site_settings WHERE id = 1;

-- Another account (address, user name or kind changed): its calendars are listed again, and
-- the events written into the old one are left there, no longer managed.
-- name: DeleteCalendarSources :exec
DELETE FROM calendar_sources WHERE connection_id = ?;

-- name: CalendarPushDetach :exec
UPDATE calendar_pushes SET connection_id = NULL, href = '', etag = '' WHERE connection_id = ?;
