-- Visits: several services booked as one (db/migrations/00551_visits.sql; app/booking/visits.go).

-- name: ServiceProcessing :many
SELECT service_id, after_min, processing_min FROM service_processing WHERE service_id IN (sqlc.slice(service_ids));

-- name: ServiceAddonIDs :many
SELECT addon_id FROM service_addons WHERE service_id = ? ORDER BY addon_id;

-- name: SetServiceProcessing :exec
INSERT INTO service_processing (service_id, after_min, processing_min) VALUES (?, ?, ?)
ON CONFLICT (service_id) DO UPDATE SET after_min = excluded.after_min, processing_min = excluded.processing_min;

-- name: ClearServiceProcessing :exec
DELETE FROM service_processing WHERE service_id = ?;

-- name: ClearServiceAddons :exec
DELETE FROM service_addons WHERE service_id = ?;

-- name: AddServiceAddon :exec
INSERT INTO service_addons (service_id, addon_id) VALUES (?, ?);

-- name: InsertVisit :one
INSERT INTO visits (location_id, client_id, source, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
RETURNING id;

-- name: InsertVisitBooking :exec
INSERT INTO visit_bookings (booking_id, visit_id, position, part, addon_of) VALUES (?, ?, ?, ?, ?);

-- name: GetVisit :one
SELECT id, location_id, client_id, source, created_at, updated_at FROM visits WHERE id = ?;

-- The bookings of a visit in order.
-- name: VisitBookingIDs :many
SELECT booking_id FROM visit_bookings WHERE visit_id = ? ORDER BY position, part;

-- name: BookingVisitID :one
SELECT visit_id FROM visit_bookings WHERE booking_id = ?;

-- name: GetServiceProcessing :one
SELECT after_min, processing_min FROM service_processing WHERE service_id = ?;
