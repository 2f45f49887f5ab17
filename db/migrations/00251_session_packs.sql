-- Session packs (docs/classes.md): a service with session_count N > 1 is sold as a pack of N
-- sessions (a cart item of type 'session'), credited to the client when the sale is paid. A
-- booking of that service for a client with a usable pack records the pack in
-- bookings.pack_id. A pack's used sessions are counted, never stored: the live bookings that
-- name it, plus the cancelled ones whose session was not given back (a late cancel);
-- pack_returned is set by a cancel within the cancel policy. The triggers are the last word
-- behind the checks in the write transaction: a booking uses a pack only of its own client and
-- service, starting before the pack expires, and never beyond the pack's sessions.

-- +goose Up

-- The owner's settings for classes and packs (one row; see app/booking/settings.go).
CREATE TABLE class_settings (
    id                  INTEGER PRIMARY KEY CHECK (id = 1),
    -- Days a pack stays usable after it was paid; 0: packs never expire.
    pack_expiry_days    INTEGER NOT NULL DEFAULT 0 CHECK (pack_expiry_days BETWEEN 0 AND 3650),
    -- A freed seat goes to the first waiting client only until this many minutes before the
    -- session starts; later it stays free for anyone to book.
    waitlist_cutoff_min INTEGER NOT NULL DEFAULT 120 CHECK (waitlist_cutoff_min BETWEEN 0 AND 10080),
    updated_at          INTEGER NOT NULL DEFAULT 0
);
INSERT INTO class_settings (id) VALUES (1);

CREATE TABLE client_packs (
    id             INTEGER PRIMARY KEY,
    client_id      INTEGER NOT NULL REFERENCES clients (id),
    service_id     INTEGER NOT NULL REFERENCES services (id),
    sessions_total INTEGER NOT NULL CHECK (sessions_total >= 1),
    price_cents    INTEGER NOT NULL DEFAULT 0 CHECK (price_cents >= 0),
    -- The sale that paid for it (NULL: recorded by the owner or imported).
    sale_id        INTEGER REFERENCES sales (id),
    -- Sessions must start before this instant; NULL: never expires.
    expires_at     INTEGER,
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL
);
CREATE INDEX client_packs_client ON client_packs (client_id, service_id);
CREATE INDEX client_packs_sale ON client_packs (sale_id) WHERE sale_id IS NOT NULL;

ALTER TABLE bookings ADD COLUMN pack_id INTEGER REFERENCES client_packs (id);
-- BETWEEN rather than IN (0, 1): an IN list costs every booking write an ephemeral index.
ALTER TABLE bookings ADD COLUMN pack_returned BOOLEAN NOT NULL DEFAULT 0 CHECK (pack_returned BETWEEN 0 AND 1);
CREATE INDEX bookings_pack ON bookings (pack_id, status_id, pack_returned) WHERE pack_id IS NOT NULL;

-- +goose StatementBegin
CREATE TRIGGER bookings_pack_insert
BEFORE INSERT ON bookings
WHEN NEW.pack_id IS NOT NULL AND NEW.status_id <> 5
BEGIN
    SELECT RAISE(ABORT, 'pack_mismatch')
    WHERE NOT EXISTS (SELECT 1 FROM client_packs p
        WHERE p.id = NEW.pack_id AND p.client_id = NEW.client_id AND p.service_id = NEW.service_id);
    SELECT RAISE(ABORT, 'pack_expired')
    WHERE EXISTS (SELECT 1 FROM client_packs p WHERE p.id = NEW.pack_id AND p.expires_at <= NEW.start_at);
    SELECT RAISE(ABORT, 'pack_used_up')
    WHERE (SELECT count(*) FROM bookings b
           WHERE b.pack_id = NEW.pack_id AND (b.status_id <> 5 OR b.pack_returned = 0))
        >= (SELECT p.sessions_total FROM client_packs p WHERE p.id = NEW.pack_id);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER bookings_pack_update
BEFORE UPDATE OF pack_id, client_id, service_id, start_at ON bookings
WHEN NEW.pack_id IS NOT NULL AND NEW.status_id <> 5
BEGIN
    SELECT RAISE(ABORT, 'pack_mismatch')
    WHERE NOT EXISTS (SELECT 1 FROM client_packs p
        WHERE p.id = NEW.pack_id AND p.client_id = NEW.client_id AND p.service_id = NEW.service_id);
    SELECT RAISE(ABORT, 'pack_expired')
    WHERE EXISTS (SELECT 1 FROM client_packs p WHERE p.id = NEW.pack_id AND p.expires_at <= NEW.start_at);
    SELECT RAISE(ABORT, 'pack_used_up')
    WHERE OLD.pack_id IS NOT NEW.pack_id
      AND (SELECT count(*) FROM bookings b
           WHERE b.pack_id = NEW.pack_id AND b.id <> NEW.id AND (b.status_id <> 5 OR b.pack_returned = 0))
        >= (SELECT p.sessions_total FROM client_packs p WHERE p.id = NEW.pack_id);
END;
-- +goose StatementEnd

-- A session given back stays given back, and only a cancel gives one back.
-- +goose StatementBegin
CREATE TRIGGER bookings_pack_returned
BEFORE UPDATE OF pack_returned ON bookings
WHEN NEW.pack_returned <> OLD.pack_returned
BEGIN
    SELECT RAISE(ABORT, 'pack_return_final')
    WHERE OLD.pack_returned = 1 OR NEW.status_id <> 5 OR NEW.pack_id IS NULL;
END;
-- +goose StatementEnd
