-- `frontdesk import` remembers the keys of timetable entries and one-off class sessions too
-- (docs/import.md), so running a file with a timetable twice is refused instead of doubling
-- every class. import_keys is small and has no triggers or references: it is rebuilt with the
-- wider CHECK.

-- +goose Up
CREATE TABLE import_keys_new (
    kind        TEXT    NOT NULL
        CHECK (kind IN ('location', 'category', 'service', 'provider', 'custom_attribute', 'client', 'booking',
            'timetable', 'session')),
    key         TEXT    NOT NULL,
    record_id   INTEGER NOT NULL,
    imported_at INTEGER NOT NULL,
    PRIMARY KEY (kind, key)
) WITHOUT ROWID;
INSERT INTO import_keys_new (kind, key, record_id, imported_at) SELECT kind, key, record_id, imported_at FROM import_keys;
DROP TABLE import_keys;
ALTER TABLE import_keys_new RENAME TO import_keys;
