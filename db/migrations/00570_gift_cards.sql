-- Gift cards (app/payments/giftcards*.go; docs/payments.md "Gift cards"): sold at the desk or on
-- the booking site as a cart item of type giftcard, activated when the sale is paid, redeemed as
-- a payment (method 5) at the desk or at online checkout.
--
-- A card's balance moves only through its ledger, gift_card_movements: every row is a signed
-- change and the balance after it, and the triggers below keep gift_cards.balance_cents equal to
-- the ledger's sum and never below zero, whatever the application does — the last word against
-- two redemptions racing for the same money. A hold (gift_card_holds) is money set aside for a
-- payment request paid partly by card online: it leaves the balance at once and is either
-- captured by the sale that settles the request or released when the request closes.

-- +goose Up
INSERT INTO payment_methods (id, type, name) VALUES (5, 'CompanyPaymentMethod', 'Gift card');

-- The owner's gift card settings (one row). expiry_months: how long a card is valid after it is
-- issued, where the law allows an expiry (0: never expires, the default); sell_online: the
-- booking site sells cards.
CREATE TABLE gift_card_settings (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    expiry_months INTEGER NOT NULL DEFAULT 0 CHECK (expiry_months BETWEEN 0 AND 120),
    sell_online   BOOLEAN NOT NULL DEFAULT 0 CHECK (sell_online BETWEEN 0 AND 1),
    updated_at    INTEGER NOT NULL DEFAULT 0
);
INSERT INTO gift_card_settings (id) VALUES (1);

CREATE TABLE gift_cards (
    id              INTEGER PRIMARY KEY,
    -- 16 characters of Crockford's base32 (80 random bits), shown in groups of four.
    code            TEXT    NOT NULL UNIQUE CHECK (length(code) = 16),
    value_cents     INTEGER NOT NULL CHECK (value_cents > 0),
    balance_cents   INTEGER NOT NULL DEFAULT 0 CHECK (balance_cents >= 0 AND balance_cents <= value_cents),
    -- pending: sold, not paid yet; active: paid (issued); void: cancelled by the owner.
    status          TEXT    NOT NULL CHECK (status IN ('pending', 'active', 'void')),
    source          TEXT    NOT NULL CHECK (source IN ('desk', 'site')),
    expires_at      INTEGER,
    buyer_name      TEXT    NOT NULL,
    buyer_email     TEXT    NOT NULL DEFAULT '',
    recipient_name  TEXT    NOT NULL DEFAULT '',
    recipient_email TEXT    NOT NULL DEFAULT '',
    message         TEXT    NOT NULL DEFAULT '',
    -- Who is emailed the card when it is issued.
    send_to         TEXT    NOT NULL CHECK (send_to IN ('buyer', 'recipient', 'none')),
    cart_id         INTEGER NOT NULL REFERENCES carts (id),
    sale_id         INTEGER REFERENCES sales (id),
    issued_at       INTEGER,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
);
CREATE INDEX gift_cards_cart ON gift_cards (cart_id);
CREATE INDEX gift_cards_list ON gift_cards (status, id);

CREATE TABLE gift_card_holds (
    id                 INTEGER PRIMARY KEY,
    gift_card_id       INTEGER NOT NULL REFERENCES gift_cards (id),
    payment_request_id INTEGER NOT NULL REFERENCES payment_requests (id),
    amount_cents       INTEGER NOT NULL CHECK (amount_cents > 0),
    status             TEXT    NOT NULL CHECK (status IN ('held', 'captured', 'released')),
    sale_id            INTEGER REFERENCES sales (id),
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL,
    UNIQUE (payment_request_id, gift_card_id)
);
CREATE INDEX gift_card_holds_card ON gift_card_holds (gift_card_id);

-- +goose StatementBegin
-- A hold only ends once: captured or released, never both, never back.
CREATE TRIGGER gift_card_holds_final
BEFORE UPDATE OF status ON gift_card_holds
WHEN OLD.status <> 'held'
BEGIN
    SELECT RAISE(ABORT, 'gift_card_hold_final');
