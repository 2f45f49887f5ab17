-- name: CountClients :one
SELECT count(*) FROM clients;

-- name: ListClients :many
SELECT * FROM clients ORDER BY id LIMIT CAST(sqlc.arg(limit) AS INTEGER) OFFSET CAST(sqlc.arg(offset) AS INTEGER);

-- name: GetClient :one
SELECT * FROM clients WHERE id = ?;

-- name: CreateClient :one
INSERT INTO clients (first_name, last_name, email, phone, second_phone, identification_number, address, district,
    city, region, age, gender, birth_day, birth_month, birth_year, record_number, photo, nationality, phone_country,
    active, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING *;

-- name: UpdateClient :exec
UPDATE clients SET first_name = ?, last_name = ?, email = ?, phone = ?, second_phone = ?, identification_number = ?,
    address = ?, district = ?, city = ?, region = ?, age = ?, gender = ?, birth_day = ?, birth_month = ?,
    birth_year = ?, record_number = ?, photo = ?, nationality = ?, phone_country = ?, active = ?, updated_at = ?
WHERE id = ?;

-- name: DeactivateClient :execrows
UPDATE clients SET active = 0, updated_at = ? WHERE id = ? AND active = 1;

-- name: ClientRecordNumberTaken :one
SELECT EXISTS (SELECT 1 FROM clients WHERE record_number = sqlc.arg(record_number) AND id <> sqlc.arg(id));

-- Telling who a customer is from what they give (app/clients Find: the booking site, MCP): the
-- oldest active client with that email (stored lower-case), else with that phone (stored
-- E.164). Deactivated clients are never matched. Exact matches only: whoever knows an email or
-- phone learns that client, never a list to browse.
-- name: ClientMatchByEmail :one
SELECT id, first_name, last_name FROM clients WHERE email = ? AND active = 1 ORDER BY id LIMIT 1;

-- name: ClientMatchByPhone :one
SELECT id, first_name, last_name FROM clients WHERE phone = ? AND active = 1 ORDER BY id LIMIT 1;

-- The custom attributes a client has answered.
-- name: ClientAnsweredAttributeIDs :many
SELECT attribute_id FROM client_attribute_values WHERE client_id = ? AND value IS NOT NULL AND value <> '';

-- name: ListClientAttributeValues :many
SELECT v.client_id, v.attribute_id, v.value, a.name, a.datatype
FROM client_attribute_values v JOIN custom_attributes a ON a.id = v.attribute_id
WHERE v.client_id = ? AND v.value IS NOT NULL
ORDER BY a.sort_order, a.id;

-- name: ListClientAttributeValuesFor :many
SELECT v.client_id, v.attribute_id, v.value, a.name, a.datatype
FROM client_attribute_values v JOIN custom_attributes a ON a.id = v.attribute_id
WHERE v.client_id IN (sqlc.slice(ids)) AND v.value IS NOT NULL
ORDER BY v.client_id, a.sort_order, a.id;

-- name: ListClientCustomAttributes :many
SELECT a.id, a.name, a.datatype, v.value
FROM custom_attributes a LEFT JOIN client_attribute_values v ON v.attribute_id = a.id AND v.client_id = ?
ORDER BY a.sort_order, a.id;

-- name: SetClientAttributeValue :exec
INSERT INTO client_attribute_values (client_id, attribute_id, value) VALUES (?, ?, ?)
ON CONFLICT (client_id, attribute_id) DO UPDATE SET value = excluded.value;

-- name: DeleteClientAttributeValue :exec
DELETE FROM client_attribute_values WHERE client_id = ? AND attribute_id = ?;

-- Quick search runs in tiers (see migration 00010): exact matches, then prefixes, then, for
-- three or more characters, the trigram index. Each tier is a UNION ALL of single-index lookups
-- (SQLite does not combine NOCASE indexes for an OR), streamed until LIMIT, so a common query
-- costs what a rare one does; a client matching several arms comes back several times and the
-- caller keeps the first. q is the query as typed, lower the query lower-cased (emails are
-- stored lower-case), q_end and lower_end the smallest strings above every string that starts
-- with q / lower, first and rest the query split at its first space (empty when there is none)
-- for "first last" queries, rest_end the bound of rest.

-- name: SearchClientsExact :many
SELECT c1.id, c1.first_name, c1.last_name, c1.email, c1.phone, c1.identification_number, c1.record_number FROM clients c1
WHERE c1.active = 1 AND c1.email = sqlc.arg(lower)
UNION ALL
SELECT c2.id, c2.first_name, c2.last_name, c2.email, c2.phone, c2.identification_number, c2.record_number FROM clients c2
WHERE c2.active = 1 AND c2.phone = sqlc.arg(q)
UNION ALL
SELECT c3.id, c3.first_name, c3.last_name, c3.email, c3.phone, c3.identification_number, c3.record_number FROM clients c3
WHERE c3.active = 1 AND c3.identification_number = sqlc.arg(q) COLLATE NOCASE
UNION ALL
SELECT c4.id, c4.first_name, c4.last_name, c4.email, c4.phone, c4.identification_number, c4.record_number FROM clients c4
WHERE c4.active = 1 AND c4.record_number = sqlc.arg(q) COLLATE NOCASE
UNION ALL
SELECT c5.id, c5.first_name, c5.last_name, c5.email, c5.phone, c5.identification_number, c5.record_number FROM clients c5
WHERE c5.active = 1 AND c5.first_name = sqlc.arg(q) COLLATE NOCASE
UNION ALL
SELECT c6.id, c6.first_name, c6.last_name, c6.email, c6.phone, c6.identification_number, c6.record_number FROM clients c6
WHERE c6.active = 1 AND c6.last_name = sqlc.arg(q) COLLATE NOCASE
UNION ALL
SELECT c7.id, c7.first_name, c7.last_name, c7.email, c7.phone, c7.identification_number, c7.record_number FROM clients c7
WHERE c7.active = 1 AND c7.first_name = sqlc.arg(first) COLLATE NOCASE AND c7.last_name = sqlc.arg(rest) COLLATE NOCASE
LIMIT CAST(sqlc.arg(limit) AS INTEGER);

-- name: SearchClientsPrefix :many
SELECT c1.id, c1.first_name, c1.last_name, c1.email, c1.phone, c1.identification_number, c1.record_number FROM clients c1
WHERE c1.active = 1 AND c1.email >= sqlc.arg(lower) AND c1.email < sqlc.arg(lower_end)
UNION ALL
SELECT c2.id, c2.first_name, c2.last_name, c2.email, c2.phone, c2.identification_number, c2.record_number FROM clients c2
WHERE c2.active = 1 AND c2.phone >= sqlc.arg(q) AND c2.phone < sqlc.arg(q_end)
UNION ALL
SELECT c3.id, c3.first_name, c3.last_name, c3.email, c3.phone, c3.identification_number, c3.record_number FROM clients c3
WHERE c3.active = 1 AND c3.identification_number >= sqlc.arg(q) COLLATE NOCASE AND c3.identification_number < sqlc.arg(q_end) COLLATE NOCASE
UNION ALL
SELECT c4.id, c4.first_name, c4.last_name, c4.email, c4.phone, c4.identification_number, c4.record_number FROM clients c4
WHERE c4.active = 1 AND c4.record_number >= sqlc.arg(q) COLLATE NOCASE AND c4.record_number < sqlc.arg(q_end) COLLATE NOCASE
UNION ALL
SELECT c5.id, c5.first_name, c5.last_name, c5.email, c5.phone, c5.identification_number, c5.record_number FROM clients c5
WHERE c5.active = 1 AND c5.first_name >= sqlc.arg(q) COLLATE NOCASE AND c5.first_name < sqlc.arg(q_end) COLLATE NOCASE
UNION ALL
SELECT c6.id, c6.first_name, c6.last_name, c6.email, c6.phone, c6.identification_number, c6.record_number FROM clients c6
WHERE c6.active = 1 AND c6.last_name >= sqlc.arg(q) COLLATE NOCASE AND c6.last_name < sqlc.arg(q_end) COLLATE NOCASE
UNION ALL
SELECT c7.id, c7.first_name, c7.last_name, c7.email, c7.phone, c7.identification_number, c7.record_number FROM clients c7
WHERE c7.active = 1 AND c7.first_name = sqlc.arg(first) COLLATE NOCASE AND c7.last_name >= sqlc.arg(rest) COLLATE NOCASE
    AND c7.last_name < sqlc.arg(rest_end) COLLATE NOCASE
LIMIT CAST(sqlc.arg(limit) AS INTEGER);

-- phrase is an FTS5 phrase query: the query in double quotes, inner quotes doubled.
-- name: SearchClientsContaining :many
SELECT c.id, c.first_name, c.last_name, c.email, c.phone, c.identification_number, c.record_number
FROM client_search s JOIN clients c ON c.id = s.rowid
WHERE s.doc MATCH sqlc.arg(phrase) AND c.active = 1
LIMIT CAST(sqlc.arg(limit) AS INTEGER);
