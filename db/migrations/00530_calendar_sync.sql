-- A provider's own calendar (docs/calendars.md): one connection per provider, either a read-only
-- ICS address or a CalDAV account, polled in the background. What it finds busy is stored in
-- calendar_busy, which every slot search reads with the provider's time off, so a search never
-- waits on a calendar server.
--
-- calendar_connections: kind 'ics' (url is the feed) or 'caldav' (url is the server or its
-- context path; username and the app password, sealed with the data directory's key, sign in).
-- allow_private is the owner's opt-in to a loopback or private address (refused otherwise, at
-- dial time, like webhooks). all_day_busy: all-day events block the whole day. reveal_summary:
-- an event's summary may be shown to the team ("why is this time not offered?"); when off, no
-- summary is stored at all. stale_blocks: busy time that has not been refreshed for the stale
-- age still blocks (1) or is ignored (0); stale is set by the worker when the last good sync is
-- older than that age. etag (the feed's ETag, or the CalDAV calendars' CTags) and digest (of
-- the blocks stored) let a poll that finds nothing new write nothing.
--
-- calendar_sources: the calendars of a CalDAV account (an ICS connection has none); busy says
-- whether its events count as busy time; push marks the one calendar bookings are written to.
--
-- calendar_busy: blocks cut at two days each (an event of a week is four rows), so a slot search
-- reads them through one bounded index range, as it reads bookings. Every write to it, and a
-- change of a connection's stale state or stale rule, raises the provider's sessions_provider
-- counter (00363, 00370): the busy time a slot search keeps (app/booking/busy.go) follows it.

-- +goose Up
CREATE TABLE calendar_connections (
    id              INTEGER PRIMARY KEY,
    provider_id     INTEGER NOT NULL UNIQUE REFERENCES providers (id) ON DELETE CASCADE,
    kind            TEXT    NOT NULL CHECK (kind IN ('ics', 'caldav')),
    url             TEXT    NOT NULL CHECK (length(url) BETWEEN 1 AND 2048),
    username        TEXT    NOT NULL DEFAULT '',
    password_sealed TEXT    NOT NULL DEFAULT '',
    allow_private   BOOLEAN NOT NULL DEFAULT 0 CHECK (allow_private IN (0, 1)),
    all_day_busy    BOOLEAN NOT NULL DEFAULT 1 CHECK (all_day_busy IN (0, 1)),
    reveal_summary  BOOLEAN NOT NULL DEFAULT 0 CHECK (reveal_summary IN (0, 1)),
    stale_blocks    BOOLEAN NOT NULL DEFAULT 1 CHECK (stale_blocks IN (0, 1)),
    stale           BOOLEAN NOT NULL DEFAULT 0 CHECK (stale IN (0, 1)),
    etag            TEXT    NOT NULL DEFAULT '',
    digest          TEXT    NOT NULL DEFAULT '',
    last_attempt_at INTEGER,
    last_success_at INTEGER,
    last_error      TEXT    NOT NULL DEFAULT '',
    next_poll_at    INTEGER NOT NULL DEFAULT 0,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
);

CREATE INDEX calendar_connections_due ON calendar_connections (next_poll_at);

CREATE TABLE calendar_sources (
    id            INTEGER PRIMARY KEY,
    connection_id INTEGER NOT NULL REFERENCES calendar_connections (id) ON DELETE CASCADE,
    href          TEXT    NOT NULL,
    name          TEXT    NOT NULL DEFAULT '',
    busy          BOOLEAN NOT NULL DEFAULT 1 CHECK (busy IN (0, 1)),
    push          BOOLEAN NOT NULL DEFAULT 0 CHECK (push IN (0, 1)),
    UNIQUE (connection_id, href)
);

CREATE TABLE calendar_busy (
    id            INTEGER PRIMARY KEY,
    connection_id INTEGER NOT NULL REFERENCES calendar_connections (id) ON DELETE CASCADE,
    provider_id   INTEGER NOT NULL,
    starts_at     INTEGER NOT NULL,
    ends_at       INTEGER NOT NULL,
    summary       TEXT    NOT NULL DEFAULT '',
    CHECK (ends_at > starts_at AND ends_at - starts_at <= 172800000)
);

CREATE INDEX calendar_busy_provider ON calendar_busy (provider_id, starts_at);
CREATE INDEX calendar_busy_connection ON calendar_busy (connection_id);

-- +goose StatementBegin
CREATE TRIGGER etag_calendar_busy_insert AFTER INSERT ON calendar_busy
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_provider', NEW.provider_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_calendar_busy_delete AFTER DELETE ON calendar_busy
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_provider', OLD.provider_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_calendar_busy_update AFTER UPDATE ON calendar_busy
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_provider', OLD.provider_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
    INSERT INTO etag_versions (kind, ref_id, n)
        SELECT 'sessions_provider', NEW.provider_id, 1 WHERE NEW.provider_id <> OLD.provider_id
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_calendar_connection_update AFTER UPDATE OF stale, stale_blocks, provider_id ON calendar_connections
WHEN NEW.stale <> OLD.stale OR NEW.stale_blocks <> OLD.stale_blocks OR NEW.provider_id <> OLD.provider_id
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_provider', OLD.provider_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
    INSERT INTO etag_versions (kind, ref_id, n)
        SELECT 'sessions_provider', NEW.provider_id, 1 WHERE NEW.provider_id <> OLD.provider_id
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER etag_calendar_connection_update;
DROP TRIGGER etag_calendar_busy_update;
DROP TRIGGER etag_calendar_busy_delete;
DROP TRIGGER etag_calendar_busy_insert;
DROP TABLE calendar_busy;
DROP TABLE calendar_sources;
DROP TABLE calendar_connections;
