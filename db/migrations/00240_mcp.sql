-- The MCP endpoint (app/mcp, docs/mcp.md). One row of channel settings: the owner's on/off
-- switch (Settings → Integrations) and the secret that signs slot ids, so a model can book only
-- a time that a free-times answer offered (it cannot make one up). The secret never leaves the
-- database and this process.

-- +goose Up
CREATE TABLE mcp_settings (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    enabled    BOOLEAN NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    slot_key   BLOB    NOT NULL CHECK (length(slot_key) = 32),
    updated_at INTEGER NOT NULL
);
INSERT INTO mcp_settings (id, enabled, slot_key, updated_at) VALUES (1, 1, randomblob(32), 0);

-- Whether an API key may be used over MCP. Off for every key until the owner allows it: a key
-- handed to a Connect v3 integration does not silently gain a second way in.
ALTER TABLE api_keys ADD COLUMN mcp_allowed BOOLEAN NOT NULL DEFAULT 0 CHECK (mcp_allowed IN (0, 1));

