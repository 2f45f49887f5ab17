-- The admin UI's catalog pages (app/catalog): reads for the lists and forms, and the updates and
-- deletes behind them. The inserts are shared with `frontdesk import` (catalog.sql,
-- locations.sql, categories.sql).

-- Services ------------------------------------------------------------------------------------

-- needle is the lower-cased search text ('' = every service), matched with instr so '%' and '_'
-- are plain characters.
-- name: AdminListServices :many
SELECT sqlc.embed(s), c.name AS category_name
FROM services s LEFT JOIN categories c ON c.id = s.category_id
WHERE CAST(sqlc.arg(needle) AS TEXT) = '' OR instr(lower(s.name), sqlc.arg(needle)) > 0
    OR instr(lower(s.keywords_json), sqlc.arg(needle)) > 0
ORDER BY lower(s.name), s.id;

-- name: AdminListServicesByID :many
SELECT sqlc.embed(s), c.name AS category_name
FROM services s LEFT JOIN categories c ON c.id = s.category_id
WHERE s.id IN (sqlc.slice(ids))
ORDER BY s.id;

-- name: AdminListServiceNames :many
SELECT id, name, active FROM services ORDER BY lower(name), id;

-- name: UpdateService :exec
UPDATE services SET name = ?, active = ?, price_cents = ?, has_discount = ?, discount_bp = ?, duration_min = ?,
    buffer_before_min = ?, buffer_after_min = ?, description = ?, category_id = ?, capacity = ?, session_count = ?,
    online_booking = ?, online_payment_mode = ?, online_payment_cents = ?, outcall = ?, is_video = ?, location_id = ?,
    favorite = ?, keywords_json = ?, updated_at = ?
WHERE id = ?;

-- name: TouchServices :exec
UPDATE services SET updated_at = sqlc.arg(updated_at) WHERE id IN (sqlc.slice(ids));

-- name: ListServiceImages :many
SELECT * FROM service_images WHERE service_id = ? ORDER BY position, id;

-- name: DeleteServiceImages :exec
DELETE FROM service_images WHERE service_id = ?;

-- Every provider offering the service, active or not (the form ticks them all).
-- name: ListServiceProviderIDs :many
SELECT provider_id FROM service_providers WHERE service_id = ? ORDER BY provider_id;

-- name: DeleteServiceProviders :exec
DELETE FROM service_providers WHERE service_id = ?;

-- name: ListCategoryServiceIDs :many
SELECT id FROM services WHERE category_id = ? ORDER BY id;

-- Categories ----------------------------------------------------------------------------------

-- name: AdminListCategories :many
SELECT c.id, c.name, c.sort_order, c.created_at, c.updated_at,
    (SELECT count(*) FROM services s WHERE s.category_id = c.id) AS service_count
FROM categories c ORDER BY c.sort_order, c.id;

-- Locations -----------------------------------------------------------------------------------

-- name: AdminListLocations :many
SELECT sqlc.embed(l), c.name AS country_name, c.code AS country_code
FROM locations l JOIN countries c ON c.id = l.country_id
ORDER BY lower(l.name), l.id;

-- name: GetCountryByCode :one
SELECT * FROM countries WHERE code = ?;

-- name: ListAllLocationClosures :many
SELECT * FROM location_closures WHERE location_id = ? ORDER BY date;

-- Providers -----------------------------------------------------------------------------------

-- name: AdminListProviders :many
SELECT p.id, p.public_name, p.active, p.online_booking, p.location_id, l.name AS location_name,
    (SELECT count(*) FROM service_providers sp WHERE sp.provider_id = p.id) AS service_count
FROM providers p JOIN locations l ON l.id = p.location_id
ORDER BY lower(p.public_name), p.id;

-- name: UpdateProvider :exec
UPDATE providers SET public_name = ?, active = ?, online_booking = ?, location_id = ?, email = ?, phone = ?,
    notify_bookings = ?, agenda_min = ?, updated_at = ?
WHERE id = ?;

-- name: ListProviderLocationIDs :many
SELECT location_id FROM provider_locations WHERE provider_id = ? ORDER BY location_id;

-- name: DeleteProviderLocations :exec
DELETE FROM provider_locations WHERE provider_id = ?;

-- name: ListProviderServiceIDs :many
SELECT service_id FROM service_providers WHERE provider_id = ? ORDER BY service_id;

-- name: DeleteProviderServices :exec
DELETE FROM service_providers WHERE provider_id = ?;

-- Every shift of the provider at every location, with its breaks (one row per break; NULL: none).
-- name: ListProviderShifts :many
SELECT h.id, h.location_id, h.day_id, h.open_min, h.close_min, b.start_min AS break_start, b.end_min AS break_end
FROM provider_hours h LEFT JOIN provider_breaks b ON b.hours_id = h.id
WHERE h.provider_id = ?
ORDER BY h.location_id, h.day_id, h.open_min, h.id, b.start_min;

-- Breaks go with their shifts (ON DELETE CASCADE).
-- name: DeleteProviderHours :exec
DELETE FROM provider_hours WHERE provider_id = ?;

-- name: ListProviderTimeOff :many
SELECT * FROM provider_time_off WHERE provider_id = ? ORDER BY starts_at DESC, id DESC;

-- name: DeleteProviderTimeOff :execrows
DELETE FROM provider_time_off WHERE id = ? AND provider_id = ?;

-- Custom attribute templates ------------------------------------------------------------------

-- name: GetCustomAttribute :one
SELECT sqlc.embed(a), g.name AS group_name
FROM custom_attributes a LEFT JOIN attribute_groups g ON g.id = a.group_id
WHERE a.id = ?;

-- name: UpdateCustomAttribute :exec
UPDATE custom_attributes SET name = ?, datatype = ?, sort_order = ?, description = ?, mandatory = ?, group_id = ?
WHERE id = ?;

-- name: DeleteCustomAttribute :execrows
DELETE FROM custom_attributes WHERE id = ?;

-- name: ListAttributeGroups :many
SELECT * FROM attribute_groups ORDER BY sort_order, id;

-- name: NextAttributeGroupOrder :one
SELECT CAST(coalesce(max(sort_order), 0) + 1 AS INTEGER) FROM attribute_groups;

-- name: ListAttributeOptionsOf :many
SELECT * FROM attribute_options WHERE attribute_id = ? ORDER BY sort_order, id;

-- name: UpdateAttributeOptionOrder :exec
UPDATE attribute_options SET sort_order = ? WHERE id = ?;

-- name: DeleteAttributeOption :exec
DELETE FROM attribute_options WHERE id = ?;

-- name: CountAttributeValues :one
SELECT count(*) FROM client_attribute_values WHERE attribute_id = ? AND value IS NOT NULL AND value <> '';

-- The distinct values clients hold for a template: a categoric option in use cannot be removed.
-- name: ListAttributeValuesInUse :many
SELECT DISTINCT value FROM client_attribute_values WHERE attribute_id = ? AND value IS NOT NULL ORDER BY value;

-- The country of each location: a provider's phone written without "+" is read as dialled in
-- their main location's.
-- name: LocationCountryCodes :many
SELECT l.id, c.code FROM locations l JOIN countries c ON c.id = l.country_id ORDER BY l.id;
