-- Memberships (app/payments/memberships*.go; docs/payments.md "Memberships"): monthly plans a
-- client subscribes to through the payment provider (Stripe Checkout in subscription mode).
-- Each paid period credits the plan's sessions to the client's pack ledger (client_packs), once:
-- membership_periods is keyed by the membership and the period's start, and a pack names the
-- period that credited it, unique per service — however often and in whatever order the
-- provider reports the renewal.

-- +goose Up
CREATE TABLE membership_plans (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    price_cents INTEGER NOT NULL CHECK (price_cents > 0),
    -- A discount on the member's purchases, in basis points (1000: 10 %).
    discount_bp INTEGER NOT NULL DEFAULT 0 CHECK (discount_bp BETWEEN 0 AND 10000),
    -- Unused sessions roll over into the next period (1) or expire at the period's end (0).
    rollover    BOOLEAN NOT NULL DEFAULT 0 CHECK (rollover BETWEEN 0 AND 1),
    active      BOOLEAN NOT NULL DEFAULT 1 CHECK (active BETWEEN 0 AND 1),
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);

-- The sessions a plan includes per period, by service.
CREATE TABLE membership_plan_services (
    plan_id    INTEGER NOT NULL REFERENCES membership_plans (id) ON DELETE CASCADE,
    service_id INTEGER NOT NULL REFERENCES services (id),
    sessions   INTEGER NOT NULL CHECK (sessions BETWEEN 1 AND 1000),
    PRIMARY KEY (plan_id, service_id)
);

-- status: pending (signed up, the first payment not made), active, paused (by the owner, the
-- client, or a failed renewal: nothing is credited while paused), cancelled (final).
CREATE TABLE memberships (
    id                    INTEGER PRIMARY KEY,
    uuid                  TEXT    NOT NULL UNIQUE,
    plan_id               INTEGER NOT NULL REFERENCES membership_plans (id),
    client_id             INTEGER NOT NULL REFERENCES clients (id),
    status                TEXT    NOT NULL CHECK (status IN ('pending', 'active', 'paused', 'cancelled')),
    paused_by             TEXT    CHECK (paused_by IS NULL OR paused_by IN ('owner', 'client', 'payment_failed')),
    provider              TEXT    NOT NULL,
    checkout_session_id   TEXT,
    customer_ref          TEXT,
    subscription_ref      TEXT    UNIQUE,
    current_period_end    INTEGER,
    created_at            INTEGER NOT NULL,
    updated_at            INTEGER NOT NULL
);
CREATE INDEX memberships_client ON memberships (client_id);
CREATE INDEX memberships_status ON memberships (status, id);

-- +goose StatementBegin
CREATE TRIGGER memberships_cancelled_final
BEFORE UPDATE OF status ON memberships
WHEN OLD.status = 'cancelled' AND NEW.status <> 'cancelled'
BEGIN
    SELECT RAISE(ABORT, 'membership_cancelled');
END;
-- +goose StatementEnd

-- One row per paid period: what credited it (the invoice) and when.
CREATE TABLE membership_periods (
    id            INTEGER PRIMARY KEY,
    membership_id INTEGER NOT NULL REFERENCES memberships (id),
    period_start  INTEGER NOT NULL,
    period_end    INTEGER NOT NULL CHECK (period_end > period_start),
    invoice_ref   TEXT    NOT NULL,
    amount_cents  INTEGER NOT NULL,
    currency      TEXT    NOT NULL,
    created_at    INTEGER NOT NULL,
    UNIQUE (membership_id, period_start)
);

ALTER TABLE client_packs ADD COLUMN membership_period_id INTEGER REFERENCES membership_periods (id);
CREATE UNIQUE INDEX client_packs_membership_period ON client_packs (membership_period_id, service_id)
    WHERE membership_period_id IS NOT NULL;

-- +goose Down
DROP INDEX client_packs_membership_period;
ALTER TABLE client_packs DROP COLUMN membership_period_id;
DROP TABLE membership_periods;
DROP TABLE memberships;
DROP TABLE membership_plan_services;
DROP TABLE membership_plans;
