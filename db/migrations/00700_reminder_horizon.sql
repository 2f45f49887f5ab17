-- Reminders are written into the outbox a day before they are due, not when their booking is
-- made (docs/messages.md, "When reminders are planned"): a booking made weeks ahead costs one
-- row fewer per reminder inside the single writer, and its reminders follow the message
-- settings as they are near the time. through_at is how far that has gone: every reminder whose
-- moment (start − offset) is at or before it has its row (planned, sent or skipped); a later
-- one is written when the horizon reaches it. 0 means not yet started: the first plan after
-- this migration catches up from the bookings still ahead, and the reminders already planned
-- as rows stay as they are.
-- +goose Up
CREATE TABLE reminder_horizon (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    through_at INTEGER NOT NULL
);
INSERT INTO reminder_horizon (id, through_at) VALUES (1, 0);

-- +goose Down
DROP TABLE reminder_horizon;
