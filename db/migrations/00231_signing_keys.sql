-- +goose Up
-- Secrets the appliance signs with, made once per installation and kept with the data so they
-- survive restarts and backups. 'device_cookie' signs the admin's device cookies
-- (app/admin/device.go); deleting its row makes every device a new one.
CREATE TABLE signing_keys (
    name       TEXT    PRIMARY KEY,
    secret     BLOB    NOT NULL CHECK (length(secret) >= 32),
    created_at INTEGER NOT NULL
);

-- +goose Down
DROP TABLE signing_keys;
