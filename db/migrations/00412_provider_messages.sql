-- A provider's "new booking" and "booking moved" emails are dropped with the booking, like the
-- client's (00361): the cancel trigger skips them too. The provider's "cancelled" email is
-- planned by the same change and goes.

-- +goose Up
DROP TRIGGER messages_skip_on_cancel;
-- +goose StatementBegin
CREATE TRIGGER messages_skip_on_cancel AFTER UPDATE OF status_id ON bookings
WHEN NEW.status_id = 5 AND OLD.status_id <> 5
BEGIN
    UPDATE messages SET state = 'skipped', note = 'booking cancelled', next_attempt_at = NULL,
        updated_at = NEW.updated_at
    WHERE booking_id = NEW.id AND state = 'pending' AND next_attempt_at IS NOT NULL
      AND kind IN ('confirmation', 'rescheduled', 'reminder', 'waitlist_seat', 'provider_booked', 'provider_moved');
END;
-- +goose StatementEnd
