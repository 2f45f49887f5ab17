-- Inserts for the catalog, written by `frontdesk import` today and reused by the admin UI's forms.
-- (Location closures: CreateLocationClosure in locations.sql.)
-- name: CreateService :one
INSERT INTO services (uuid, name, active, price_cents, has_discount, discount_bp, duration_min,
    buffer_before_min, buffer_after_min, description, category_id, capacity, session_count,
    online_booking, online_payment_mode, online_payment_cents, outcall, is_video, location_id,
    favorite, keywords_json, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING *;

-- name: CreateServiceImage :exec
INSERT INTO service_images (service_id, url, position) VALUES (?, ?, ?);

-- name: CreateServiceProvider :exec
INSERT INTO service_providers (service_id, provider_id) VALUES (?, ?)
ON CONFLICT (service_id, provider_id) DO NOTHING;

-- name: CreateProvider :one
INSERT INTO providers (public_name, active, online_booking, location_id, email, phone, notify_bookings, agenda_min,
    created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING *;

-- name: CreateProviderImage :exec
INSERT INTO provider_images (provider_id, url, thumbnail_url, position) VALUES (?, ?, ?, ?);

-- name: CreateProviderLocation :exec
INSERT INTO provider_locations (provider_id, location_id) VALUES (?, ?)
ON CONFLICT (provider_id, location_id) DO NOTHING;

-- name: CreateProviderHours :one
INSERT INTO provider_hours (provider_id, location_id, day_id, open_min, close_min) VALUES (?, ?, ?, ?, ?)
RETURNING id;

-- name: CreateProviderBreak :exec
INSERT INTO provider_breaks (hours_id, start_min, end_min) VALUES (?, ?, ?);

-- name: CreateProviderTimeOff :one
INSERT INTO provider_time_off (provider_id, starts_at, ends_at, reason) VALUES (?, ?, ?, ?)
RETURNING id;

-- name: CreateAttributeGroup :one
INSERT INTO attribute_groups (name, sort_order) VALUES (?, ?)
RETURNING *;

-- name: CreateCustomAttribute :one
INSERT INTO custom_attributes (name, datatype, sort_order, description, mandatory, group_id)
VALUES (?, ?, ?, ?, ?, ?)
RETURNING *;

-- name: CreateAttributeOption :exec
INSERT INTO attribute_options (attribute_id, label, sort_order) VALUES (?, ?, ?);
