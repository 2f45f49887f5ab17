-- Classes, session packs and waitlists (docs/classes.md), in one migration.
--
-- Classes: a service with capacity > 1 is given in sessions, not on the free
-- slot grid. The owner keeps a weekly timetable per location; app/booking materializes it into
-- class_sessions rows (one per occurrence, as instants, DST resolved in Go) for a rolling year
-- ahead, plus one-off sessions. A cancelled date is a session row with status 'cancelled', which
-- also stops the timetable from generating that date again.
--
-- Three rules are enforced here as the last word, behind the checks in the write transaction:
--   * a scheduled session holds its provider like a booking does: no booking of another
--     service and no other session may overlap its block (buffers included), and it may not be
--     placed over either — whatever the number of attendees, even none;
--   * an attendee's booking (bookings.session_id) matches its session exactly and takes a seat
--     only while the session's live bookings are fewer than its capacity (class_full);
--   * a client holds at most one live seat per session (a partial unique index).
-- Bookings of one session do not overlap each other in the sense of the no-double-booking rule:
-- the session holds the provider once.
--
-- Session packs: a service with session_count N > 1 is sold as a pack of N
-- sessions (a cart item of type 'session'), credited to the client when the sale is paid. A
-- booking of that service for a client with a usable pack records the pack in
-- bookings.pack_id. A pack's used sessions are counted, never stored: the live bookings that
-- name it, plus the cancelled ones whose session was not given back (a late cancel);
-- pack_returned is set by a cancel within the cancel policy. The triggers are the last word
-- behind the checks in the write transaction: a booking uses a pack only of its own client and
-- service, starting before the pack expires, and never beyond the pack's sessions.
--
-- Waitlists of full class sessions. A client joins a full session's list;
-- when a seat frees (a cancel, a move, a larger capacity) the first waiting client is booked in
-- the same transaction, until the owner's cut-off before the session (class_settings). The
-- queue is first come, first served by id. The triggers are the last word on the queue: an
-- entry is booked only with a live booking of its own client in its own session, and never
-- while an earlier entry of the session is still waiting (an earlier client who cannot be
-- booked is marked skipped first, with the reason).

-- +goose Up

CREATE TABLE class_timetable (
    id          INTEGER PRIMARY KEY,
    location_id INTEGER NOT NULL REFERENCES locations (id),
    service_id  INTEGER NOT NULL REFERENCES services (id),
    provider_id INTEGER NOT NULL REFERENCES providers (id),
    day_id      INTEGER NOT NULL CHECK (day_id BETWEEN 0 AND 6),
    start_min   INTEGER NOT NULL CHECK (start_min BETWEEN 0 AND 1439),
    -- NULL: the service's capacity. A value overrides it for this slot of the week (a bigger room).
    capacity    INTEGER CHECK (capacity >= 1),
    room        TEXT,
    -- Local dates of the location, inclusive; valid_to NULL: until further notice.
    valid_from  TEXT    NOT NULL,
    valid_to    TEXT,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    CHECK (valid_to IS NULL OR valid_to >= valid_from)
);
CREATE INDEX class_timetable_location ON class_timetable (location_id, day_id, start_min);
CREATE INDEX class_timetable_provider ON class_timetable (provider_id);

CREATE TABLE class_sessions (
    id             INTEGER PRIMARY KEY,
    location_id    INTEGER NOT NULL REFERENCES locations (id),
    service_id     INTEGER NOT NULL REFERENCES services (id),
    provider_id    INTEGER NOT NULL REFERENCES providers (id),
    -- The weekly entry that generated it; NULL for a one-off session.
    timetable_id   INTEGER REFERENCES class_timetable (id) ON DELETE SET NULL,
    local_date     TEXT    NOT NULL, -- the location's local date of start_at
    start_at       INTEGER NOT NULL,
    end_at         INTEGER NOT NULL,
    block_start_at INTEGER NOT NULL,
    block_end_at   INTEGER NOT NULL,
    capacity       INTEGER CHECK (capacity >= 1), -- NULL: the service's capacity
    room           TEXT,
    status         TEXT    NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'cancelled')),
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL,
    CHECK (start_at < end_at),
    CHECK (block_start_at <= start_at AND end_at <= block_end_at),
    CHECK (block_end_at - block_start_at <= 172800000)
);
-- One session per timetable entry and date, cancelled ones included: generation never brings a
-- cancelled date back.
CREATE UNIQUE INDEX class_sessions_timetable_date ON class_sessions (timetable_id, local_date)
    WHERE timetable_id IS NOT NULL;
