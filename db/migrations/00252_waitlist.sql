-- Waitlists of full class sessions (docs/classes.md). A client joins a full session's list;
-- when a seat frees (a cancel, a move, a larger capacity) the first waiting client is booked in
-- the same transaction, until the owner's cut-off before the session (class_settings). The
-- queue is first come, first served by id. The triggers are the last word on the queue: an
-- entry is booked only with a live booking of its own client in its own session, and never
-- while an earlier entry of the session is still waiting (an earlier client who cannot be
-- booked is marked skipped first, with the reason).

-- +goose Up
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
