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
