-- Writes that only `frontdesk import` makes. Clients and bookings go straight in, without the API's
-- side effects: no webhook events.
-- name: ImportClient :one
INSERT INTO clients (first_name, last_name, email, phone, second_phone, identification_number, address,
    district, city, region, age, gender, birth_day, birth_month, birth_year, record_number, photo,
    nationality, phone_country, active, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING id;

-- name: ImportClientAttributeValue :exec
INSERT INTO client_attribute_values (client_id, attribute_id, value) VALUES (?, ?, ?);

-- name: ImportBooking :one
INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at,
    block_start_at, block_end_at, price_cents, list_price_cents, discount_bp, notes, source,
    session_id, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'import', ?, ?, ?)
RETURNING id;

-- name: FindAttributeGroupByName :one
SELECT * FROM attribute_groups WHERE name = ? ORDER BY id LIMIT 1;

-- name: FindClientByRecordNumber :one
SELECT id FROM clients WHERE record_number = ?;

-- name: GetImportKey :one
SELECT * FROM import_keys WHERE kind = ? AND key = ?;

-- name: CreateImportKey :exec
INSERT INTO import_keys (kind, key, record_id, imported_at) VALUES (?, ?, ?, ?);

-- Keys of timetable entries and one-off class sessions (db/migrations/00250_classes.sql).
-- name: GetImportClassKey :one
SELECT * FROM import_class_keys WHERE kind = ? AND key = ?;

-- name: CreateImportClassKey :exec
INSERT INTO import_class_keys (kind, key, record_id, imported_at) VALUES (?, ?, ?, ?);
