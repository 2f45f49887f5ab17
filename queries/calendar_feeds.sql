-- Calendar feeds (db/migrations/00415_calendar_feeds.sql, app/feeds, docs/feeds.md).

-- name: CalendarFeedByHash :one
SELECT f.id, f.provider_id, f.location_id, f.details, f.updated_at,
    CAST(coalesce(p.public_name, l.name) AS TEXT) AS name,
    CAST(coalesce(pl.timezone, l.timezone) AS TEXT) AS timezone
FROM calendar_feeds f
LEFT JOIN providers p ON p.id = f.provider_id
LEFT JOIN locations pl ON pl.id = p.location_id
LEFT JOIN locations l ON l.id = f.location_id
WHERE f.token_hash = sqlc.arg(token_hash);

-- name: CalendarFeedOfProvider :one
SELECT id, details, created_at, updated_at FROM calendar_feeds WHERE provider_id = sqlc.arg(provider_id);

-- name: CalendarFeedOfLocation :one
SELECT id, details, created_at, updated_at FROM calendar_feeds WHERE location_id = sqlc.arg(location_id);

-- name: InsertCalendarFeed :exec
INSERT INTO calendar_feeds (provider_id, location_id, token_hash, details, created_at, updated_at)
VALUES (sqlc.narg(provider_id), sqlc.narg(location_id), sqlc.arg(token_hash), 0, sqlc.arg(now), sqlc.arg(now));

-- name: SetCalendarFeedToken :exec
UPDATE calendar_feeds SET token_hash = sqlc.arg(token_hash), updated_at = sqlc.arg(now) WHERE id = sqlc.arg(id);

-- name: SetCalendarFeedDetails :exec
UPDATE calendar_feeds SET details = sqlc.arg(details), updated_at = sqlc.arg(now) WHERE id = sqlc.arg(id);

-- name: DeleteCalendarFeed :exec
DELETE FROM calendar_feeds WHERE id = sqlc.arg(id);

-- The counters a feed's content depends on besides the catalog version: its bookings (the
-- changes of the provider's or location's booking_counts rows, 00690), its class sessions (kinds
-- sessions_provider or sessions_location) and the clients.
-- name: CalendarFeedCounters :one
SELECT
    CAST(coalesce((SELECT sum(b.changes) FROM booking_counts b WHERE b.kind = sqlc.arg(bookings_kind) AND b.ref_id = sqlc.arg(ref_id)), 0) AS INTEGER) AS bookings,
    CAST(coalesce((SELECT s.n FROM etag_versions s WHERE s.kind = sqlc.arg(sessions_kind) AND s.ref_id = sqlc.arg(ref_id)), 0) AS INTEGER) AS sessions,
    CAST(coalesce((SELECT c.n FROM etag_versions c WHERE c.kind = 'clients' AND c.ref_id = 0), 0) AS INTEGER) AS clients;

-- A provider's feed's bookings (and below, a location's): those starting in [from_at, to_at),
-- cancelled ones only if last changed since cancelled_since; class seats are left out (their
-- session is the event). version is the booking's change counter (00330).
-- name: CalendarFeedProviderBookings :many
SELECT b.id, b.start_at, b.end_at, b.status_id, b.change_count, b.notes, b.updated_at,
    CAST(coalesce(v.n, 0) AS INTEGER) AS version,
    s.name AS service_name, p.public_name AS provider_name, l.name AS location_name,
    c.first_name, c.last_name, c.phone
FROM bookings b
JOIN services s ON s.id = b.service_id
JOIN providers p ON p.id = b.provider_id
JOIN locations l ON l.id = b.location_id
JOIN clients c ON c.id = b.client_id
LEFT JOIN etag_versions v ON v.kind = 'booking' AND v.ref_id = b.id
WHERE b.provider_id = sqlc.arg(id)
    AND b.start_at >= sqlc.arg(from_at) AND b.start_at < sqlc.arg(to_at)
    AND b.scheduled = 1 AND b.session_id IS NULL
    AND (b.status_id <> 5 OR b.updated_at >= sqlc.arg(cancelled_since))
ORDER BY b.start_at, b.id;

-- name: CalendarFeedLocationBookings :many
SELECT b.id, b.start_at, b.end_at, b.status_id, b.change_count, b.notes, b.updated_at,
    CAST(coalesce(v.n, 0) AS INTEGER) AS version,
    s.name AS service_name, p.public_name AS provider_name, l.name AS location_name,
    c.first_name, c.last_name, c.phone
FROM bookings b
JOIN services s ON s.id = b.service_id
JOIN providers p ON p.id = b.provider_id
JOIN locations l ON l.id = b.location_id
JOIN clients c ON c.id = b.client_id
LEFT JOIN etag_versions v ON v.kind = 'booking' AND v.ref_id = b.id
WHERE b.location_id = sqlc.arg(id)
    AND b.start_at >= sqlc.arg(from_at) AND b.start_at < sqlc.arg(to_at)
    AND b.scheduled = 1 AND b.session_id IS NULL
    AND (b.status_id <> 5 OR b.updated_at >= sqlc.arg(cancelled_since))
ORDER BY b.start_at, b.id;

-- A feed's class sessions, chosen like its bookings, with the seats taken.
-- name: CalendarFeedProviderSessions :many
SELECT cs.id, cs.start_at, cs.end_at, cs.status, cs.updated_at, CAST(coalesce(cs.room, '') AS TEXT) AS room,
    CAST(coalesce(v.n, 0) AS INTEGER) AS version,
    s.name AS service_name, p.public_name AS provider_name, l.name AS location_name,
    CAST((SELECT count(*) FROM bookings sb WHERE sb.session_id = cs.id AND sb.status_id <> 5) AS INTEGER) AS seats
FROM class_sessions cs
JOIN services s ON s.id = cs.service_id
JOIN providers p ON p.id = cs.provider_id
JOIN locations l ON l.id = cs.location_id
LEFT JOIN etag_versions v ON v.kind = 'session' AND v.ref_id = cs.id
WHERE cs.provider_id = sqlc.arg(id)
    AND cs.start_at >= sqlc.arg(from_at) AND cs.start_at < sqlc.arg(to_at)
    AND (cs.status = 'scheduled' OR cs.updated_at >= sqlc.arg(cancelled_since))
ORDER BY cs.start_at, cs.id;

-- name: CalendarFeedLocationSessions :many
SELECT cs.id, cs.start_at, cs.end_at, cs.status, cs.updated_at, CAST(coalesce(cs.room, '') AS TEXT) AS room,
    CAST(coalesce(v.n, 0) AS INTEGER) AS version,
    s.name AS service_name, p.public_name AS provider_name, l.name AS location_name,
    CAST((SELECT count(*) FROM bookings sb WHERE sb.session_id = cs.id AND sb.status_id <> 5) AS INTEGER) AS seats
FROM class_sessions cs
JOIN services s ON s.id = cs.service_id
JOIN providers p ON p.id = cs.provider_id
JOIN locations l ON l.id = cs.location_id
LEFT JOIN etag_versions v ON v.kind = 'session' AND v.ref_id = cs.id
WHERE cs.location_id = sqlc.arg(id)
    AND cs.start_at >= sqlc.arg(from_at) AND cs.start_at < sqlc.arg(to_at)
    AND (cs.status = 'scheduled' OR cs.updated_at >= sqlc.arg(cancelled_since))
ORDER BY cs.start_at, cs.id;
