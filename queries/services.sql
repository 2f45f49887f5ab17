-- name: CountServices :one
SELECT count(*) FROM services s
WHERE (sqlc.narg(provider_id) IS NULL
        OR s.id IN (SELECT sp.service_id FROM service_providers sp WHERE sp.provider_id = sqlc.narg(provider_id)))
    AND (sqlc.narg(active) IS NULL OR s.active = sqlc.narg(active));

-- name: ListServices :many
SELECT sqlc.embed(s), c.name AS category_name
FROM services s LEFT JOIN categories c ON c.id = s.category_id
WHERE (sqlc.narg(provider_id) IS NULL
        OR s.id IN (SELECT sp.service_id FROM service_providers sp WHERE sp.provider_id = sqlc.narg(provider_id)))
    AND (sqlc.narg(active) IS NULL OR s.active = sqlc.narg(active))
ORDER BY s.id LIMIT CAST(sqlc.arg(limit) AS INTEGER) OFFSET CAST(sqlc.arg(offset) AS INTEGER);

-- name: GetService :one
SELECT sqlc.embed(s), c.name AS category_name
FROM services s LEFT JOIN categories c ON c.id = s.category_id
WHERE s.id = ?;

-- name: ListServiceImagesFor :many
SELECT * FROM service_images WHERE service_id IN (sqlc.slice(ids)) ORDER BY service_id, position, id;

-- GET /v3/services/{id} in one statement: the service, its category's name, the company id (0
-- before the business is set up) and its images and active providers as JSON arrays of their
-- wire shapes ({id, url}, {id, name}) in display order. One statement instead of four,
-- because each costs 15-30 us of CPU with modernc SQLite. The catalog version, read in the
-- same statement, is the one the answer may be cached under. The arrays keep the order of
-- their ORDER BY subqueries: SQLite never flattens such a subquery into an aggregate (sqlc
-- cannot parse an ORDER BY inside json_group_array); app/api's service tests pin the order.
-- name: GetServiceDetail :one
SELECT sqlc.embed(s), c.name AS category_name,
    CAST((SELECT n FROM catalog_version WHERE id = 1) AS INTEGER) AS catalog_version,
    CAST(ifnull((SELECT co.id FROM company co LIMIT 1), 0) AS INTEGER) AS company_id,
    CAST((SELECT json_group_array(json_object('id', i.id, 'url', i.url))
        FROM (SELECT si.id, si.url FROM service_images si WHERE si.service_id = s.id ORDER BY si.position, si.id) i) AS TEXT)
        AS images_json,
    CAST((SELECT json_group_array(json_object('id', p.id, 'name', p.public_name))
        FROM (SELECT pr.id, pr.public_name FROM service_providers sp JOIN providers pr ON pr.id = sp.provider_id
            WHERE sp.service_id = s.id AND pr.active = 1 ORDER BY pr.id) p) AS TEXT)
        AS providers_json
FROM services s LEFT JOIN categories c ON c.id = s.category_id
WHERE s.id = sqlc.arg(id);
