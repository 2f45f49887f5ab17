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
INSERT INTO visit_bookings (booking_id, visit_id, position, part, addon_of, hold_before_ms) VALUES (?, ?, ?, ?, ?, ?);

-- name: GetVisit :one
SELECT id, location_id, client_id, source, created_at, updated_at FROM visits WHERE id = ?;

-- The bookings of a visit in order.
-- name: VisitBookingIDs :many
SELECT booking_id FROM visit_bookings WHERE visit_id = ? ORDER BY position, part;

-- name: BookingVisitID :one
SELECT visit_id FROM visit_bookings WHERE booking_id = ?;

-- name: GetServiceProcessing :one
SELECT after_min, processing_min FROM service_processing WHERE service_id = ?;

-- The live bookings of the visit booking_id belongs to, in time order: what a visit's one
-- confirmation and reminder describe (none for a booking outside a visit). A service with
-- processing time is its two parts; the part after it costs nothing more.
-- name: MessageVisitSegments :many
SELECT o.id, o.start_at, o.end_at, o.price_cents, vo.part, s.name AS service_name, p.public_name AS provider_name
FROM visit_bookings vb
JOIN visit_bookings vo ON vo.visit_id = vb.visit_id
JOIN bookings o ON o.id = vo.booking_id
JOIN services s ON s.id = o.service_id
JOIN providers p ON p.id = o.provider_id
WHERE vb.booking_id = ? AND o.status_id <> 5
ORDER BY o.start_at, vo.position, vo.part;

-- How much earlier than its block each booking of a visit holds its resources (the part after
-- a processing time: 00610_visit_processing_holds.sql).
-- name: VisitHoldsBefore :many
SELECT booking_id, hold_before_ms FROM visit_bookings WHERE visit_id = ? AND hold_before_ms > 0;
