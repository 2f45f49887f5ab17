-- Online payments through a provider (Stripe; app/payments/online*.go, docs/payments.md).
--
-- payment_provider_settings is one row: which provider takes new online payments ('none' = pay
-- at the front desk). payment_provider_credentials keeps each provider's API key and webhook
-- signing secret, sealed with the key file of the data directory (app/secrets): a copy of the
-- database alone does not reveal them. The provider names have no list in a CHECK on purpose —
-- the providers compiled into the binary are the list (a second provider is one new Go file);
-- the CHECK only keeps the name a plain identifier, as it is also a URL path segment.
--
-- online_checkouts are the hosted checkouts made for payment requests (a Stripe Checkout
-- Session each). A checkout row is written as 'creating' with everything it will send BEFORE
-- the provider is called, so a retry after a crash repeats the same call with the same
-- idempotency key. At most one live checkout per request. A paid checkout is final.
--
-- online_payment_events records each provider notification once (its id), so a retried or
-- reordered delivery is recognised; payment_flags are what the owner must look at (money taken
-- that could not be settled); refunds are returns of an online payment, recorded on its sale.

-- +goose Up
CREATE TABLE payment_provider_settings (
    id             INTEGER PRIMARY KEY CHECK (id = 1),
    provider       TEXT    NOT NULL DEFAULT 'none'
        CHECK (provider GLOB '[a-z]*' AND provider NOT GLOB '*[^a-z0-9_]*'),
    reconciled_at  INTEGER,
    reconcile_note TEXT    NOT NULL DEFAULT '',
    updated_at     INTEGER NOT NULL
);

CREATE TABLE payment_provider_credentials (
    provider              TEXT PRIMARY KEY
        CHECK (provider <> 'none' AND provider GLOB '[a-z]*' AND provider NOT GLOB '*[^a-z0-9_]*'),
    -- Sealed values only: "v1:" + base64 of nonce and ciphertext; '' when not set.
    secret_key_sealed     TEXT    NOT NULL DEFAULT '' CHECK (secret_key_sealed = '' OR secret_key_sealed LIKE 'v1:%'),
    -- A hint to recognise the key by ("sk_test_…4242"), never enough to use it.
    secret_key_hint       TEXT    NOT NULL DEFAULT '',
    webhook_secret_sealed TEXT    NOT NULL DEFAULT '' CHECK (webhook_secret_sealed = '' OR webhook_secret_sealed LIKE 'v1:%'),
    webhook_secret_hint   TEXT    NOT NULL DEFAULT '',
    updated_at            INTEGER NOT NULL
);

-- A provider is switched on only with both of its secrets stored.
-- +goose StatementBegin
CREATE TRIGGER payment_provider_needs_credentials_insert
BEFORE INSERT ON payment_provider_settings
WHEN NEW.provider <> 'none' AND NOT EXISTS (
    SELECT 1 FROM payment_provider_credentials c
    WHERE c.provider = NEW.provider AND c.secret_key_sealed <> '' AND c.webhook_secret_sealed <> '')
BEGIN
    SELECT RAISE(ABORT, 'provider_credentials_missing');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER payment_provider_needs_credentials_update
BEFORE UPDATE OF provider ON payment_provider_settings
WHEN NEW.provider <> 'none' AND NOT EXISTS (
    SELECT 1 FROM payment_provider_credentials c
    WHERE c.provider = NEW.provider AND c.secret_key_sealed <> '' AND c.webhook_secret_sealed <> '')
BEGIN
    SELECT RAISE(ABORT, 'provider_credentials_missing');
END;
-- +goose StatementEnd

CREATE TABLE online_checkouts (
    id                 INTEGER PRIMARY KEY,
    payment_request_id INTEGER NOT NULL REFERENCES payment_requests (id),
    provider           TEXT    NOT NULL,
    attempt            INTEGER NOT NULL CHECK (attempt >= 1),
    idempotency_key    TEXT    NOT NULL UNIQUE,
    status             TEXT    NOT NULL
        CHECK (status IN ('creating', 'open', 'processing', 'paid', 'expired', 'failed', 'refused')),
    session_id         TEXT    UNIQUE,
    url                TEXT    NOT NULL DEFAULT '',
    -- What the customer is asked to pay online (hundredths; the deposit for MANDATORY_PARTIAL).
    amount_cents       INTEGER NOT NULL CHECK (amount_cents > 0),
    currency           TEXT    NOT NULL CHECK (length(currency) = 3),
    expires_at         INTEGER NOT NULL,
    -- What the provider reports as paid (set when paid or refused), and the payment that
    -- refunds refer to (a Stripe PaymentIntent).
    received_cents     INTEGER,
    received_currency  TEXT,
    payment_ref        TEXT    NOT NULL DEFAULT '',
    sale_id            INTEGER REFERENCES sales (id),
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL,
    UNIQUE (payment_request_id, provider, attempt),
    CHECK (status <> 'paid' OR sale_id IS NOT NULL)
);
CREATE UNIQUE INDEX online_checkouts_one_live ON online_checkouts (payment_request_id)
    WHERE status IN ('creating', 'open', 'processing');
