-- name: ListCustomAttributes :many
SELECT sqlc.embed(a), g.name AS group_name, g.sort_order AS group_order
FROM custom_attributes a LEFT JOIN attribute_groups g ON g.id = a.group_id
ORDER BY a.sort_order, a.id;

-- name: ListAttributeOptions :many
SELECT * FROM attribute_options ORDER BY attribute_id, sort_order, id;
