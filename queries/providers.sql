-- Provider filters: location_ids (the provider's main location or any other it works at) and
-- service_ids are JSON arrays of ids ('[]' = no filter), so one static query serves every
-- combination; name_needle is the lower-cased partial name (empty = no filter), matched with instr
-- so '%' and '_' in it are plain characters.

-- name: CountProviders :one
SELECT count(*) FROM providers p
WHERE (CAST(sqlc.arg(location_ids) AS TEXT) = '[]'
        OR p.location_id IN (SELECT value FROM json_each(sqlc.arg(location_ids)))
        OR p.id IN (SELECT pl.provider_id FROM provider_locations pl
            WHERE pl.location_id IN (SELECT value FROM json_each(sqlc.arg(location_ids)))))
    AND (CAST(sqlc.arg(service_ids) AS TEXT) = '[]' OR p.id IN (SELECT sp.provider_id FROM service_providers sp
        WHERE sp.service_id IN (SELECT value FROM json_each(sqlc.arg(service_ids)))))
    AND (CAST(sqlc.arg(name_needle) AS TEXT) = '' OR instr(lower(p.public_name), sqlc.arg(name_needle)) > 0)
    AND (sqlc.narg(active) IS NULL OR p.active = sqlc.narg(active));

-- Sorting by a parameter: sqlc does not bind parameters in ORDER BY, so the sort key and the
-- direction are computed as columns and the ORDER BY only reads columns.
-- name: ListProviders :many
SELECT id, public_name, active, online_booking, location_id, created_at, updated_at, has_hours FROM (
    SELECT p.id, p.public_name, p.active, p.online_booking, p.location_id, p.created_at, p.updated_at,
        EXISTS (SELECT 1 FROM provider_hours h WHERE h.provider_id = p.id) AS has_hours,
        CASE CAST(sqlc.arg(sort_by) AS TEXT)
            WHEN 'public_name' THEN lower(p.public_name)
            WHEN 'created_at' THEN p.created_at
            ELSE p.id
        END AS sort_key,
        CAST(sqlc.arg(descending) AS INTEGER) AS descending
    FROM providers p
    WHERE (CAST(sqlc.arg(location_ids) AS TEXT) = '[]'
            OR p.location_id IN (SELECT value FROM json_each(sqlc.arg(location_ids)))
            OR p.id IN (SELECT pl.provider_id FROM provider_locations pl
                WHERE pl.location_id IN (SELECT value FROM json_each(sqlc.arg(location_ids)))))
        AND (CAST(sqlc.arg(service_ids) AS TEXT) = '[]' OR p.id IN (SELECT sp.provider_id FROM service_providers sp
            WHERE sp.service_id IN (SELECT value FROM json_each(sqlc.arg(service_ids)))))
        AND (CAST(sqlc.arg(name_needle) AS TEXT) = '' OR instr(lower(p.public_name), sqlc.arg(name_needle)) > 0)
        AND (sqlc.narg(active) IS NULL OR p.active = sqlc.narg(active))
) AS f
ORDER BY
    CASE WHEN descending = 0 THEN sort_key END ASC,
    CASE WHEN descending = 1 THEN sort_key END DESC,
    CASE WHEN descending = 0 THEN id END ASC,
    id DESC
LIMIT CAST(sqlc.arg(limit) AS INTEGER) OFFSET CAST(sqlc.arg(offset) AS INTEGER);

-- name: GetProvider :one
SELECT p.id, p.public_name, p.active, p.online_booking, p.location_id, p.created_at, p.updated_at,
    EXISTS (SELECT 1 FROM provider_hours h WHERE h.provider_id = p.id) AS has_hours
FROM providers p WHERE p.id = ?;

-- What the admin's provider form shows besides GetProvider: how to reach them, and what they
-- are emailed.
-- name: GetProviderContact :one
SELECT email, phone, notify_bookings, agenda_min FROM providers WHERE id = ?;

-- Working hours at each provider's main location (Provider.location_id).
-- name: ListProviderMainHoursFor :many
SELECT h.* FROM provider_hours h JOIN providers p ON p.id = h.provider_id AND p.location_id = h.location_id
WHERE h.provider_id IN (sqlc.slice(ids))
ORDER BY h.provider_id, h.day_id, h.open_min;

-- name: ListProviderMainBreaksFor :many
SELECT b.* FROM provider_breaks b
    JOIN provider_hours h ON h.id = b.hours_id
    JOIN providers p ON p.id = h.provider_id AND p.location_id = h.location_id
WHERE h.provider_id IN (sqlc.slice(ids))
ORDER BY b.hours_id, b.start_min;

-- name: ListProviderImagesFor :many
SELECT * FROM provider_images WHERE provider_id IN (sqlc.slice(ids)) ORDER BY provider_id, position, id;
