-- Every event the appliance commits fans out to the webhooks inside the writer's transaction
-- (webhook.Enqueue, app/webhook/outbox.go), and that read the whole webhooks list per event.
-- This adds webhooks_enqueue (ref 0) to etag_versions, raised by any write to what that list
-- reads (ListWebhooksForEnqueue: id, events_json, state) in the writing transaction, so the
-- writer can keep the parsed list (db.Kept) and read one counter per event instead. The id of
-- a row never changes, so an insert or a delete, and an update of events_json or state, are
-- every write that changes the list. Nothing cascades into webhooks (it references no table);
-- its dependants cascade out of it, which the list does not read.

-- +goose Up
-- +goose StatementBegin
CREATE TRIGGER webhooks_enqueue_insert AFTER INSERT ON webhooks
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('webhooks_enqueue', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER webhooks_enqueue_update AFTER UPDATE OF events_json, state ON webhooks
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('webhooks_enqueue', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER webhooks_enqueue_delete AFTER DELETE ON webhooks
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('webhooks_enqueue', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER webhooks_enqueue_delete;
DROP TRIGGER webhooks_enqueue_update;
DROP TRIGGER webhooks_enqueue_insert;
