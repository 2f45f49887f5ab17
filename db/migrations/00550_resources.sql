-- Resources are the rooms and equipment of a location that a service needs besides a provider
-- (a massage bed, a colour station), each with a quantity: how many bookings may hold it at
-- once. A service requires zero or more of them (service_resources); a booking holds every
-- resource its service requires at its location, over its block (buffers included), in
-- booking_resources.
--
-- The holds are written by the triggers below, not by the application, so that a booking holds
-- its resources whichever code path writes it; and a hold that would make more bookings use a
-- resource at one instant than its quantity is refused here (resource_unavailable), the
-- database's last word under the slot engine and the check in the write transaction
-- (app/booking/resources.go). Holds keep the resources a booking was made with: changing what
-- a service requires applies to bookings made or moved to another service afterwards.

-- +goose Up
CREATE TABLE resources (
    id          INTEGER PRIMARY KEY,
    location_id INTEGER NOT NULL REFERENCES locations (id),
    name        TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    kind        TEXT    NOT NULL DEFAULT 'room' CHECK (kind = 'room' OR kind = 'equipment'),
    quantity    INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 1000),
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    UNIQUE (location_id, name)
);

CREATE TABLE service_resources (
    service_id  INTEGER NOT NULL REFERENCES services (id) ON DELETE CASCADE,
    resource_id INTEGER NOT NULL REFERENCES resources (id) ON DELETE CASCADE,
    PRIMARY KEY (service_id, resource_id)
) WITHOUT ROWID;
CREATE INDEX service_resources_resource ON service_resources (resource_id);

-- One row per booking and resource it holds; live is whether the hold counts (the booking is
-- not cancelled and not a class seat). Times are the booking's block, copied so the capacity
-- search reads one index.
CREATE TABLE booking_resources (
    booking_id     INTEGER NOT NULL REFERENCES bookings (id) ON DELETE CASCADE,
    resource_id    INTEGER NOT NULL REFERENCES resources (id) ON DELETE CASCADE,
    block_start_at INTEGER NOT NULL,
    block_end_at   INTEGER NOT NULL,
    live           BOOLEAN NOT NULL CHECK (live IN (0, 1)),
    PRIMARY KEY (booking_id, resource_id),
    CHECK (block_start_at < block_end_at AND block_end_at - block_start_at <= 172800000)
) WITHOUT ROWID;
CREATE INDEX booking_resources_by_time ON booking_resources (resource_id, block_start_at, block_end_at, live);

-- Counts the writes to each resource's holds, so a slot search that read them can keep what it
-- derived for as long as the count stays the same (app/booking/store.go, ScheduleVersion).
CREATE TABLE resource_holds_version (
    resource_id INTEGER PRIMARY KEY,
    n           INTEGER NOT NULL
);

-- The refusal: most holds of a resource at one instant of the new hold, with the new one, may
-- not exceed its quantity. The most are met at the new hold's start or at the start of another
-- hold inside it, so only those instants are counted.
-- +goose StatementBegin
CREATE TRIGGER booking_resources_capacity_insert BEFORE INSERT ON booking_resources
WHEN NEW.live
BEGIN
    SELECT RAISE(ABORT, 'resource_unavailable')
    WHERE (SELECT quantity FROM resources WHERE id = NEW.resource_id) <= (
        SELECT max(c) FROM (
            SELECT (SELECT count(*) FROM booking_resources h
                    WHERE h.resource_id = NEW.resource_id AND h.booking_id <> NEW.booking_id
                      AND h.block_start_at > p.t - 172800000 AND h.block_start_at <= p.t
                      AND h.block_end_at > p.t AND h.live) AS c
            FROM (SELECT NEW.block_start_at AS t
                  UNION SELECT h.block_start_at FROM booking_resources h
                  WHERE h.resource_id = NEW.resource_id AND h.booking_id <> NEW.booking_id
                    AND h.block_start_at > NEW.block_start_at AND h.block_start_at < NEW.block_end_at
                    AND h.live) AS p));
END;
-- +goose StatementEnd

-- A hold that comes alive or grows is checked the same way; one that keeps or shrinks its time
-- is not, so lowering a quantity never blocks changes to the bookings already holding it.
-- +goose StatementBegin
CREATE TRIGGER booking_resources_capacity_update BEFORE UPDATE ON booking_resources
WHEN NEW.live AND (NOT OLD.live OR NEW.resource_id <> OLD.resource_id
    OR NEW.block_start_at < OLD.block_start_at OR NEW.block_end_at > OLD.block_end_at)
