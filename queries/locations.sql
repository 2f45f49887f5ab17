-- name: CountLocations :one
SELECT count(*) FROM locations WHERE sqlc.narg(active) IS NULL OR active = sqlc.narg(active);

-- name: ListLocations :many
SELECT sqlc.embed(l), c.name AS country_name, c.code AS country_code
FROM locations l JOIN countries c ON c.id = l.country_id
WHERE sqlc.narg(active) IS NULL OR l.active = sqlc.narg(active)
ORDER BY l.id LIMIT CAST(sqlc.arg(limit) AS INTEGER) OFFSET CAST(sqlc.arg(offset) AS INTEGER);

-- name: GetLocation :one
SELECT sqlc.embed(l), c.name AS country_name, c.code AS country_code
FROM locations l JOIN countries c ON c.id = l.country_id
WHERE l.id = ?;

-- name: ListLocationHours :many
SELECT * FROM location_hours WHERE location_id = ? ORDER BY day_id, open_min;

-- name: ListLocationHoursFor :many
SELECT * FROM location_hours WHERE location_id IN (sqlc.slice(ids)) ORDER BY location_id, day_id, open_min;

-- name: ListAllLocations :many
SELECT * FROM locations ORDER BY id;

-- name: CreateCountry :one
INSERT INTO countries (code, name) VALUES (?, ?)
ON CONFLICT (code) DO UPDATE SET name = excluded.name
RETURNING *;

-- name: CreateLocation :one
INSERT INTO locations (uuid, name, active, address_json, phone, email, latitude, longitude, timezone,
    image_url, image_map, country_id, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING *;

-- name: UpdateLocation :exec
UPDATE locations SET name = ?, active = ?, address_json = ?, phone = ?, email = ?, latitude = ?, longitude = ?,
    timezone = ?, image_url = ?, image_map = ?, country_id = ?, updated_at = ?
WHERE id = ?;

-- name: CreateLocationHours :exec
INSERT INTO location_hours (location_id, day_id, open_min, close_min) VALUES (?, ?, ?, ?);

-- name: DeleteLocationHours :exec
DELETE FROM location_hours WHERE location_id = ?;

-- name: CreateLocationClosure :exec
INSERT INTO location_closures (location_id, date, reason) VALUES (?, ?, ?);

-- name: DeleteLocationClosure :exec
DELETE FROM location_closures WHERE id = ? AND location_id = ?;

-- The business's country: the first active location's (by id), where a phone number typed
-- without its country code is read in the admin.
-- name: BusinessCountry :one
SELECT c.code FROM locations l JOIN countries c ON c.id = l.country_id
ORDER BY l.active DESC, l.id LIMIT 1;
