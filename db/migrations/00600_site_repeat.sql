-- Whether visitors of the booking site may ask for a booking that repeats (docs/booking-site.md,
-- "A booking that repeats"). Off until the owner turns it on: a series books up to 52 dates.

-- +goose Up
ALTER TABLE site_settings ADD COLUMN repeat_online INTEGER NOT NULL DEFAULT 0 CHECK (repeat_online IN (0, 1));

-- +goose Down
ALTER TABLE site_settings DROP COLUMN repeat_online;