CREATE INDEX class_sessions_provider_block ON class_sessions (provider_id, block_start_at, block_end_at, status);
CREATE INDEX class_sessions_location_start ON class_sessions (location_id, start_at);

-- The attendee's seat (pack_id and pack_returned, for session packs, are further down).
ALTER TABLE bookings ADD COLUMN session_id INTEGER REFERENCES class_sessions (id);
CREATE INDEX bookings_session ON bookings (session_id, status_id) WHERE session_id IS NOT NULL;
CREATE UNIQUE INDEX bookings_one_seat_per_client ON bookings (session_id, client_id)
    WHERE session_id IS NOT NULL AND status_id <> 5;

-- A session is placed only where its provider is free: no live booking (other than its own
-- attendees') and no other scheduled session overlaps its block.
-- +goose StatementBegin
CREATE TRIGGER class_sessions_no_overlap_insert
BEFORE INSERT ON class_sessions
WHEN NEW.status = 'scheduled'
BEGIN
    SELECT RAISE(ABORT, 'slot_unavailable')
    WHERE EXISTS (
        SELECT 1 FROM bookings b
        WHERE b.provider_id = NEW.provider_id
          AND b.status_id <> 5
          AND b.block_start_at > NEW.block_start_at - 172800000
          AND b.block_start_at < NEW.block_end_at
          AND b.block_end_at > NEW.block_start_at
    ) OR EXISTS (
        SELECT 1 FROM class_sessions s
        WHERE s.provider_id = NEW.provider_id
          AND s.status = 'scheduled'
          AND s.block_start_at > NEW.block_start_at - 172800000
          AND s.block_start_at < NEW.block_end_at
          AND s.block_end_at > NEW.block_start_at
    );
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER class_sessions_no_overlap_update
BEFORE UPDATE OF provider_id, status, block_start_at, block_end_at ON class_sessions
WHEN NEW.status = 'scheduled'
BEGIN
    SELECT RAISE(ABORT, 'slot_unavailable')
    WHERE EXISTS (
        SELECT 1 FROM bookings b
        WHERE b.provider_id = NEW.provider_id
          AND b.status_id <> 5
          AND b.block_start_at > NEW.block_start_at - 172800000
          AND b.block_start_at < NEW.block_end_at
          AND b.block_end_at > NEW.block_start_at
          AND b.session_id IS NOT NEW.id
    ) OR EXISTS (
        SELECT 1 FROM class_sessions s
        WHERE s.provider_id = NEW.provider_id
          AND s.id <> NEW.id
          AND s.status = 'scheduled'
          AND s.block_start_at > NEW.block_start_at - 172800000
          AND s.block_start_at < NEW.block_end_at
          AND s.block_end_at > NEW.block_start_at
    );
END;
-- +goose StatementEnd

-- A session with live attendees keeps its time, place and provider, and is not cancelled: its
-- bookings are cancelled (with their events) first.
-- +goose StatementBegin
CREATE TRIGGER class_sessions_keep_attendees
BEFORE UPDATE OF location_id, service_id, provider_id, start_at, end_at, block_start_at, block_end_at, status
ON class_sessions
WHEN NEW.status <> 'scheduled' OR NEW.location_id <> OLD.location_id OR NEW.service_id <> OLD.service_id
    OR NEW.provider_id <> OLD.provider_id OR NEW.start_at <> OLD.start_at OR NEW.end_at <> OLD.end_at
    OR NEW.block_start_at <> OLD.block_start_at OR NEW.block_end_at <> OLD.block_end_at
BEGIN
    SELECT RAISE(ABORT, 'session_has_attendees')
    WHERE EXISTS (SELECT 1 FROM bookings b WHERE b.session_id = OLD.id AND b.status_id <> 5);
END;
-- +goose StatementEnd

-- The no-double-booking triggers of 00001, recreated: a booking outside any session (the
-- ordinary case, session_id NULL) must also stay clear of scheduled sessions. The first
-- EXISTS is the original one, unchanged.
DROP TRIGGER bookings_no_overlap_insert;
DROP TRIGGER bookings_no_overlap_update;

-- +goose StatementBegin
CREATE TRIGGER bookings_no_overlap_insert
BEFORE INSERT ON bookings
WHEN NEW.status_id <> 5 AND NEW.session_id IS NULL
BEGIN
    SELECT RAISE(ABORT, 'slot_unavailable')
    WHERE EXISTS (
        SELECT 1 FROM bookings b
        WHERE b.provider_id = NEW.provider_id
          AND b.status_id <> 5
          AND b.block_start_at > NEW.block_start_at - 172800000
          AND b.block_start_at < NEW.block_end_at
          AND b.block_end_at > NEW.block_start_at
    ) OR EXISTS (
        SELECT 1 FROM class_sessions s
        WHERE s.provider_id = NEW.provider_id
          AND s.status = 'scheduled'
          AND s.block_start_at > NEW.block_start_at - 172800000
          AND s.block_start_at < NEW.block_end_at
          AND s.block_end_at > NEW.block_start_at
    );
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER bookings_no_overlap_update
BEFORE UPDATE OF provider_id, status_id, block_start_at, block_end_at, session_id ON bookings
WHEN NEW.status_id <> 5 AND NEW.session_id IS NULL
BEGIN
    SELECT RAISE(ABORT, 'slot_unavailable')
    WHERE EXISTS (
        SELECT 1 FROM bookings b
        WHERE b.provider_id = NEW.provider_id
          AND b.id <> NEW.id
          AND b.status_id <> 5
          AND b.block_start_at > NEW.block_start_at - 172800000
          AND b.block_start_at < NEW.block_end_at
          AND b.block_end_at > NEW.block_start_at
    ) OR EXISTS (
        SELECT 1 FROM class_sessions s
        WHERE s.provider_id = NEW.provider_id
          AND s.status = 'scheduled'
          AND s.block_start_at > NEW.block_start_at - 172800000
          AND s.block_start_at < NEW.block_end_at
          AND s.block_end_at > NEW.block_start_at
    );
END;
-- +goose StatementEnd

-- An attendee's booking: its session is scheduled, it matches the session (place, service,
-- provider, times and block), and — when it takes a seat it did not hold before — a seat is
-- free. The seat count reads the bookings_session index and is bounded by the capacity.
-- +goose StatementBegin
CREATE TRIGGER bookings_session_seat_insert
BEFORE INSERT ON bookings
WHEN NEW.status_id <> 5 AND NEW.session_id IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'session_cancelled')
    WHERE NOT EXISTS (SELECT 1 FROM class_sessions s WHERE s.id = NEW.session_id AND s.status = 'scheduled');
    SELECT RAISE(ABORT, 'session_mismatch')
    WHERE NOT EXISTS (
        SELECT 1 FROM class_sessions s
        WHERE s.id = NEW.session_id AND s.location_id = NEW.location_id AND s.service_id = NEW.service_id
          AND s.provider_id = NEW.provider_id AND s.start_at = NEW.start_at AND s.end_at = NEW.end_at
          AND s.block_start_at = NEW.block_start_at AND s.block_end_at = NEW.block_end_at
    );
    SELECT RAISE(ABORT, 'class_full')
    WHERE (SELECT count(*) FROM bookings b WHERE b.session_id = NEW.session_id AND b.status_id <> 5)
        >= (SELECT coalesce(s.capacity, sv.capacity) FROM class_sessions s JOIN services sv ON sv.id = s.service_id
            WHERE s.id = NEW.session_id);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER bookings_session_match_update
