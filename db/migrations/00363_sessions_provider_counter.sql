-- The busy blocks a schedule reads (queries/schedule.sql, ScheduleBusyPacked) are a provider's
-- bookings and the class sessions the provider teaches. Bookings already raise
-- bookings_provider (00330); this adds sessions_provider (ref = provider id), raised by any
-- insert, change or delete of a class session, for the provider before and after the change.
-- Together they version a provider's busy time, so the slots engine can keep the blocks it read
-- for as long as neither counter moves (app/booking/busy.go).

-- +goose Up
-- +goose StatementBegin
CREATE TRIGGER etag_sessions_insert AFTER INSERT ON class_sessions
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_provider', NEW.provider_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_sessions_update AFTER UPDATE ON class_sessions
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_provider', OLD.provider_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
    INSERT INTO etag_versions (kind, ref_id, n)
        SELECT 'sessions_provider', NEW.provider_id, 1 WHERE NEW.provider_id <> OLD.provider_id
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_sessions_delete AFTER DELETE ON class_sessions
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_provider', OLD.provider_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER etag_sessions_delete;
DROP TRIGGER etag_sessions_update;
DROP TRIGGER etag_sessions_insert;
