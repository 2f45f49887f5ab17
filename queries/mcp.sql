-- The MCP endpoint (app/mcp, docs/mcp.md): its settings, the per-key switch, and the reads its
-- tools need beyond what app/booking and app/clients already read.

-- name: MCPSettings :one
SELECT enabled, slot_key FROM mcp_settings WHERE id = 1;

-- name: SetMCPEnabled :exec
UPDATE mcp_settings SET enabled = ?, updated_at = ? WHERE id = 1;

-- Read on every /mcp request after the key is authenticated (app/keyauth), so switching the
-- channel or a key off takes effect on the next request, from any process.
-- name: MCPAccess :one
SELECT CAST((SELECT s.enabled FROM mcp_settings s WHERE s.id = 1) AS BOOLEAN) AS channel_enabled, k.mcp_allowed
FROM api_keys k WHERE k.id = ?;

-- name: SetAPIKeyMCP :execrows
UPDATE api_keys SET mcp_allowed = ? WHERE id = ? AND revoked_at IS NULL;

-- name: MCPLocations :many
SELECT id, name, address_json, phone, email, timezone FROM locations WHERE active = 1 ORDER BY id;

-- The services a customer can book: active and bookable online.
-- name: MCPServices :many
SELECT s.id, s.name, s.description, s.duration_min, s.price_cents, s.has_discount, s.discount_bp,
    s.keywords_json, c.name AS category_name
FROM services s LEFT JOIN categories c ON c.id = s.category_id
WHERE s.active = 1 AND s.online_booking = 1
ORDER BY s.id;

-- Who offers which service where, for customers: active providers bookable online, at active
-- locations they work at.
-- name: MCPServiceProviders :many
SELECT sp.service_id, p.id AS provider_id, p.public_name, pl.location_id
FROM service_providers sp
JOIN providers p ON p.id = sp.provider_id AND p.active = 1 AND p.online_booking = 1
JOIN provider_locations pl ON pl.provider_id = p.id
JOIN locations l ON l.id = pl.location_id AND l.active = 1
ORDER BY sp.service_id, p.id, pl.location_id;

-- A client's bookings that have not ended, soonest first. since bounds the index scan: no
-- booking lasts longer than the schema's block limit, so one that has not ended started after it.
-- name: MCPUpcomingBookings :many
SELECT id FROM bookings
WHERE client_id = sqlc.arg(client_id) AND start_at >= sqlc.arg(since) AND end_at > sqlc.arg(now)
    AND status_id <> 5
ORDER BY start_at, id LIMIT CAST(sqlc.arg(limit) AS INTEGER);

-- The client's own booking with a provider that overlaps [start_at, end_at), not cancelled: what
-- holds a time the client asks to book again (an answer then names it rather than calling the
-- time taken by someone else). except_id is the booking being moved, which never counts; since
-- bounds the index scan as in MCPUpcomingBookings.
-- name: MCPClientBookingOverlapping :one
SELECT id FROM bookings
WHERE client_id = sqlc.arg(client_id) AND provider_id = sqlc.arg(provider_id) AND status_id <> 5
    AND id <> sqlc.arg(except_id)
    AND start_at < sqlc.arg(end_at) AND end_at > sqlc.arg(start_at)
    AND start_at > sqlc.arg(since)
ORDER BY start_at, id LIMIT 1;
