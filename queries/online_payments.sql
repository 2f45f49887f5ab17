-- Online payments through a provider (app/payments/online*.go): the provider setting and its
-- sealed credentials, hosted checkouts, provider events, flags for the owner, refunds.

-- name: GetPaymentProviderSettings :one
SELECT * FROM payment_provider_settings WHERE id = 1;

-- name: SetPaymentProvider :exec
INSERT INTO payment_provider_settings (id, provider, updated_at) VALUES (1, sqlc.arg(provider), sqlc.arg(updated_at))
ON CONFLICT (id) DO UPDATE SET provider = excluded.provider, updated_at = excluded.updated_at;

-- name: SetReconciled :exec
INSERT INTO payment_provider_settings (id, reconciled_at, reconcile_note, updated_at)
VALUES (1, sqlc.arg(reconciled_at), sqlc.arg(reconcile_note), sqlc.arg(reconciled_at))
ON CONFLICT (id) DO UPDATE SET reconciled_at = excluded.reconciled_at, reconcile_note = excluded.reconcile_note;

-- name: GetProviderCredentials :one
SELECT * FROM payment_provider_credentials WHERE provider = ?;

-- name: ListProviderCredentials :many
SELECT * FROM payment_provider_credentials ORDER BY provider;

-- name: UpsertProviderCredentials :exec
INSERT INTO payment_provider_credentials (provider, secret_key_sealed, secret_key_hint, webhook_secret_sealed,
    webhook_secret_hint, updated_at)
VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (provider) DO UPDATE SET secret_key_sealed = excluded.secret_key_sealed,
    secret_key_hint = excluded.secret_key_hint, webhook_secret_sealed = excluded.webhook_secret_sealed,
    webhook_secret_hint = excluded.webhook_secret_hint, updated_at = excluded.updated_at;

-- name: DeleteProviderCredentials :exec
DELETE FROM payment_provider_credentials WHERE provider = ?;

-- name: InsertOnlineCheckout :one
INSERT INTO online_checkouts (payment_request_id, provider, attempt, idempotency_key, status, amount_cents, currency,
    expires_at, created_at, updated_at)
VALUES (?, ?, ?, ?, 'creating', ?, ?, ?, ?, ?)
RETURNING id;

-- name: GetOnlineCheckout :one
SELECT * FROM online_checkouts WHERE id = ?;

-- name: OnlineCheckoutBySession :one
SELECT * FROM online_checkouts WHERE provider = ? AND session_id = ?;

-- name: OnlineCheckoutByPaymentRef :one
SELECT * FROM online_checkouts WHERE provider = ? AND payment_ref = ? ORDER BY id DESC LIMIT 1;

-- name: OnlineCheckoutOfSale :one
SELECT * FROM online_checkouts WHERE sale_id = ?;

-- The request's live checkout (creating, open or processing): at most one, by a unique index.
-- name: LiveOnlineCheckout :many
SELECT * FROM online_checkouts
WHERE payment_request_id = ? AND status IN ('creating', 'open', 'processing');

-- name: CountOnlineCheckouts :one
SELECT count(*) FROM online_checkouts WHERE payment_request_id = ? AND provider = ?;

-- name: OnlineCheckoutsOfRequest :many
SELECT * FROM online_checkouts WHERE payment_request_id = ? ORDER BY id;

-- name: OpenOnlineCheckout :execrows
UPDATE online_checkouts SET status = 'open', session_id = sqlc.arg(session_id), url = sqlc.arg(url),
    expires_at = sqlc.arg(expires_at), updated_at = sqlc.arg(updated_at)
WHERE id = sqlc.arg(id) AND status = 'creating';

-- name: SetOnlineCheckoutStatus :exec
UPDATE online_checkouts SET status = sqlc.arg(status), payment_ref = sqlc.arg(payment_ref),
    received_cents = sqlc.narg(received_cents), received_currency = sqlc.narg(received_currency),
    sale_id = sqlc.narg(sale_id), updated_at = sqlc.arg(updated_at)
WHERE id = sqlc.arg(id);

