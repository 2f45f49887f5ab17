-- An owner's knowing override of the staff rules (docs/contract.md "Bookings outside hours"):
-- a booking made or moved from the admin at a time the provider does not work (outside their
-- shift or the location's hours, in a break or time off, on a closed day) after the owner
-- confirmed the warning. One row per such write, in the booking's own transaction, saying what
-- was overridden, who confirmed it and when; the booking page lists them.

-- +goose Up
CREATE TABLE booking_overrides (
    id          INTEGER PRIMARY KEY,
    booking_id  INTEGER NOT NULL REFERENCES bookings (id) ON DELETE CASCADE,
    -- The availability rule the owner overrode (app/booking ReasonCode).
    reason_code TEXT    NOT NULL CHECK (reason_code IN ('closed', 'outside_hours', 'not_working', 'break', 'time_off')),
    -- What the warning said, in the owner's language, as they read it.
    message     TEXT    NOT NULL CHECK (length(message) BETWEEN 1 AND 1000),
    -- Who confirmed (their email then: the account may be removed later).
    owner_email TEXT    NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL
);
CREATE INDEX booking_overrides_booking ON booking_overrides (booking_id);
