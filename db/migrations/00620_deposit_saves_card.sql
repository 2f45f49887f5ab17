-- A deposit request that also saves the card the client pays with, when their booking needs
-- both a deposit and a card on file (docs/payments.md "Card and deposit together"): its
-- checkout asks the provider to keep the card for later charges (off session), and settling it
-- keeps the card on the client and the booking.
-- +goose Up
ALTER TABLE payment_requests ADD COLUMN save_card BOOLEAN NOT NULL DEFAULT 0 CHECK (save_card IN (0, 1));

-- +goose Down
ALTER TABLE payment_requests DROP COLUMN save_card;
