-- Carts and their items (app/payments/carts.go).

-- name: InsertCart :one
INSERT INTO carts (uuid, client_id, location_id, note, created_at, updated_at, expires_at)
VALUES (?, ?, ?, ?, ?, ?, ?)
RETURNING id;

-- name: GetCart :one
SELECT * FROM carts WHERE id = ?;

-- name: UpdateCart :exec
UPDATE carts SET client_id = ?, location_id = ?, note = ?, updated_at = ? WHERE id = ?;

-- product_id is set on product lines (migration 00222), whose product it records.
-- name: InsertCartItem :exec
INSERT INTO cart_items (cart_id, item_id, item_type, item_name, item_uuid, quantity, unit_price_cents,
    unit_discount_cents, unit_discount_type, instances_json, position, product_id, member_plan_id)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- name: DeleteCartItems :exec
DELETE FROM cart_items WHERE cart_id = ?;

-- name: CartItems :many
SELECT * FROM cart_items WHERE cart_id = ? ORDER BY position, id;

-- The services a cart's items name: whether they exist and may be sold online.
-- name: CartServices :many
SELECT id, uuid, name, active, online_payment_mode, session_count FROM services WHERE id IN (sqlc.slice(ids));

-- Existing bookings a cart's items refer to.
-- name: CartBookings :many
SELECT id, service_id, location_id, status_id, sale_id, payment_request_id FROM bookings WHERE id IN (sqlc.slice(ids));

-- name: CartLocation :one
SELECT id, name, timezone, active FROM locations WHERE id = ?;

-- name: CartHasPaidSale :one
SELECT CAST(EXISTS (SELECT 1 FROM sales WHERE cart_id = ? AND status IN ('paid', 'partially_paid')) AS BOOLEAN) AS paid;

-- name: CartPaymentSettings :one
SELECT name, currency, online_payments, payment_expiry_min FROM company ORDER BY id LIMIT 1;

-- The member's discount a line gets when its request is settled at the desk (memberDiscount);
-- a line with a discount of its own keeps it.
-- name: SetCartItemMemberDiscount :execrows
UPDATE cart_items SET unit_discount_cents = ?, unit_discount_type = ?, member_plan_id = ?
WHERE id = ? AND unit_discount_cents IS NULL;
