-- The "you got a seat" email of a waitlist promotion (docs/classes.md, docs/messages.md): its
-- message type, on by default like the others (the CHECKs were widened by the Go migration
-- 360, db/migrate_00360.go), and the cancel trigger of 00290 skipping it too, so a promoted
-- booking cancelled before the email went never sends it.

-- +goose Up
INSERT INTO message_kinds (kind) VALUES ('waitlist_seat');

DROP TRIGGER messages_skip_on_cancel;
-- +goose StatementBegin
CREATE TRIGGER messages_skip_on_cancel AFTER UPDATE OF status_id ON bookings
WHEN NEW.status_id = 5 AND OLD.status_id <> 5
BEGIN
    UPDATE messages SET state = 'skipped', note = 'booking cancelled', next_attempt_at = NULL,
        updated_at = NEW.updated_at
    WHERE booking_id = NEW.id AND state = 'pending' AND next_attempt_at IS NOT NULL
      AND kind IN ('confirmation', 'rescheduled', 'reminder', 'waitlist_seat');
END;
-- +goose StatementEnd
