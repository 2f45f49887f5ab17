-- The activity trail (docs/activity.md): who changed what, written by the use case in the
-- change's own transaction (app/activity.Record), so a write that rolls back leaves no entry.
-- actor_id is text because a CLI actor is an operating-system user; entity_id 0 is a
-- singleton such as the business settings. changes is a JSON object {field: [old, new]} of
-- the changed fields only, with secrets left out by the writer. at is Unix milliseconds.
-- The kind CHECK is comparisons, not an IN list (00382): every booking writes a row here.

-- +goose Up
CREATE TABLE activity (
    id          INTEGER PRIMARY KEY,
    at          INTEGER NOT NULL,
    actor_kind  TEXT    NOT NULL CHECK (actor_kind = 'owner' OR actor_kind = 'api_key'
                    OR actor_kind = 'mcp' OR actor_kind = 'client' OR actor_kind = 'site'
                    OR actor_kind = 'cli' OR actor_kind = 'system'),
    actor_id    TEXT    NOT NULL DEFAULT '',
    actor_label TEXT    NOT NULL DEFAULT '',
    action      TEXT    NOT NULL,
    entity      TEXT    NOT NULL,
    entity_id   INTEGER NOT NULL DEFAULT 0,
    changes     TEXT    NOT NULL DEFAULT '{}',
    ip          TEXT    NOT NULL DEFAULT ''
);
-- Newest first, the whole trail and the pruner's oldest-first batches.
CREATE INDEX activity_at ON activity (at);
-- A booking's or a client's own history.
CREATE INDEX activity_entity ON activity (entity, entity_id, at);
-- One person's entries.
CREATE INDEX activity_actor ON activity (actor_kind, actor_id, at);

-- +goose Down
DROP TABLE activity;
