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
ORDER BY s.id LIMIT sqlc.arg(limit) OFFSET sqlc.arg(offset);

-- name: GetService :one
SELECT sqlc.embed(s), c.name AS category_name
FROM services s LEFT JOIN categories c ON c.id = s.category_id
WHERE s.id = ?;

-- name: ListServiceImagesFor :many
SELECT * FROM service_images WHERE service_id IN (sqlc.slice(ids)) ORDER BY service_id, position, id;

-- name: ListServiceActiveProviders :many
SELECT p.id, p.public_name
FROM service_providers sp JOIN providers p ON p.id = sp.provider_id
WHERE sp.service_id = ? AND p.active = 1
ORDER BY p.id;
