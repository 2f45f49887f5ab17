-- The admin UI's client list (app/admin/clients.go). Writes go through app/clients.
--
-- A search of three or more characters reads the trigram index of migration 00010 (name, email,
-- phone, identification and record number; case and diacritics ignored). Shorter text, and no
-- text at all, walk the clients in name order: needle is the lower-cased text ('' = every
-- client), matched with instr so '%' and '_' are plain characters. active NULL lists active and
-- deactivated clients alike.

-- name: AdminListClients :many
SELECT id, first_name, last_name, email, phone, record_number, active
FROM clients
WHERE (active = sqlc.narg(active) OR sqlc.narg(active) IS NULL)
  AND (CAST(sqlc.arg(needle) AS TEXT) = ''
    OR instr(lower(first_name || ' ' || coalesce(last_name, '') || ' ' || coalesce(email, '') || ' '
        || coalesce(phone, '') || ' ' || coalesce(identification_number, '') || ' ' || coalesce(record_number, '')),
        sqlc.arg(needle)) > 0)
ORDER BY first_name COLLATE NOCASE, id
LIMIT CAST(sqlc.arg(limit) AS INTEGER) OFFSET CAST(sqlc.arg(offset) AS INTEGER);

-- name: AdminCountClients :one
SELECT count(*) FROM clients
WHERE (active = sqlc.narg(active) OR sqlc.narg(active) IS NULL)
  AND (CAST(sqlc.arg(needle) AS TEXT) = ''
    OR instr(lower(first_name || ' ' || coalesce(last_name, '') || ' ' || coalesce(email, '') || ' '
        || coalesce(phone, '') || ' ' || coalesce(identification_number, '') || ' ' || coalesce(record_number, '')),
        sqlc.arg(needle)) > 0);

-- phrase is an FTS5 phrase query: the text in double quotes, inner quotes doubled.
-- name: AdminSearchClients :many
SELECT c.id, c.first_name, c.last_name, c.email, c.phone, c.record_number, c.active
FROM client_search s JOIN clients c ON c.id = s.rowid
WHERE s.doc MATCH sqlc.arg(phrase) AND (c.active = sqlc.narg(active) OR sqlc.narg(active) IS NULL)
ORDER BY c.first_name COLLATE NOCASE, c.id
LIMIT CAST(sqlc.arg(limit) AS INTEGER) OFFSET CAST(sqlc.arg(offset) AS INTEGER);

-- name: AdminCountClientSearch :one
SELECT count(*)
FROM client_search s JOIN clients c ON c.id = s.rowid
WHERE s.doc MATCH sqlc.arg(phrase) AND (c.active = sqlc.narg(active) OR sqlc.narg(active) IS NULL);

-- name: AdminClientNames :many
SELECT id, first_name, last_name, email, phone, active FROM clients WHERE id IN (sqlc.slice(ids));
