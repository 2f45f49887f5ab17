-- Which records `frontdesk import` created, by the file-local key they had in the import file.
-- Import only ever appends; this table is how a second run of the same file is refused instead
-- of silently creating every record twice. kind is the file section the key was declared in.

-- +goose Up
CREATE TABLE import_keys (
    kind        TEXT    NOT NULL
        CHECK (kind IN ('location', 'category', 'service', 'provider', 'custom_attribute', 'client', 'booking')),
    key         TEXT    NOT NULL,
    record_id   INTEGER NOT NULL,
    imported_at INTEGER NOT NULL,
    PRIMARY KEY (kind, key)
) WITHOUT ROWID;