BEFORE UPDATE OF session_id, location_id, service_id, provider_id, start_at, end_at, block_start_at, block_end_at
ON bookings
WHEN NEW.status_id <> 5 AND NEW.session_id IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'session_cancelled')
    WHERE NOT EXISTS (SELECT 1 FROM class_sessions s WHERE s.id = NEW.session_id AND s.status = 'scheduled');
    SELECT RAISE(ABORT, 'session_mismatch')
    WHERE NOT EXISTS (
        SELECT 1 FROM class_sessions s
        WHERE s.id = NEW.session_id AND s.location_id = NEW.location_id AND s.service_id = NEW.service_id
          AND s.provider_id = NEW.provider_id AND s.start_at = NEW.start_at AND s.end_at = NEW.end_at
          AND s.block_start_at = NEW.block_start_at AND s.block_end_at = NEW.block_end_at
    );
END;
-- +goose StatementEnd

-- Moving a booking into a session takes a seat. (Status changes among 1–4 keep the seat they
-- have, so a session whose capacity was lowered below its attendees can still mark them.)
-- +goose StatementBegin
CREATE TRIGGER bookings_session_seat_update
BEFORE UPDATE OF session_id ON bookings
WHEN NEW.status_id <> 5 AND NEW.session_id IS NOT NULL AND OLD.session_id IS NOT NEW.session_id
BEGIN
    SELECT RAISE(ABORT, 'class_full')
    WHERE (SELECT count(*) FROM bookings b WHERE b.session_id = NEW.session_id AND b.status_id <> 5 AND b.id <> NEW.id)
        >= (SELECT coalesce(s.capacity, sv.capacity) FROM class_sessions s JOIN services sv ON sv.id = s.service_id
            WHERE s.id = NEW.session_id);
