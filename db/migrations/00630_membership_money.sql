-- Gift cards and memberships, their money and their messages (docs/payments.md "Gift cards",
-- "Memberships"; docs/messages.md):
--   - a paid period records its sale (membership_periods.sale_id), written in the same
--     transaction that credits the period, so once per period;
--   - a plan's discount applies to chosen services (membership_plan_discounts);
--   - the gift card email and the membership messages are about a card or a membership rather
--     than a booking (messages.gift_card_id, messages.membership_id); their kinds and the
--     "about something" CHECK are widened by the Go migration 631 (db/migrate_00631.go).

-- +goose Up
ALTER TABLE membership_periods ADD COLUMN sale_id INTEGER REFERENCES sales (id);

-- The services a plan's discount (membership_plans.discount_bp) applies to while the member's
-- membership is active.
CREATE TABLE membership_plan_discounts (
    plan_id    INTEGER NOT NULL REFERENCES membership_plans (id) ON DELETE CASCADE,
    service_id INTEGER NOT NULL REFERENCES services (id),
    PRIMARY KEY (plan_id, service_id)
);
-- The plan whose member discount a cart line carries (its unit discount), shown as its own line.
ALTER TABLE cart_items ADD COLUMN member_plan_id INTEGER REFERENCES membership_plans (id);

ALTER TABLE messages ADD COLUMN gift_card_id INTEGER REFERENCES gift_cards (id) ON DELETE CASCADE;
ALTER TABLE messages ADD COLUMN membership_id INTEGER REFERENCES memberships (id) ON DELETE CASCADE;

-- +goose Down
ALTER TABLE messages DROP COLUMN membership_id;
ALTER TABLE messages DROP COLUMN gift_card_id;
ALTER TABLE cart_items DROP COLUMN member_plan_id;
DROP TABLE membership_plan_discounts;
ALTER TABLE membership_periods DROP COLUMN sale_id;
