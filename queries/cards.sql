-- Card on file, cancellation fees and deposits by rule (app/payments cards.go, fees.go,
-- deposits.go; docs/payments.md).

-- name: GetCardPolicy :one
SELECT * FROM card_policy WHERE id = 1;

-- name: SaveCardPolicy :exec
INSERT INTO card_policy (id, require_card, notice_min, late_fee_kind, late_fee_value, late_fee_cap_cents,
    no_show_fee_kind, no_show_fee_value, no_show_fee_cap_cents, charge_days, deposit_new_clients, deposit_no_shows,
    deposit_above_cents, deposit_kind, deposit_value, updated_at)
VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (id) DO UPDATE SET require_card = excluded.require_card, notice_min = excluded.notice_min,
    late_fee_kind = excluded.late_fee_kind, late_fee_value = excluded.late_fee_value,
    late_fee_cap_cents = excluded.late_fee_cap_cents, no_show_fee_kind = excluded.no_show_fee_kind,
    no_show_fee_value = excluded.no_show_fee_value, no_show_fee_cap_cents = excluded.no_show_fee_cap_cents,
    charge_days = excluded.charge_days, deposit_new_clients = excluded.deposit_new_clients,
    deposit_no_shows = excluded.deposit_no_shows, deposit_above_cents = excluded.deposit_above_cents,
    deposit_kind = excluded.deposit_kind, deposit_value = excluded.deposit_value, updated_at = excluded.updated_at;

-- name: ServiceNeedsCard :one
SELECT EXISTS (SELECT 1 FROM card_services WHERE service_id = ?);

-- name: SetServiceNeedsCard :exec
INSERT INTO card_services (service_id) VALUES (?) ON CONFLICT DO NOTHING;

-- name: UnsetServiceNeedsCard :exec
DELETE FROM card_services WHERE service_id = ?;

-- name: ClientDepositOverride :many
SELECT mode FROM client_deposit_overrides WHERE client_id = ?;

-- name: SetClientDepositOverride :exec
INSERT INTO client_deposit_overrides (client_id, mode, updated_at) VALUES (?, ?, ?)
ON CONFLICT (client_id) DO UPDATE SET mode = excluded.mode, updated_at = excluded.updated_at;

-- name: DeleteClientDepositOverride :exec
DELETE FROM client_deposit_overrides WHERE client_id = ?;

-- Bookings of a client before this one: all of them (a new client has none) and the no-shows.
-- name: ClientBookingHistory :one
SELECT count(*) AS bookings, coalesce(sum(status_id = 4), 0) AS no_shows
FROM bookings WHERE client_id = sqlc.arg(client_id) AND id <> sqlc.arg(booking_id) AND status_id <> 5;

-- name: GetClientCard :one
SELECT * FROM client_cards WHERE client_id = ?;

-- name: SaveClientCard :exec
INSERT INTO client_cards (client_id, provider, customer_ref, payment_method_ref, brand, last4, saved_at)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (client_id) DO UPDATE SET provider = excluded.provider, customer_ref = excluded.customer_ref,
    payment_method_ref = excluded.payment_method_ref, brand = excluded.brand, last4 = excluded.last4,
    saved_at = excluded.saved_at;

-- name: GetBookingCard :one
SELECT * FROM booking_cards WHERE booking_id = ?;

-- name: SaveBookingCard :exec
INSERT INTO booking_cards (booking_id, client_id, provider, customer_ref, payment_method_ref, brand, last4, saved_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (booking_id) DO UPDATE SET provider = excluded.provider, customer_ref = excluded.customer_ref,
    payment_method_ref = excluded.payment_method_ref, brand = excluded.brand, last4 = excluded.last4,
    saved_at = excluded.saved_at;

-- name: SetPaymentRequestPurpose :exec
UPDATE payment_requests SET purpose = ?, deposit_cents = ? WHERE id = ?;

-- name: InsertCardSetup :one
INSERT INTO card_setups (payment_request_id, provider, attempt, idempotency_key, status, customer_ref, expires_at,
    created_at, updated_at)
VALUES (?, ?, ?, ?, 'creating', ?, ?, ?, ?)
RETURNING id;

-- name: GetCardSetup :one
SELECT * FROM card_setups WHERE id = ?;

-- name: CardSetupBySession :one
SELECT * FROM card_setups WHERE provider = ? AND session_id = ?;

-- name: LiveCardSetup :many
SELECT * FROM card_setups WHERE payment_request_id = ? AND status IN ('creating', 'open');

-- name: CountCardSetups :one
SELECT count(*) FROM card_setups WHERE payment_request_id = ? AND provider = ?;

-- name: OpenCardSetup :exec
UPDATE card_setups SET status = 'open', session_id = ?, url = ?, expires_at = ?, updated_at = ?
WHERE id = ? AND status = 'creating';

-- name: SetCardSetupStatus :execrows
UPDATE card_setups SET status = ?, updated_at = ? WHERE id = ? AND status IN ('creating', 'open', 'expired', 'failed');

-- name: MarkPaymentRequestDone :execrows
UPDATE payment_requests SET status = 'paid', paid_at = ?, updated_at = ? WHERE id = ? AND status = 'pending';

-- name: GetBookingFee :one
SELECT * FROM booking_fees WHERE booking_id = ? AND kind = ?;

-- name: InsertBookingFee :one
INSERT INTO booking_fees (booking_id, kind, amount_cents, currency, status, attempt, idempotency_key, created_at, updated_at)
VALUES (?, ?, ?, ?, 'charging', ?, ?, ?, ?)
RETURNING id;

-- name: RetryBookingFee :execrows
UPDATE booking_fees SET status = 'charging', attempt = attempt + 1, idempotency_key = ?, amount_cents = ?,
    failure = '', updated_at = ?
WHERE id = ? AND status = 'failed';

-- name: SetBookingFeeResult :execrows
UPDATE booking_fees SET status = ?, payment_ref = ?, payment_request_id = ?, sale_id = ?, failure = ?, updated_at = ?
WHERE id = ? AND status = 'charging';

-- name: BookingFeesOfBooking :many
SELECT * FROM booking_fees WHERE booking_id = ? ORDER BY id;

-- name: BookingFeeOfRequest :many
SELECT * FROM booking_fees WHERE payment_request_id = ?;

-- name: SetBookingFeePaid :exec
UPDATE booking_fees SET status = 'paid', sale_id = ?, updated_at = ? WHERE id = ? AND status = 'link_sent';

-- name: FeeCompanyLanguage :one
SELECT language FROM company ORDER BY id LIMIT 1;

-- The services that need a card on file (the cancellation and deposits settings).
-- name: CardServiceIDs :many
SELECT service_id FROM card_services ORDER BY service_id;

-- name: ClearCardServices :exec
DELETE FROM card_services;

-- name: SetPaymentRequestSaveCard :exec
UPDATE payment_requests SET save_card = 1 WHERE id = ?;
