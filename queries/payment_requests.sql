-- Payment requests (app/payments): creation with reserved bookings, cancel, expiry, settlement.

-- name: InsertPaymentRequest :one
INSERT INTO payment_requests (uuid, cart_id, amount_cents, status, channel, checkout_url, expires_at, created_at, updated_at)
VALUES (?, ?, ?, 'pending', 'online', ?, ?, ?, ?)
RETURNING id;

-- name: GetPaymentRequest :one
SELECT * FROM payment_requests WHERE id = ?;

-- name: GetPaymentRequestByUUID :one
SELECT * FROM payment_requests WHERE uuid = ?;

-- name: PendingPaymentRequestOfCart :many
SELECT * FROM payment_requests WHERE cart_id = ? AND status = 'pending';

-- name: LatestPaymentRequestOfCart :many
SELECT * FROM payment_requests WHERE cart_id = ? ORDER BY id DESC LIMIT 1;

-- Ends a pending request as cancelled or expired (the caller names which); 0 rows when it was
-- no longer pending.
-- name: ClosePaymentRequest :execrows
UPDATE payment_requests SET status = sqlc.arg(status), updated_at = sqlc.arg(updated_at)
WHERE id = sqlc.arg(id) AND status = 'pending';

-- name: MarkPaymentRequestPaid :execrows
UPDATE payment_requests SET status = 'paid', paid_at = sqlc.arg(paid_at), updated_at = sqlc.arg(paid_at)
WHERE id = sqlc.arg(id) AND status = 'pending';

-- name: LinkBookingToPaymentRequest :exec
UPDATE bookings SET payment_request_id = ? WHERE id = ?;

-- The bookings a payment request reserved, in the order they were made.
-- name: PaymentRequestBookings :many
SELECT id, service_id, provider_id, start_at, status_id, location_id FROM bookings
WHERE payment_request_id = ? ORDER BY id;

-- Pending requests whose time is up, oldest first (the partial index payment_requests_pending).
-- name: DuePaymentRequests :many
SELECT id FROM payment_requests
WHERE status = 'pending' AND expires_at IS NOT NULL AND expires_at <= sqlc.arg(expires_at)
ORDER BY expires_at LIMIT CAST(sqlc.arg(limit) AS INTEGER);

-- name: NextPaymentRequestExpiry :many
SELECT expires_at FROM payment_requests
WHERE status = 'pending' AND expires_at IS NOT NULL
ORDER BY expires_at LIMIT 1;

-- The admin list: newest first, optionally only one status ('' = all).
-- name: ListPaymentRequestsAdmin :many
SELECT pr.id, pr.uuid, pr.cart_id, pr.amount_cents, pr.status, pr.expires_at, pr.paid_at, pr.created_at,
    c.client_id, cl.first_name AS client_first_name, cl.last_name AS client_last_name
FROM payment_requests pr
JOIN carts c ON c.id = pr.cart_id
LEFT JOIN clients cl ON cl.id = c.client_id
WHERE pr.status = sqlc.arg(status) OR sqlc.arg(status) = ''
ORDER BY pr.id DESC
LIMIT CAST(sqlc.arg(lim) AS INTEGER) OFFSET CAST(sqlc.arg(off) AS INTEGER);

-- name: CountPaymentRequestsAdmin :one
SELECT count(*) FROM payment_requests WHERE status = sqlc.arg(status) OR sqlc.arg(status) = '';

-- name: CartClientName :one
SELECT first_name, last_name FROM clients WHERE id = ?;

-- A pending request's new amount (a member's discount given at the desk); a deposit larger
-- than the new amount shrinks to it.
-- name: SetPaymentRequestAmount :execrows
UPDATE payment_requests SET amount_cents = sqlc.arg(amount_cents),
    deposit_cents = CASE WHEN deposit_cents > sqlc.arg(amount_cents) THEN NULLIF(sqlc.arg(amount_cents), 0) ELSE deposit_cents END,
    updated_at = sqlc.arg(updated_at)
WHERE id = sqlc.arg(id) AND status = 'pending';
