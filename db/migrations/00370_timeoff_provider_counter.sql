-- A provider's time off is read by every slot search with the busy blocks (queries/schedule.sql).
-- This adds timeoff_provider (ref = provider id) to etag_versions, raised by any insert, change
-- or delete of a provider_time_off row, for the provider before and after the change, in the
-- writing transaction. ScheduleBusyVersion sums it with bookings_provider and sessions_provider,
-- so the time off and the busy blocks a schedule read are kept together for as long as none of
-- those counters moves (app/booking/busy.go).

-- +goose Up
-- +goose StatementBegin
CREATE TRIGGER etag_timeoff_insert AFTER INSERT ON provider_time_off
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('timeoff_provider', NEW.provider_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_timeoff_update AFTER UPDATE ON provider_time_off
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('timeoff_provider', OLD.provider_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
    INSERT INTO etag_versions (kind, ref_id, n)
        SELECT 'timeoff_provider', NEW.provider_id, 1 WHERE NEW.provider_id <> OLD.provider_id
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_timeoff_delete AFTER DELETE ON provider_time_off
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('timeoff_provider', OLD.provider_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER etag_timeoff_delete;
DROP TRIGGER etag_timeoff_update;
DROP TRIGGER etag_timeoff_insert;