BEGIN
    SELECT RAISE(ABORT, 'resource_unavailable')
    WHERE (SELECT quantity FROM resources WHERE id = NEW.resource_id) <= (
        SELECT max(c) FROM (
            SELECT (SELECT count(*) FROM booking_resources h
                    WHERE h.resource_id = NEW.resource_id AND h.booking_id <> NEW.booking_id
                      AND h.block_start_at > p.t - 172800000 AND h.block_start_at <= p.t
                      AND h.block_end_at > p.t AND h.live) AS c
            FROM (SELECT NEW.block_start_at AS t
                  UNION SELECT h.block_start_at FROM booking_resources h
                  WHERE h.resource_id = NEW.resource_id AND h.booking_id <> NEW.booking_id
                    AND h.block_start_at > NEW.block_start_at AND h.block_start_at < NEW.block_end_at
                    AND h.live) AS p));
END;
-- +goose StatementEnd

-- A booking holds what its service requires at its location.
-- +goose StatementBegin
CREATE TRIGGER bookings_hold_resources AFTER INSERT ON bookings
BEGIN
    INSERT INTO booking_resources (booking_id, resource_id, block_start_at, block_end_at, live)
    SELECT NEW.id, r.id, NEW.block_start_at, NEW.block_end_at, NEW.status_id <> 5 AND NEW.session_id IS NULL
    FROM service_resources sr JOIN resources r ON r.id = sr.resource_id
    WHERE sr.service_id = NEW.service_id AND r.location_id = NEW.location_id;
END;
-- +goose StatementEnd

-- Its holds follow its block and its status.
-- +goose StatementBegin
CREATE TRIGGER bookings_move_resources AFTER UPDATE OF block_start_at, block_end_at, status_id, session_id ON bookings
WHEN OLD.service_id = NEW.service_id AND OLD.location_id = NEW.location_id
BEGIN
    UPDATE booking_resources
    SET block_start_at = NEW.block_start_at, block_end_at = NEW.block_end_at,
        live = NEW.status_id <> 5 AND NEW.session_id IS NULL
    WHERE booking_id = NEW.id;
END;
-- +goose StatementEnd

-- Moved to another service or location, it holds what that one requires there.
-- +goose StatementBegin
CREATE TRIGGER bookings_rehold_resources AFTER UPDATE OF service_id, location_id ON bookings
WHEN OLD.service_id <> NEW.service_id OR OLD.location_id <> NEW.location_id
BEGIN
    DELETE FROM booking_resources WHERE booking_id = NEW.id;
    INSERT INTO booking_resources (booking_id, resource_id, block_start_at, block_end_at, live)
    SELECT NEW.id, r.id, NEW.block_start_at, NEW.block_end_at, NEW.status_id <> 5 AND NEW.session_id IS NULL
    FROM service_resources sr JOIN resources r ON r.id = sr.resource_id
    WHERE sr.service_id = NEW.service_id AND r.location_id = NEW.location_id;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER booking_resources_version_insert AFTER INSERT ON booking_resources
BEGIN
    INSERT INTO resource_holds_version (resource_id, n) VALUES (NEW.resource_id, 1)
    ON CONFLICT (resource_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER booking_resources_version_update AFTER UPDATE ON booking_resources
BEGIN
    INSERT INTO resource_holds_version (resource_id, n) VALUES (NEW.resource_id, 1)
    ON CONFLICT (resource_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER booking_resources_version_delete AFTER DELETE ON booking_resources
BEGIN
    INSERT INTO resource_holds_version (resource_id, n) VALUES (OLD.resource_id, 1)
    ON CONFLICT (resource_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- Resources and what services require are part of the catalog (00110_catalog_version.sql).
-- +goose StatementBegin
CREATE TRIGGER catalog_version_resources_insert AFTER INSERT ON resources
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_resources_update AFTER UPDATE ON resources
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_resources_delete AFTER DELETE ON resources
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_service_resources_insert AFTER INSERT ON service_resources
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_service_resources_delete AFTER DELETE ON service_resources
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER catalog_version_service_resources_delete;
DROP TRIGGER catalog_version_service_resources_insert;
DROP TRIGGER catalog_version_resources_delete;
DROP TRIGGER catalog_version_resources_update;
DROP TRIGGER catalog_version_resources_insert;
DROP TRIGGER booking_resources_version_delete;
DROP TRIGGER booking_resources_version_update;
DROP TRIGGER booking_resources_version_insert;
DROP TRIGGER bookings_rehold_resources;
DROP TRIGGER bookings_move_resources;
DROP TRIGGER bookings_hold_resources;
DROP TRIGGER booking_resources_capacity_update;
DROP TRIGGER booking_resources_capacity_insert;
DROP TABLE resource_holds_version;
DROP TABLE booking_resources;
DROP TABLE service_resources;
DROP TABLE resources;
