-- A provider's time off is read by every slot search with the busy blocks (queries/schedule.sql).
-- Any insert, change or delete of a provider_time_off row now raises the provider's
-- sessions_provider counter (00363), for the provider before and after the change, in the
-- writing transaction. That counter thus versions all of a provider's busy time that is not
-- bookings (class sessions taught and time off); ScheduleBusyVersion sums it with
-- bookings_provider, so the time off and the busy blocks a schedule read are kept together for
-- as long as neither counter moves (app/booking/busy.go). One counter for both rather than a
-- third kind: every slot search reads the counters of each provider of the location, and each
-- kind is one more index probe per provider.

-- +goose Up
-- +goose StatementBegin
CREATE TRIGGER etag_timeoff_insert AFTER INSERT ON provider_time_off
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_provider', NEW.provider_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_timeoff_update AFTER UPDATE ON provider_time_off
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_provider', OLD.provider_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
    INSERT INTO etag_versions (kind, ref_id, n)
        SELECT 'sessions_provider', NEW.provider_id, 1 WHERE NEW.provider_id <> OLD.provider_id
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_timeoff_delete AFTER DELETE ON provider_time_off
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_provider', OLD.provider_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER etag_timeoff_delete;
DROP TRIGGER etag_timeoff_update;
DROP TRIGGER etag_timeoff_insert;
