-- Change counters for conditional GET on /v3 (db/migrations/00330_etag_versions.sql).

-- name: EtagVersion :one
SELECT CAST(coalesce((SELECT n FROM etag_versions WHERE kind = sqlc.arg(kind) AND ref_id = sqlc.arg(ref_id)), 0) AS INTEGER) AS n;

-- The version of the bookings of one location, client, service or provider (kind 'location',
-- 'client', 'service', 'provider'): the sum of the changes of its booking_counts rows, which only
-- grows and moves with every change of those bookings (db/migrations/00690_booking_counters_folded.sql).
-- name: BookingsVersion :one
SELECT CAST(coalesce(sum(changes), 0) AS INTEGER) AS n FROM booking_counts
WHERE kind = sqlc.arg(kind) AND ref_id = sqlc.arg(ref_id);

-- The counter of one booking; no row when the booking does not exist.
-- name: BookingEtag :one
SELECT CAST(coalesce(v.n, 0) AS INTEGER) AS n
FROM bookings b LEFT JOIN etag_versions v ON v.kind = 'booking' AND v.ref_id = b.id
WHERE b.id = sqlc.arg(id);

-- The counters of one client and of the attribute templates; no row when the client does not
-- exist.
-- name: ClientEtag :one
SELECT CAST(coalesce(v.n, 0) AS INTEGER) AS n,
    CAST(coalesce((SELECT t.n FROM etag_versions t WHERE t.kind = 'custom_attributes' AND t.ref_id = 0), 0) AS INTEGER) AS templates
FROM clients c LEFT JOIN etag_versions v ON v.kind = 'client' AND v.ref_id = c.id
WHERE c.id = sqlc.arg(id);