-- Live checkouts to ask the provider about (reconciliation), oldest first.
-- name: LiveOnlineCheckouts :many
SELECT * FROM online_checkouts WHERE status IN ('open', 'processing') ORDER BY id
LIMIT CAST(sqlc.arg(lim) AS INTEGER);

-- Live checkouts whose request is no longer pending: they must be closed at the provider so the
-- customer cannot pay for something that is gone.
-- name: StrandedOnlineCheckouts :many
SELECT oc.* FROM online_checkouts oc JOIN payment_requests pr ON pr.id = oc.payment_request_id
WHERE oc.status IN ('creating', 'open') AND pr.status <> 'pending'
ORDER BY oc.id LIMIT CAST(sqlc.arg(lim) AS INTEGER);

-- name: InsertOnlinePaymentEvent :execrows
INSERT INTO online_payment_events (provider, event_id, type, checkout_id, outcome, received_at)
VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (provider, event_id) DO NOTHING;

-- name: OnlinePaymentEventSeen :one
SELECT EXISTS (SELECT 1 FROM online_payment_events WHERE provider = ? AND event_id = ?);

-- name: OnlinePaymentEventsOfRequest :many
SELECT e.provider, e.event_id, e.type, e.outcome, e.received_at, e.checkout_id
FROM online_payment_events e JOIN online_checkouts oc ON oc.id = e.checkout_id
WHERE oc.payment_request_id = ?
ORDER BY e.received_at, e.event_id;

-- name: PruneOnlinePaymentEvents :execrows
DELETE FROM online_payment_events WHERE received_at < ?;

-- name: InsertPaymentFlag :execrows
INSERT INTO payment_flags (payment_request_id, checkout_id, kind, expected_cents, expected_currency, received_cents,
    received_currency, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (checkout_id, kind) DO NOTHING;

-- name: OpenPaymentFlags :many
SELECT * FROM payment_flags WHERE resolved_at IS NULL ORDER BY id DESC LIMIT CAST(sqlc.arg(lim) AS INTEGER);

-- name: CountOpenPaymentFlags :one
SELECT count(*) FROM payment_flags WHERE resolved_at IS NULL;

-- name: PaymentFlagsOfRequest :many
SELECT * FROM payment_flags WHERE payment_request_id = ? ORDER BY id;

-- name: GetPaymentFlag :one
SELECT * FROM payment_flags WHERE id = ?;

-- name: ResolvePaymentFlag :execrows
UPDATE payment_flags SET resolved_at = sqlc.arg(resolved_at) WHERE id = sqlc.arg(id) AND resolved_at IS NULL;

-- name: InsertRefund :one
INSERT INTO refunds (checkout_id, sale_id, amount_cents, provider_refund_id, status, origin, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
RETURNING id;

-- name: RefundByProviderID :one
SELECT * FROM refunds WHERE provider_refund_id = ?;

-- name: SetRefundStatus :exec
UPDATE refunds SET status = sqlc.arg(status), updated_at = sqlc.arg(updated_at) WHERE id = sqlc.arg(id);

-- name: RefundsOfCheckout :many
SELECT * FROM refunds WHERE checkout_id = ? ORDER BY id;

-- What of a checkout's payment has been (or is being) returned.
-- name: RefundedCents :one
SELECT CAST(coalesce(sum(amount_cents), 0) AS INTEGER) FROM refunds WHERE checkout_id = ? AND status IN ('pending', 'succeeded');

-- name: GetSale :one
SELECT * FROM sales WHERE id = ?;

-- name: SetSaleStatus :exec
UPDATE sales SET status = sqlc.arg(status), updated_at = sqlc.arg(updated_at) WHERE id = sqlc.arg(id);

-- name: CollectSaleBalance :execrows
UPDATE sales SET paid_cents = paid_cents + pending_cents, pending_cents = 0, status = 'paid',
    updated_at = sqlc.arg(updated_at)
WHERE id = sqlc.arg(id) AND status = 'partially_paid' AND pending_cents > 0;

-- What a service asks to be paid online: its mode and, for MANDATORY_PARTIAL, the amount.
-- name: OnlineDueServices :many
SELECT id, online_payment_mode, online_payment_cents FROM services WHERE id IN (sqlc.slice(ids));
