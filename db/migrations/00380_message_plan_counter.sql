-- Every booking's write plans its customer messages from message_settings and message_kinds
-- (app/messages/enqueue.go). This adds message_plan (ref 0) to etag_versions, raised by any
-- write to what the plan reads of those two tables (MessagePlanSettings: the reminder offsets,
-- and each kind's switches) in the writing transaction, so the writer can keep the parsed plan
-- (db.Kept) and read one counter per booking instead of both tables.

-- +goose Up
-- +goose StatementBegin
CREATE TRIGGER message_plan_settings_update AFTER UPDATE OF reminder_offsets ON message_settings
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('message_plan', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER message_plan_settings_insert AFTER INSERT ON message_settings
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('message_plan', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER message_plan_settings_delete AFTER DELETE ON message_settings
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('message_plan', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER message_plan_kinds_update AFTER UPDATE OF kind, enabled, owner_copy ON message_kinds
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('message_plan', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER message_plan_kinds_insert AFTER INSERT ON message_kinds
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('message_plan', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER message_plan_kinds_delete AFTER DELETE ON message_kinds
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('message_plan', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER message_plan_kinds_delete;
DROP TRIGGER message_plan_kinds_insert;
DROP TRIGGER message_plan_kinds_update;
DROP TRIGGER message_plan_settings_delete;
DROP TRIGGER message_plan_settings_insert;
DROP TRIGGER message_plan_settings_update;
