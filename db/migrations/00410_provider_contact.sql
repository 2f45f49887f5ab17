-- Providers are people with an address and a number (docs/messages.md, "Messages to
-- providers"): email and phone (E.164, as clients' phones are stored), whether they are emailed
-- about their bookings, and the local time of their daily agenda email (minutes after
-- midnight in their main location's zone; NULL: none). Messages to a provider name them in
-- messages.provider_id, which the agenda (about a day, not one booking) needs as its subject;
-- 411 widens the messages CHECKs for it.

-- +goose Up
ALTER TABLE providers ADD COLUMN email TEXT NOT NULL DEFAULT ''
    CHECK (instr(email, char(10)) = 0 AND instr(email, char(13)) = 0);
ALTER TABLE providers ADD COLUMN phone TEXT NOT NULL DEFAULT '';
ALTER TABLE providers ADD COLUMN notify_bookings BOOLEAN NOT NULL DEFAULT 0 CHECK (notify_bookings IN (0, 1));
ALTER TABLE providers ADD COLUMN agenda_min INTEGER CHECK (agenda_min BETWEEN 0 AND 1439);

ALTER TABLE messages ADD COLUMN provider_id INTEGER REFERENCES providers (id) ON DELETE CASCADE;
CREATE INDEX messages_provider ON messages (provider_id, send_at) WHERE provider_id IS NOT NULL;
