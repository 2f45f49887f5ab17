-- Bookings written into the provider's own CalDAV calendar (docs/calendars.md, "Bookings in
-- your calendar"): the calendar_sources row with push = 1 (00530) is where a provider's
-- bookings go. calendar_pushes is the outbox: one row per booking that is, or is to be, on a
-- provider's calendar, written by the triggers below in the transaction of the booking's change,
-- whatever code made it. A change sets due_at to 0 (due at once) and raises version; the worker
-- (app/calendar/calsync push.go) reads the booking as it is when it sends, so several changes
-- before a send make one request (the latest state wins), and it marks the row done only if
-- version has not moved meanwhile. A failure keeps the row due later (attempts, last_error),
-- so a calendar server that is down only delays the change.
--
-- connection_id, href and etag say where the event is now ('' when it is on no calendar): a
-- booking moved to another provider, a cancel or a change of the push calendar deletes it
-- there. provider_id is the booking's provider at its last change (the admin's pending count).
-- booking_id has no foreign key: the row outlives a deleted booking until its event is deleted.
-- Class seats (session_id) are not written: a class is one session, not one event per seat.

-- +goose Up
CREATE TABLE calendar_pushes (
    booking_id    INTEGER PRIMARY KEY,
    provider_id   INTEGER NOT NULL,
    version       INTEGER NOT NULL DEFAULT 1,
    due_at        INTEGER,
    attempts      INTEGER NOT NULL DEFAULT 0,
    last_error    TEXT    NOT NULL DEFAULT '',
    attempted_at  INTEGER,
    connection_id INTEGER REFERENCES calendar_connections (id) ON DELETE SET NULL,
    href          TEXT    NOT NULL DEFAULT '',
    etag          TEXT    NOT NULL DEFAULT ''
);

CREATE INDEX calendar_pushes_due ON calendar_pushes (due_at) WHERE due_at IS NOT NULL;
CREATE INDEX calendar_pushes_provider ON calendar_pushes (provider_id) WHERE due_at IS NOT NULL;

-- +goose StatementBegin
CREATE TRIGGER calendar_push_booking_insert AFTER INSERT ON bookings
WHEN NEW.session_id IS NULL AND EXISTS (
    SELECT 1 FROM calendar_connections c JOIN calendar_sources s ON s.connection_id = c.id AND s.push = 1
    WHERE c.provider_id = NEW.provider_id)
BEGIN
    INSERT INTO calendar_pushes (booking_id, provider_id, due_at) VALUES (NEW.id, NEW.provider_id, 0)
        ON CONFLICT (booking_id) DO UPDATE SET provider_id = excluded.provider_id, version = version + 1, due_at = 0, attempts = 0;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER calendar_push_booking_update AFTER UPDATE OF start_at, end_at, status_id, provider_id, service_id, client_id, location_id, scheduled, session_id ON bookings
WHEN (NEW.start_at <> OLD.start_at OR NEW.end_at <> OLD.end_at OR NEW.status_id <> OLD.status_id
        OR NEW.provider_id <> OLD.provider_id OR NEW.service_id <> OLD.service_id OR NEW.client_id <> OLD.client_id
        OR NEW.location_id <> OLD.location_id OR NEW.scheduled <> OLD.scheduled OR NEW.session_id IS NOT OLD.session_id)
    AND (EXISTS (SELECT 1 FROM calendar_pushes WHERE booking_id = NEW.id)
        OR (NEW.session_id IS NULL AND EXISTS (
            SELECT 1 FROM calendar_connections c JOIN calendar_sources s ON s.connection_id = c.id AND s.push = 1
            WHERE c.provider_id = NEW.provider_id)))
BEGIN
    INSERT INTO calendar_pushes (booking_id, provider_id, due_at) VALUES (NEW.id, NEW.provider_id, 0)
        ON CONFLICT (booking_id) DO UPDATE SET provider_id = excluded.provider_id, version = version + 1, due_at = 0, attempts = 0;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER calendar_push_booking_delete AFTER DELETE ON bookings
BEGIN
    UPDATE calendar_pushes SET version = version + 1, due_at = 0, attempts = 0 WHERE booking_id = OLD.id;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER calendar_push_booking_delete;
DROP TRIGGER calendar_push_booking_update;
DROP TRIGGER calendar_push_booking_insert;
DROP TABLE calendar_pushes;
