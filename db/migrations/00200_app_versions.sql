-- +goose Up
-- Which frontdesk versions have opened this database, and at which schema version. A binary
-- that finds a schema newer than it knows (a downgrade) refuses to start and names the version
-- that wrote it from here (docs/deploy.md "Upgrades").
CREATE TABLE app_versions (
    id             INTEGER PRIMARY KEY,
    version        TEXT    NOT NULL CHECK (length(version) BETWEEN 1 AND 200),
    schema_version INTEGER NOT NULL CHECK (schema_version > 0),
    recorded_at    INTEGER NOT NULL
);

-- +goose Down
DROP TABLE app_versions;
