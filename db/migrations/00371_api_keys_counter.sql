-- Every /v3 and MCP request authenticates its key (app/keyauth). This adds api_keys (ref 0) to
-- etag_versions, raised by any insert, change or delete of an api_keys row in the writing
-- transaction, so a key read under one reading of the counter can be kept by the hash of its
-- token until the counter moves: each request then reads the counter (with the catalog version,
-- in one statement) instead of looking the key up, and a key revoked, deleted or changed by any
-- path — the admin UI, `frontdesk apikey revoke` in another process, plain SQL — is read afresh
-- on the very next request. Recording a key's last use (at most once a minute per key) raises
-- it too: that only costs one more lookup.

-- +goose Up
-- +goose StatementBegin
CREATE TRIGGER etag_api_keys_insert AFTER INSERT ON api_keys
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('api_keys', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_api_keys_update AFTER UPDATE ON api_keys
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('api_keys', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_api_keys_delete AFTER DELETE ON api_keys
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('api_keys', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER etag_api_keys_delete;
DROP TRIGGER etag_api_keys_update;
DROP TRIGGER etag_api_keys_insert;
