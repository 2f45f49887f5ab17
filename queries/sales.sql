-- Sales and their transactions (app/payments): written by settlement, read by /v3/sales and the
-- admin UI. GET /v3/sales builds its filter in Go (app/payments/sales.go), like the bookings
-- list, and reads the page here by id.

-- name: InsertSale :one
INSERT INTO sales (cart_id, client_id, location_id, status, paid_cents, pending_cents, paid_at, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING id;

-- name: InsertTransaction :one
INSERT INTO transactions (sale_id, amount_cents, payment_method_id, paid_at, created_at)
VALUES (?, ?, ?, ?, ?)
RETURNING id;

-- name: SetBookingSale :exec
UPDATE bookings SET sale_id = ? WHERE id = ?;

-- name: SalesByIDs :many
SELECT sqlc.embed(s), l.name AS location_name
FROM sales s JOIN locations l ON l.id = s.location_id
WHERE s.id IN (sqlc.slice(ids));

-- name: SaleTransactions :many
SELECT t.id, t.sale_id, t.amount_cents, t.paid_at, t.created_at, pm.id AS payment_method_id,
    pm.type AS payment_method_type, pm.name AS payment_method_name
FROM transactions t JOIN payment_methods pm ON pm.id = t.payment_method_id
WHERE t.sale_id IN (sqlc.slice(sale_ids))
ORDER BY t.id;

-- name: PaidSaleOfCart :many
SELECT id FROM sales WHERE cart_id = ? AND status IN ('paid', 'partially_paid') ORDER BY id DESC LIMIT 1;

-- name: FirstActiveLocation :one
SELECT id FROM locations ORDER BY active DESC, id LIMIT 1;

