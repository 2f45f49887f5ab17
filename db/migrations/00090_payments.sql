-- What carts, payment requests and sales (app/payments, SPEC §7) need beyond 00001.
--
-- payment_requests.checkout_url is the URL handed to the client when the request was made
-- (built from the address the client used). It is stored so that the webhook events of the
-- request, sent later by the expiry worker or the owner's settlement, carry the same URL.
--
-- At most one pending payment request per cart: a new one cancels the previous one in the same
-- transaction, and the index makes any path that forgot to do so fail instead of leaving two
-- checkout URLs open. At most one paid (or partially paid) sale per cart, so a payment can never
-- be recorded twice.

-- +goose Up
ALTER TABLE payment_requests ADD COLUMN checkout_url TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX payment_requests_one_pending ON payment_requests (cart_id) WHERE status = 'pending';
CREATE UNIQUE INDEX sales_one_paid_per_cart ON sales (cart_id) WHERE status IN ('paid', 'partially_paid');
-- The bookings a payment request reserved: released on cancel and expiry, confirmed when paid.
CREATE INDEX bookings_payment_request ON bookings (payment_request_id) WHERE payment_request_id IS NOT NULL;
CREATE INDEX sales_client ON sales (client_id, paid_at);
CREATE INDEX sales_location ON sales (location_id, paid_at);
