-- Resources: the rooms and equipment of a location, what services require, and the holds of
-- bookings (db/migrations/00550_resources.sql; app/booking/resources.go).

-- The resources a service requires at a location, in id order.
-- name: ServiceResourcesAt :many
SELECT r.id, r.name, r.kind, r.quantity
FROM service_resources sr JOIN resources r ON r.id = sr.resource_id
WHERE sr.service_id = sqlc.arg(service_id) AND r.location_id = sqlc.arg(location_id)
ORDER BY r.id;

-- The live holds of some resources over [since, until), but for one booking's (a reschedule).
-- name: ResourceHolds :many
SELECT resource_id, block_start_at, block_end_at FROM booking_resources
WHERE resource_id IN (sqlc.slice(resource_ids))
  AND block_start_at > sqlc.arg(floor) AND block_start_at < sqlc.arg(until) AND block_end_at > sqlc.arg(since)
  AND live AND booking_id <> sqlc.arg(ignore_booking_id)
ORDER BY resource_id, block_start_at;

-- How many writes the holds of some resources have seen: what a slot search read from them is
-- good for as long as this stays the same.
-- name: ResourceHoldsVersion :one
SELECT CAST(coalesce(sum(n), 0) AS INTEGER) AS n FROM resource_holds_version
WHERE resource_id IN (sqlc.slice(resource_ids));

-- name: ListResources :many
SELECT r.id, r.location_id, r.name, r.kind, r.quantity, r.created_at, r.updated_at, l.name AS location_name
FROM resources r JOIN locations l ON l.id = r.location_id
ORDER BY l.name, r.name, r.id;

-- name: LocationResources :many
SELECT id, location_id, name, kind, quantity, created_at, updated_at FROM resources
WHERE location_id = ? ORDER BY name, id;

-- name: GetResource :one
SELECT id, location_id, name, kind, quantity, created_at, updated_at FROM resources WHERE id = ?;

-- name: InsertResource :one
INSERT INTO resources (location_id, name, kind, quantity, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?)
RETURNING id, location_id, name, kind, quantity, created_at, updated_at;

-- name: UpdateResource :execrows
UPDATE resources SET name = ?, kind = ?, quantity = ?, updated_at = ? WHERE id = ?;

-- name: DeleteResource :execrows
DELETE FROM resources WHERE id = ?;

-- The resources a service requires, at every location.
-- name: ServiceResourceIDs :many
SELECT resource_id FROM service_resources WHERE service_id = ? ORDER BY resource_id;

-- name: ClearServiceResources :exec
DELETE FROM service_resources WHERE service_id = ?;

-- name: AddServiceResource :exec
INSERT INTO service_resources (service_id, resource_id) VALUES (?, ?);

-- The resources held by bookings, for the day view's resource columns.
-- name: BookingResourcesOf :many
SELECT br.booking_id, br.resource_id, r.name
FROM booking_resources br JOIN resources r ON r.id = br.resource_id
WHERE br.booking_id IN (sqlc.slice(booking_ids)) AND br.live
ORDER BY br.booking_id, r.name;

-- name: ResourceLocationIDs :many
SELECT id FROM locations ORDER BY id;
