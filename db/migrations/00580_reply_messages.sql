-- The answer to a client's WhatsApp reply ("… is confirmed", the STOP confirmation, a refused
-- cancel's reason) goes through the messages outbox, with its retries and log: a message of
-- kind 'reply' about the received message it answers (migrate_00581.go widens the kind and the
-- "about something" CHECKs of messages). Its words are the received row's reply.

-- +goose Up
ALTER TABLE messages ADD COLUMN inbound_id INTEGER REFERENCES inbound_messages (id) ON DELETE CASCADE;

-- +goose Down
ALTER TABLE messages DROP COLUMN inbound_id;
