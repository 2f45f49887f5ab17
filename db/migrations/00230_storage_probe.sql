-- +goose Up
-- One row the storage probe (db/storage.go) rewrites while the disk is full, to learn the moment
-- writes are possible again without waiting for someone's request to try.
CREATE TABLE storage_probe (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    checked_at INTEGER NOT NULL
);

-- +goose Down
DROP TABLE storage_probe;