END;
-- +goose StatementEnd

-- kind: issue (+value, when paid), redeem (−, a desk payment), hold (−, set aside for an online
-- payment), capture (0, the hold became the sale's payment), release (+, a hold given back),
-- void (−balance, the owner cancelled the card).
CREATE TABLE gift_card_movements (
    id                 INTEGER PRIMARY KEY,
    gift_card_id       INTEGER NOT NULL REFERENCES gift_cards (id),
    kind               TEXT    NOT NULL CHECK (kind IN ('issue', 'redeem', 'hold', 'capture', 'release', 'void')),
    amount_cents       INTEGER NOT NULL,
    balance_after      INTEGER NOT NULL CHECK (balance_after >= 0),
    payment_request_id INTEGER REFERENCES payment_requests (id),
    sale_id            INTEGER REFERENCES sales (id),
    created_at         INTEGER NOT NULL,
    CHECK ((kind IN ('issue', 'release') AND amount_cents > 0)
        OR (kind IN ('redeem', 'hold', 'void') AND amount_cents < 0)
        OR (kind = 'capture' AND amount_cents = 0))
);
CREATE INDEX gift_card_movements_card ON gift_card_movements (gift_card_id, id);

-- +goose StatementBegin
CREATE TRIGGER gift_card_movements_check
BEFORE INSERT ON gift_card_movements
BEGIN
    SELECT RAISE(ABORT, 'gift_card_not_active')
    WHERE NEW.amount_cents < 0 AND NEW.kind <> 'void'
      AND (SELECT status FROM gift_cards WHERE id = NEW.gift_card_id) <> 'active';
    SELECT RAISE(ABORT, 'gift_card_expired')
    WHERE NEW.amount_cents < 0 AND NEW.kind <> 'void'
      AND (SELECT expires_at FROM gift_cards WHERE id = NEW.gift_card_id) <= NEW.created_at;
    SELECT RAISE(ABORT, 'gift_card_overdrawn')
    WHERE (SELECT balance_cents FROM gift_cards WHERE id = NEW.gift_card_id) + NEW.amount_cents < 0;
    SELECT RAISE(ABORT, 'gift_card_balance_after')
    WHERE (SELECT balance_cents FROM gift_cards WHERE id = NEW.gift_card_id) + NEW.amount_cents <> NEW.balance_after;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER gift_card_movements_apply
AFTER INSERT ON gift_card_movements
WHEN NEW.amount_cents <> 0
BEGIN
    UPDATE gift_cards SET balance_cents = NEW.balance_after, updated_at = NEW.created_at WHERE id = NEW.gift_card_id;
END;
-- +goose StatementEnd

-- The balance is the ledger's sum: no write may change it otherwise.
-- +goose StatementBegin
CREATE TRIGGER gift_cards_balance_is_ledger
BEFORE UPDATE OF balance_cents ON gift_cards
WHEN NEW.balance_cents IS NOT (SELECT COALESCE(SUM(amount_cents), 0) FROM gift_card_movements WHERE gift_card_id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'gift_card_balance_not_ledger');
END;
-- +goose StatementEnd

-- The ledger is kept as written.
-- +goose StatementBegin
CREATE TRIGGER gift_card_movements_no_update
BEFORE UPDATE ON gift_card_movements
BEGIN
    SELECT RAISE(ABORT, 'gift_card_ledger_immutable');
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER gift_card_movements_no_delete
BEFORE DELETE ON gift_card_movements
BEGIN
    SELECT RAISE(ABORT, 'gift_card_ledger_immutable');
END;
-- +goose StatementEnd

-- +goose Down
DROP TABLE gift_card_movements;
DROP TABLE gift_card_holds;
DROP TABLE gift_cards;
DROP TABLE gift_card_settings;
DELETE FROM payment_methods WHERE id = 5;