END;
-- +goose StatementEnd

-- Recreated last so that, as before, it is the first trigger SQLite runs on a status change
-- (the newest runs first): un-cancelling is refused as booking_cancelled, not as an overlap.
DROP TRIGGER bookings_cancel_is_final;

-- +goose StatementBegin
CREATE TRIGGER bookings_cancel_is_final
BEFORE UPDATE OF status_id ON bookings
WHEN OLD.status_id = 5 AND NEW.status_id <> 5
BEGIN
    SELECT RAISE(ABORT, 'booking_cancelled');
END;
-- +goose StatementEnd

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

CREATE TABLE waitlist_entries (
    id          INTEGER PRIMARY KEY,
    session_id  INTEGER NOT NULL REFERENCES class_sessions (id),
    client_id   INTEGER NOT NULL REFERENCES clients (id),
    status      TEXT    NOT NULL DEFAULT 'waiting'
        CHECK (status IN ('waiting', 'booked', 'left', 'skipped')),
    -- Why an entry was skipped: 'already_booked', 'client_inactive', 'pack_unusable'.
    reason      TEXT,
    booking_id  INTEGER REFERENCES bookings (id),
    -- Who added the client, as bookings.source; a promoted booking carries it.
    source      TEXT    NOT NULL CHECK (source IN ('connect', 'admin', 'online', 'mcp')),
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    CHECK ((status = 'booked') = (booking_id IS NOT NULL))
);
CREATE UNIQUE INDEX waitlist_one_per_client ON waitlist_entries (session_id, client_id) WHERE status = 'waiting';
CREATE INDEX waitlist_queue ON waitlist_entries (session_id, status, id);
CREATE INDEX waitlist_client ON waitlist_entries (client_id, id);

-- +goose StatementBegin
CREATE TRIGGER waitlist_in_order
BEFORE UPDATE OF status ON waitlist_entries
WHEN NEW.status = 'booked' AND OLD.status = 'waiting'
BEGIN
    SELECT RAISE(ABORT, 'waitlist_out_of_order')
    WHERE EXISTS (SELECT 1 FROM waitlist_entries w
        WHERE w.session_id = NEW.session_id AND w.status = 'waiting' AND w.id < NEW.id);
    SELECT RAISE(ABORT, 'waitlist_booking_mismatch')
    WHERE NOT EXISTS (SELECT 1 FROM bookings b
        WHERE b.id = NEW.booking_id AND b.session_id = NEW.session_id AND b.client_id = NEW.client_id
          AND b.status_id <> 5);
END;
-- +goose StatementEnd

-- Only a waiting entry changes, and only to a final state.
-- +goose StatementBegin
CREATE TRIGGER waitlist_final
BEFORE UPDATE OF status ON waitlist_entries
WHEN OLD.status <> 'waiting' AND NEW.status <> OLD.status
BEGIN
    SELECT RAISE(ABORT, 'waitlist_entry_closed');
END;
-- +goose StatementEnd

-- `frontdesk import` remembers the keys of the timetable entries and one-off sessions it
-- creates, as import_keys does for the other sections, so running a file with a timetable twice
-- is refused instead of doubling every class (a table of its own: import_keys' CHECK of kinds
-- cannot be widened without rebuilding it).
CREATE TABLE import_class_keys (
    kind        TEXT    NOT NULL CHECK (kind IN ('timetable', 'session')),
    key         TEXT    NOT NULL,
    record_id   INTEGER NOT NULL,
    imported_at INTEGER NOT NULL,
    PRIMARY KEY (kind, key)
) WITHOUT ROWID;
