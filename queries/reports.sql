-- The owner's reports (app/reports, docs/reports.md): read-only aggregates over one range of
-- instants [from_ms, to_ms) and a set of locations, each answered from an index that starts
-- with the location (sales_location, bookings_location_list, class_sessions_location_start).
-- The location list comes last in every WHERE: sqlc numbers the other arguments (?1, ?2) and
-- expands the list into plain ?s, which SQLite numbers after the highest so far.

-- name: ReportLocations :many
SELECT id, name, timezone, active FROM locations ORDER BY active DESC, name, id;

-- name: ReportProviderNames :many
SELECT id, public_name FROM providers ORDER BY id;

-- name: ReportServiceNames :many
SELECT id, name FROM services ORDER BY id;

-- name: ReportLocationProviders :many
SELECT provider_id FROM provider_locations WHERE location_id = ? ORDER BY provider_id;

-- Every payment of the sales paid in the range, with the sale's paid instant.
-- name: ReportPayments :many
SELECT t.sale_id, t.amount_cents, pm.id AS method_id, pm.name AS method_name, s.paid_at AS paid_at
FROM sales s
JOIN transactions t ON t.sale_id = s.id
JOIN payment_methods pm ON pm.id = t.payment_method_id
WHERE s.paid_at >= sqlc.arg(from_ms) AND s.paid_at < sqlc.arg(to_ms) AND s.location_id IN (sqlc.slice(locations))
ORDER BY s.id, t.id;

-- The lines of the sales paid in the range, in the cart's order.
-- name: ReportSaleLines :many
SELECT s.id AS sale_id, ci.item_type, ci.item_id, ci.quantity, ci.unit_price_cents, ci.unit_discount_cents,
    ci.unit_discount_type
FROM sales s
JOIN cart_items ci ON ci.cart_id = s.cart_id
WHERE s.paid_at >= sqlc.arg(from_ms) AND s.paid_at < sqlc.arg(to_ms) AND s.location_id IN (sqlc.slice(locations))
ORDER BY s.id, ci.position, ci.id;

-- The bookings the sales paid in the range pay for.
-- name: ReportSaleBookings :many
SELECT b.sale_id, b.service_id, b.provider_id
FROM sales s
JOIN bookings b ON b.sale_id = s.id
WHERE s.paid_at >= sqlc.arg(from_ms) AND s.paid_at < sqlc.arg(to_ms) AND s.location_id IN (sqlc.slice(locations))
ORDER BY b.sale_id, b.id;

-- Refunds that succeeded in the range, with the refunded sale's location (NULL: a payment that
-- never became a sale).
-- name: ReportRefunds :many
SELECT r.amount_cents, r.updated_at, s.location_id
FROM refunds r LEFT JOIN sales s ON s.id = r.sale_id
WHERE r.status = 'succeeded' AND r.updated_at >= sqlc.arg(from_ms) AND r.updated_at < sqlc.arg(to_ms)
ORDER BY r.id;

-- Bookings starting in the range, read once and tallied by location, provider, service and
-- outcome: how many, the time booked by appointments that are not cancelled, and the pack
-- sessions used (booked with a pack and not cancelled, or cancelled without the session going
-- back). Every booking in the range costs a look-up of its row, so the outcomes, the top
-- services, the booked time and the pack sessions come from this one pass, not one each.
-- name: ReportBookingTallies :many
SELECT location_id, provider_id, service_id, status_id, COALESCE(cancelled_by, '') AS cancelled_by, cancelled_late,
    count(*) AS n,
    CAST(SUM(CASE WHEN status_id <> 5 AND session_id IS NULL THEN end_at - start_at ELSE 0 END) AS INTEGER) AS booked_ms,
    CAST(SUM(pack_id IS NOT NULL AND (status_id <> 5 OR pack_returned = 0)) AS INTEGER) AS pack_sessions
FROM bookings
WHERE start_at >= sqlc.arg(from_ms) AND start_at < sqlc.arg(to_ms) AND location_id IN (sqlc.slice(locations))
GROUP BY location_id, provider_id, service_id, status_id, cancelled_by, cancelled_late;

-- Class sessions' milliseconds per location and provider, each session with a seat taken
-- counted once however many seats.
-- name: ReportSessionTime :many
SELECT cs.location_id, cs.provider_id, CAST(SUM(cs.end_at - cs.start_at) AS INTEGER) AS ms
FROM class_sessions cs
WHERE cs.start_at >= sqlc.arg(from_ms) AND cs.start_at < sqlc.arg(to_ms) AND cs.location_id IN (sqlc.slice(locations))
    AND cs.status = 'scheduled'
    AND EXISTS (SELECT 1 FROM bookings b WHERE b.session_id = cs.id AND b.status_id <> 5)
GROUP BY cs.location_id, cs.provider_id
ORDER BY cs.location_id, cs.provider_id;

-- Clients with a booking in the range that is not cancelled, each with the start of their
-- first such booking anywhere: new when it lies in the range, returning when before.
-- name: ReportClients :many
SELECT b.client_id,
    CAST((SELECT MIN(b2.start_at) FROM bookings b2 WHERE b2.client_id = b.client_id AND b2.status_id <> 5) AS INTEGER) AS first_at
FROM bookings b
WHERE b.start_at >= sqlc.arg(from_ms) AND b.start_at < sqlc.arg(to_ms) AND b.location_id IN (sqlc.slice(locations))
    AND b.status_id <> 5
GROUP BY b.client_id
ORDER BY b.client_id;

-- Class sessions held in the range: how many, their seats, and the seats taken.
-- name: ReportClassFill :one
SELECT count(*) AS sessions,
    CAST(COALESCE(SUM(COALESCE(cs.capacity, sv.capacity)), 0) AS INTEGER) AS seats,
    CAST(COALESCE(SUM((SELECT count(*) FROM bookings b WHERE b.session_id = cs.id AND b.status_id <> 5)), 0) AS INTEGER) AS taken
FROM class_sessions cs JOIN services sv ON sv.id = cs.service_id
WHERE cs.start_at >= sqlc.arg(from_ms) AND cs.start_at < sqlc.arg(to_ms) AND cs.location_id IN (sqlc.slice(locations))
    AND cs.status = 'scheduled';

-- Packs credited in the range (by the location of the sale that paid for them; packs recorded
-- without a sale count only for every location) and their sessions.
-- name: ReportPacksSold :one
SELECT count(*) AS packs, CAST(COALESCE(SUM(p.sessions_total), 0) AS INTEGER) AS sessions
FROM client_packs p LEFT JOIN sales s ON s.id = p.sale_id
WHERE p.created_at >= sqlc.arg(from_ms) AND p.created_at < sqlc.arg(to_ms)
    AND ((p.sale_id IS NULL AND sqlc.arg(every_location) = 1) OR s.location_id IN (sqlc.slice(locations)));

