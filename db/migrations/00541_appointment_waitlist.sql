-- The waitlist for appointments (docs/visits.md, "Waitlist for appointments"): a client asks to
-- be told when a time opens for a service at a location — with one provider or anyone — on a
-- range of local days. When a cancel or a move frees a matching time, the first few waiting
-- get an offer: a personal claim link (its token is kept only as a SHA-256 digest) sent through
-- the customer-message queue. The first to claim books the time through the booking engine;
-- the offers of the same freed time are then gone.

-- +goose Up
CREATE TABLE appointment_waits (
    id          INTEGER PRIMARY KEY,
    client_id   INTEGER NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    location_id INTEGER NOT NULL REFERENCES locations (id),
    service_id  INTEGER NOT NULL REFERENCES services (id),
    provider_id INTEGER REFERENCES providers (id), -- NULL: anyone
    first_day   TEXT    NOT NULL,                  -- local dates, both included
    last_day    TEXT    NOT NULL CHECK (first_day <= last_day),
    status      TEXT    NOT NULL DEFAULT 'waiting'
        CHECK (status = 'waiting' OR status = 'booked' OR status = 'left'),
    booking_id  INTEGER, -- the booking made (no reference: erasing a client deletes its bookings first)
    source      TEXT    NOT NULL CHECK (source = 'connect' OR source = 'admin' OR source = 'online' OR source = 'mcp'),
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    CHECK ((status = 'booked') = (booking_id IS NOT NULL))
);
CREATE INDEX appointment_waits_queue ON appointment_waits (location_id, service_id, created_at, id)
    WHERE status = 'waiting';
CREATE INDEX appointment_waits_by_client ON appointment_waits (client_id);

CREATE TABLE appointment_offers (
    id          INTEGER PRIMARY KEY,
    wait_id     INTEGER NOT NULL REFERENCES appointment_waits (id) ON DELETE CASCADE,
    token_hash  BLOB    NOT NULL UNIQUE,
    -- The freed time offered: the cancelled or moved booking's provider and times.
    location_id INTEGER NOT NULL REFERENCES locations (id),
    service_id  INTEGER NOT NULL REFERENCES services (id),
    provider_id INTEGER NOT NULL REFERENCES providers (id),
    start_at    INTEGER NOT NULL,
    end_at      INTEGER NOT NULL CHECK (start_at < end_at),
    status      TEXT    NOT NULL DEFAULT 'open'
        CHECK (status = 'open' OR status = 'claimed' OR status = 'gone'),
    booking_id  INTEGER, -- the booking made (no reference: erasing a client deletes its bookings first)
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    CHECK ((status = 'claimed') = (booking_id IS NOT NULL))
);
CREATE INDEX appointment_offers_by_time ON appointment_offers (provider_id, start_at) WHERE status = 'open';
CREATE INDEX appointment_offers_by_wait ON appointment_offers (wait_id);
-- The claim link's message: about an offer rather than a booking (migrate_00542.go widens the
-- kind and the "about something" CHECKs of messages).
ALTER TABLE messages ADD COLUMN offer_id INTEGER REFERENCES appointment_offers (id) ON DELETE CASCADE;

-- +goose Down
ALTER TABLE messages DROP COLUMN offer_id;
DROP TABLE appointment_offers;
DROP TABLE appointment_waits;
