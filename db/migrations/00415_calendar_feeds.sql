-- Calendar feeds (docs/feeds.md): a secret ICS URL per provider or per location that a phone's
-- calendar subscribes to. Only the SHA-256 of a feed's token is kept, like manage links (00270):
-- a copy of the database gives nobody a working URL. Rotating replaces token_hash, so the old URL
-- answers 404 at once; turning a feed off deletes its row. details says whether events carry the
-- client's full name, phone and the booking's notes (1) or the client's first name only (0).
--
-- The feed's ETag is made of change counters (00330, 00363); this adds the ones a feed needs
-- besides: sessions_location (ref = location id), raised like sessions_provider, and session
-- (ref = class session id), raised by any change of that session, from which its SEQUENCE
-- grows.

-- +goose Up
CREATE TABLE calendar_feeds (
    id          INTEGER PRIMARY KEY,
    provider_id INTEGER UNIQUE REFERENCES providers (id) ON DELETE CASCADE,
    location_id INTEGER UNIQUE REFERENCES locations (id) ON DELETE CASCADE,
    token_hash  BLOB    NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    details     BOOLEAN NOT NULL DEFAULT 0 CHECK (details IN (0, 1)),
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    CHECK ((provider_id IS NULL) <> (location_id IS NULL))
);

-- +goose StatementBegin
CREATE TRIGGER etag_feed_sessions_insert AFTER INSERT ON class_sessions
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_location', NEW.location_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_feed_sessions_update AFTER UPDATE ON class_sessions
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_location', OLD.location_id, 1), ('session', OLD.id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
    INSERT INTO etag_versions (kind, ref_id, n)
        SELECT 'sessions_location', NEW.location_id, 1 WHERE NEW.location_id <> OLD.location_id
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_feed_sessions_delete AFTER DELETE ON class_sessions
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_location', OLD.location_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER etag_feed_sessions_delete;
DROP TRIGGER etag_feed_sessions_update;
DROP TRIGGER etag_feed_sessions_insert;
DROP TABLE calendar_feeds;
