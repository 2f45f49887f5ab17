-- Settings → Messages → Replies: an optional copy of every message a client sends to the owner
-- by email (off by default). A copy is a message of kind 'reply' to the owner about the
-- received message (00580, migrate_00581.go).

-- +goose Up
ALTER TABLE message_settings ADD COLUMN copy_replies INTEGER NOT NULL DEFAULT 0 CHECK (copy_replies IN (0, 1));

-- +goose Down
ALTER TABLE message_settings DROP COLUMN copy_replies;