CREATE INDEX online_checkouts_live ON online_checkouts (status, payment_request_id)
    WHERE status IN ('creating', 'open', 'processing');
CREATE UNIQUE INDEX online_checkouts_sale ON online_checkouts (sale_id) WHERE sale_id IS NOT NULL;
CREATE INDEX online_checkouts_payment ON online_checkouts (provider, payment_ref) WHERE payment_ref <> '';

-- A paid or refused checkout is final: money was taken and what became of it is recorded.
-- +goose StatementBegin
CREATE TRIGGER online_checkouts_final
BEFORE UPDATE OF status, sale_id ON online_checkouts
WHEN OLD.status IN ('paid', 'refused') AND (NEW.status <> OLD.status OR NEW.sale_id IS NOT OLD.sale_id)
BEGIN
    SELECT RAISE(ABORT, 'checkout_final');
END;
-- +goose StatementEnd

CREATE TABLE online_payment_events (
    provider    TEXT    NOT NULL,
    event_id    TEXT    NOT NULL,
    type        TEXT    NOT NULL,
    checkout_id INTEGER REFERENCES online_checkouts (id),
    outcome     TEXT    NOT NULL,
    received_at INTEGER NOT NULL,
    PRIMARY KEY (provider, event_id)
) WITHOUT ROWID;
CREATE INDEX online_payment_events_checkout ON online_payment_events (checkout_id, received_at);
CREATE INDEX online_payment_events_received ON online_payment_events (received_at);

CREATE TABLE payment_flags (
    id                 INTEGER PRIMARY KEY,
    payment_request_id INTEGER NOT NULL REFERENCES payment_requests (id),
    checkout_id        INTEGER NOT NULL REFERENCES online_checkouts (id),
    kind               TEXT    NOT NULL CHECK (kind IN ('amount_mismatch', 'paid_after_close')),
    expected_cents     INTEGER NOT NULL,
    expected_currency  TEXT    NOT NULL,
    received_cents     INTEGER NOT NULL,
    received_currency  TEXT    NOT NULL,
    created_at         INTEGER NOT NULL,
    resolved_at        INTEGER,
    UNIQUE (checkout_id, kind)
);
CREATE INDEX payment_flags_open ON payment_flags (created_at) WHERE resolved_at IS NULL;
CREATE INDEX payment_flags_request ON payment_flags (payment_request_id);

CREATE TABLE refunds (
    id                 INTEGER PRIMARY KEY,
    checkout_id        INTEGER NOT NULL REFERENCES online_checkouts (id),
    -- The sale the refunded payment paid for; NULL for a payment that never became a sale
    -- (a flagged one).
    sale_id            INTEGER REFERENCES sales (id),
    amount_cents       INTEGER NOT NULL CHECK (amount_cents > 0),
    provider_refund_id TEXT    NOT NULL UNIQUE,
    status             TEXT    NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'canceled')),
    -- Who asked for it: the owner in frontdesk's admin, or someone in the provider's dashboard.
    origin             TEXT    NOT NULL CHECK (origin IN ('admin', 'provider')),
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL
);
CREATE INDEX refunds_checkout ON refunds (checkout_id);
CREATE INDEX refunds_sale ON refunds (sale_id) WHERE sale_id IS NOT NULL;

-- Never more refunded than was received (failed and canceled refunds returned nothing).
-- +goose StatementBegin
CREATE TRIGGER refunds_within_received
BEFORE INSERT ON refunds
WHEN NEW.status IN ('pending', 'succeeded') AND NEW.amount_cents + (
    SELECT coalesce(sum(r.amount_cents), 0) FROM refunds r
    WHERE r.checkout_id = NEW.checkout_id AND r.status IN ('pending', 'succeeded')
) > (SELECT coalesce(c.received_cents, 0) FROM online_checkouts c WHERE c.id = NEW.checkout_id)
BEGIN
    SELECT RAISE(ABORT, 'refund_exceeds_payment');
END;
-- +goose StatementEnd
