-- Card on file, the cancellation policy with fees and deposits by rule (docs/payments.md "Card
-- on file", "Cancellation fees", "Deposits by rule").
--
-- card_policy: the business's one row. require_card asks every online booking for a card
-- (card_services asks it for some services only); notice_min is how long before the start a
-- client may cancel without a fee; each fee is none, an amount (hundredths) or a percentage of
-- the booking's price (basis points), capped by *_cap_cents when set; charge_days is how long
-- after the appointment a fee may still be charged. deposit_*: when a booking on the site asks
-- for a deposit although its service does not (a new client, a client with at least
-- deposit_no_shows past no-shows, a service priced above deposit_above_cents), and how much.
-- +goose Up
CREATE TABLE card_policy (
    id                   INTEGER PRIMARY KEY CHECK (id = 1),
    require_card         BOOLEAN NOT NULL DEFAULT 0 CHECK (require_card IN (0, 1)),
    notice_min           INTEGER NOT NULL DEFAULT 1440 CHECK (notice_min >= 0),
    late_fee_kind        TEXT    NOT NULL DEFAULT 'none' CHECK (late_fee_kind IN ('none', 'amount', 'percent')),
    late_fee_value       INTEGER NOT NULL DEFAULT 0 CHECK (late_fee_value >= 0),
    late_fee_cap_cents   INTEGER CHECK (late_fee_cap_cents IS NULL OR late_fee_cap_cents > 0),
    no_show_fee_kind     TEXT    NOT NULL DEFAULT 'none' CHECK (no_show_fee_kind IN ('none', 'amount', 'percent')),
    no_show_fee_value    INTEGER NOT NULL DEFAULT 0 CHECK (no_show_fee_value >= 0),
    no_show_fee_cap_cents INTEGER CHECK (no_show_fee_cap_cents IS NULL OR no_show_fee_cap_cents > 0),
    charge_days          INTEGER NOT NULL DEFAULT 14 CHECK (charge_days BETWEEN 1 AND 90),
    deposit_new_clients  BOOLEAN NOT NULL DEFAULT 0 CHECK (deposit_new_clients IN (0, 1)),
    deposit_no_shows     INTEGER NOT NULL DEFAULT 0 CHECK (deposit_no_shows >= 0),
    deposit_above_cents  INTEGER CHECK (deposit_above_cents IS NULL OR deposit_above_cents >= 0),
    deposit_kind         TEXT    NOT NULL DEFAULT 'percent' CHECK (deposit_kind IN ('amount', 'percent')),
    deposit_value        INTEGER NOT NULL DEFAULT 0 CHECK (deposit_value >= 0),
    updated_at           INTEGER NOT NULL,
    CHECK (late_fee_kind <> 'percent' OR late_fee_value <= 10000),
    CHECK (no_show_fee_kind <> 'percent' OR no_show_fee_value <= 10000),
    CHECK (deposit_kind <> 'percent' OR deposit_value <= 10000)
);

-- Services that need a card on file to be booked online.
CREATE TABLE card_services (
    service_id INTEGER PRIMARY KEY REFERENCES services (id) ON DELETE CASCADE
);

-- A client's override of the deposit rules: always a deposit, or never.
CREATE TABLE client_deposit_overrides (
    client_id  INTEGER PRIMARY KEY REFERENCES clients (id) ON DELETE CASCADE,
    mode       TEXT    NOT NULL CHECK (mode IN ('always', 'never')),
    updated_at INTEGER NOT NULL
);

-- The card a client saved (the latest one): the provider's customer and payment method, and
-- what may be shown of it.
CREATE TABLE client_cards (
    client_id          INTEGER PRIMARY KEY REFERENCES clients (id) ON DELETE CASCADE,
    provider           TEXT    NOT NULL,
    customer_ref       TEXT    NOT NULL,
    payment_method_ref TEXT    NOT NULL,
    brand              TEXT    NOT NULL DEFAULT '',
    last4              TEXT    NOT NULL DEFAULT '',
    saved_at           INTEGER NOT NULL
);

-- The card a booking was made with (what a fee for it is charged to).
CREATE TABLE booking_cards (
    booking_id         INTEGER PRIMARY KEY REFERENCES bookings (id) ON DELETE CASCADE,
    client_id          INTEGER NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    provider           TEXT    NOT NULL,
    customer_ref       TEXT    NOT NULL,
    payment_method_ref TEXT    NOT NULL,
    brand              TEXT    NOT NULL DEFAULT '',
    last4              TEXT    NOT NULL DEFAULT '',
    saved_at           INTEGER NOT NULL
);

-- What a payment request is for: a payment (every request so far), a card to save (a booking
-- held until the card is on file; amount 0), or a cancellation fee the bank would not let us
-- charge without the client. deposit_cents: the deposit a rule asked for (paid online instead
-- of the whole amount).
ALTER TABLE payment_requests ADD COLUMN purpose TEXT NOT NULL DEFAULT 'payment'
    CHECK (purpose IN ('payment', 'card', 'fee'));
ALTER TABLE payment_requests ADD COLUMN deposit_cents INTEGER CHECK (deposit_cents IS NULL OR deposit_cents > 0);

-- Setup-mode checkouts: the hosted page where a client saves a card for a card request. Like
-- online_checkouts, written 'creating' with its idempotency key before the provider is called.
CREATE TABLE card_setups (
    id                 INTEGER PRIMARY KEY,
    payment_request_id INTEGER NOT NULL REFERENCES payment_requests (id),
    provider           TEXT    NOT NULL,
    attempt            INTEGER NOT NULL CHECK (attempt >= 1),
    idempotency_key    TEXT    NOT NULL UNIQUE,
    status             TEXT    NOT NULL CHECK (status IN ('creating', 'open', 'saved', 'expired', 'failed')),
    session_id         TEXT    UNIQUE,
    url                TEXT    NOT NULL DEFAULT '',
    customer_ref       TEXT    NOT NULL DEFAULT '',
    expires_at         INTEGER NOT NULL,
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL,
    UNIQUE (payment_request_id, provider, attempt)
);
CREATE UNIQUE INDEX card_setups_one_live ON card_setups (payment_request_id) WHERE status IN ('creating', 'open');

-- A saved setup is final.
-- +goose StatementBegin
CREATE TRIGGER card_setups_final
BEFORE UPDATE OF status ON card_setups
WHEN OLD.status = 'saved' AND NEW.status <> 'saved'
BEGIN
    SELECT RAISE(ABORT, 'card_setup_final');
END;
-- +goose StatementEnd

-- Cancellation fees charged (or being charged) for a booking: at most one per booking and
-- kind, whatever the clicks and retries. 'charging' is written with the idempotency key before
-- the provider is called, so a retry repeats the same call; 'paid' has its sale; 'link_sent'
-- is a payment request sent to the client when the bank asked for their authentication;
-- 'failed' (the card was declined) may be tried again, as a new attempt with a new key.
CREATE TABLE booking_fees (
    id                 INTEGER PRIMARY KEY,
    booking_id         INTEGER NOT NULL REFERENCES bookings (id),
    kind               TEXT    NOT NULL CHECK (kind IN ('no_show', 'late_cancel')),
    amount_cents       INTEGER NOT NULL CHECK (amount_cents > 0),
    currency           TEXT    NOT NULL CHECK (length(currency) = 3),
    status             TEXT    NOT NULL CHECK (status IN ('charging', 'paid', 'link_sent', 'failed')),
    attempt            INTEGER NOT NULL DEFAULT 1 CHECK (attempt >= 1),
    idempotency_key    TEXT    NOT NULL UNIQUE,
    payment_ref        TEXT    NOT NULL DEFAULT '',
    payment_request_id INTEGER REFERENCES payment_requests (id),
    sale_id            INTEGER REFERENCES sales (id),
    failure            TEXT    NOT NULL DEFAULT '',
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL,
    UNIQUE (booking_id, kind),
    CHECK (status <> 'paid' OR sale_id IS NOT NULL OR payment_request_id IS NOT NULL)
);

-- +goose Down
DROP TABLE booking_fees;
DROP TRIGGER card_setups_final;
DROP TABLE card_setups;
ALTER TABLE payment_requests DROP COLUMN deposit_cents;
ALTER TABLE payment_requests DROP COLUMN purpose;
DROP TABLE booking_cards;
DROP TABLE client_cards;
DROP TABLE client_deposit_overrides;
DROP TABLE card_services;
DROP TABLE card_policy;
