-- Visits: several services booked as one, back to back (docs/visits.md). Each segment is an
-- ordinary booking, so every overlap and resource guarantee holds for it unchanged; these
-- tables only group the segments and say how a service is split.

-- +goose Up
CREATE TABLE visits (
    id          INTEGER PRIMARY KEY,
    location_id INTEGER NOT NULL REFERENCES locations (id),
    client_id   INTEGER NOT NULL REFERENCES clients (id),
    source      TEXT    NOT NULL CHECK (source = 'connect' OR source = 'admin' OR source = 'online' OR source = 'mcp'),
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);

-- The bookings of a visit in order. A service with processing time is two bookings of the
-- visit (part 0 before the processing, part 1 after it), so its provider is free in the gap.
CREATE TABLE visit_bookings (
    booking_id INTEGER PRIMARY KEY REFERENCES bookings (id) ON DELETE CASCADE,
    visit_id   INTEGER NOT NULL REFERENCES visits (id) ON DELETE CASCADE,
    position   INTEGER NOT NULL CHECK (position >= 0),
    part       INTEGER NOT NULL DEFAULT 0 CHECK (part IN (0, 1)),
    addon_of   INTEGER CHECK (addon_of IS NULL OR addon_of >= 0),
    UNIQUE (visit_id, position, part)
);

-- Processing time: after after_min minutes of the service its provider is free for
-- processing_min minutes (colour setting), then finishes it.
CREATE TABLE service_processing (
    service_id     INTEGER PRIMARY KEY REFERENCES services (id) ON DELETE CASCADE,
    after_min      INTEGER NOT NULL CHECK (after_min BETWEEN 5 AND 1439),
    processing_min INTEGER NOT NULL CHECK (processing_min BETWEEN 5 AND 1439)
);

-- Add-ons: short services a client may add to a service in a visit; they follow it with the
-- same provider.
CREATE TABLE service_addons (
    service_id INTEGER NOT NULL REFERENCES services (id) ON DELETE CASCADE,
    addon_id   INTEGER NOT NULL REFERENCES services (id) ON DELETE CASCADE,
    PRIMARY KEY (service_id, addon_id),
    CHECK (service_id <> addon_id)
) WITHOUT ROWID;

-- What the slot engine reads of them is catalog (00110_catalog_version.sql).
-- +goose StatementBegin
CREATE TRIGGER catalog_version_service_processing_insert AFTER INSERT ON service_processing
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_service_processing_update AFTER UPDATE ON service_processing
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_service_processing_delete AFTER DELETE ON service_processing
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER catalog_version_service_processing_delete;
DROP TRIGGER catalog_version_service_processing_update;
DROP TRIGGER catalog_version_service_processing_insert;
DROP TABLE service_addons;
DROP TABLE service_processing;
DROP TABLE visit_bookings;
DROP TABLE visits;
