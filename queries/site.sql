-- The public booking site (app/site) and its settings page (app/admin/site_settings.go);
-- schema in db/migrations/00270_booking_site.sql.

-- Everything but the logo's bytes.
-- name: SiteSettings :one
SELECT id, enabled, display_name, logo_url, logo_type, accent, policy_text, frame_origins, calendar_id, updated_at,
    CAST(repeat_online AS BOOLEAN) AS repeat_online
FROM site_settings WHERE id = 1;

-- name: SiteLogo :one
SELECT logo_type, CAST(coalesce(logo, x'') AS BLOB) AS logo, updated_at FROM site_settings WHERE id = 1;

-- name: UpdateSiteSettings :exec
UPDATE site_settings SET enabled = ?, display_name = ?, accent = ?, policy_text = ?, frame_origins = ?, updated_at = ?,
    repeat_online = sqlc.arg(repeat_online)
WHERE id = 1;

-- name: UpdateSiteLogo :exec
UPDATE site_settings SET logo_url = ?, logo_type = ?, logo = ?, updated_at = ? WHERE id = 1;

-- Every location with whether the site offers it (no row: offered).
-- name: SiteLocations :many
SELECT l.id, l.name, l.active, l.timezone, l.address_json,
    CAST(coalesce(s.enabled, 1) AS BOOLEAN) AS enabled, c.code AS country_code
FROM locations l LEFT JOIN site_locations s ON s.location_id = l.id
JOIN countries c ON c.id = l.country_id
ORDER BY l.name, l.id;

-- name: SetSiteLocation :exec
INSERT INTO site_locations (location_id, enabled) VALUES (?, ?)
ON CONFLICT (location_id) DO UPDATE SET enabled = excluded.enabled;

-- name: SiteAttributeIDs :many
SELECT attribute_id FROM site_attributes ORDER BY attribute_id;

-- name: ClearSiteAttributes :exec
DELETE FROM site_attributes;

-- name: AddSiteAttribute :exec
INSERT INTO site_attributes (attribute_id) VALUES (?);

-- The services a location offers online: active, bookable online, and given by at least one
-- active provider who is bookable online and works there. The slot engine applies the same
-- flags (app/booking.LoadSchedule with OnlineOnly), so a listed service is one the site can book.
-- name: SiteServices :many
SELECT s.id, s.name, s.description, s.duration_min, s.price_cents, s.has_discount, s.discount_bp,
    s.online_payment_mode, s.online_payment_cents, s.keywords_json, s.capacity, s.session_count,
    s.category_id, coalesce(c.name, '') AS category_name, coalesce(c.sort_order, 0) AS category_order
FROM services s LEFT JOIN categories c ON c.id = s.category_id
WHERE s.active = 1 AND s.online_booking = 1
  AND EXISTS (
    SELECT 1 FROM service_providers sp
    JOIN providers p ON p.id = sp.provider_id
    JOIN provider_locations pl ON pl.provider_id = p.id
    WHERE sp.service_id = s.id AND pl.location_id = sqlc.arg(location_id) AND p.active = 1 AND p.online_booking = 1)
ORDER BY s.name, s.id;

-- name: SiteServiceProviders :many
SELECT p.id, p.public_name
FROM providers p
JOIN provider_locations pl ON pl.provider_id = p.id
JOIN service_providers sp ON sp.provider_id = p.id
WHERE pl.location_id = sqlc.arg(location_id) AND sp.service_id = sqlc.arg(service_id)
  AND p.active = 1 AND p.online_booking = 1
ORDER BY p.public_name, p.id;

-- The templates the booking form asks, in the admin's order, with their options.
-- name: SiteAskedAttributes :many
SELECT a.id, a.name, a.datatype, a.description, a.mandatory
FROM site_attributes sa JOIN custom_attributes a ON a.id = sa.attribute_id
ORDER BY a.sort_order, a.id;

-- name: SiteAttributeOptions :many
SELECT o.attribute_id, o.label
FROM attribute_options o JOIN site_attributes sa ON sa.attribute_id = o.attribute_id
ORDER BY o.attribute_id, o.sort_order, o.id;

-- name: InsertSiteBooking :exec
INSERT INTO site_bookings (booking_id, nonce_hash, any_provider, created_at) VALUES (?, ?, ?, ?);

-- name: SiteBookingByNonce :one
SELECT booking_id FROM site_bookings WHERE nonce_hash = ?;

-- name: SiteBooking :one
SELECT booking_id, any_provider FROM site_bookings WHERE booking_id = ?;

-- name: InsertManageLink :exec
INSERT INTO manage_links (booking_id, token_hash, created_at) VALUES (?, ?, ?);

-- name: ManageLinkBooking :one
SELECT m.booking_id, b.end_at
FROM manage_links m JOIN bookings b ON b.id = m.booking_id
WHERE m.token_hash = ?;

-- The checkout page's uuid of the payment request that reserved a booking ('' for none).
-- name: BookingCheckoutUUID :one
SELECT CAST(coalesce(pr.uuid, '') AS TEXT) AS uuid, CAST(coalesce(pr.status, '') AS TEXT) AS status
FROM bookings b LEFT JOIN payment_requests pr ON pr.id = b.payment_request_id
WHERE b.id = ?;

-- The services whose online payment is mandatory while the business takes no online payments:
-- the site cannot book them, and the settings page says so.
-- name: SiteServicesNeedingPayments :many
SELECT s.name FROM services s, company c
WHERE s.active = 1 AND s.online_booking = 1 AND c.online_payments = 0
  AND s.online_payment_mode IN ('MANDATORY_PARTIAL', 'MANDATORY_TOTAL')
ORDER BY s.name;

-- name: SiteEnable :exec
UPDATE site_settings SET enabled = 1, updated_at = ? WHERE id = 1;
