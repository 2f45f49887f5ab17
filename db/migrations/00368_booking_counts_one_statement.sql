-- booking_counts (00113) is kept by triggers inside every booking write, and the writer is the
-- one thing every booking waits for, so they should cost as little as possible. Two things made
-- them dear: each counter was its own statement (four on an insert, eight on a cancel), and the
-- table's CHECK was an IN list, which SQLite evaluates through an ephemeral index it builds
-- again for every statement that writes a row. Now the CHECK is an OR chain (as in messages,
-- 00290) and each trigger writes all its counters in one statement. The counts are the same;
-- only the number of statements changes.

-- +goose Up
DROP TRIGGER booking_counts_insert;
DROP TRIGGER booking_counts_delete;
DROP TRIGGER booking_counts_move_location;
DROP TRIGGER booking_counts_move_client;
DROP TRIGGER booking_counts_move_service;
DROP TRIGGER booking_counts_move_provider;

CREATE TABLE booking_counts_new (
    kind      TEXT    NOT NULL CHECK (kind = 'location' OR kind = 'client' OR kind = 'service' OR kind = 'provider'),
    ref_id    INTEGER NOT NULL,
    status_id INTEGER NOT NULL,
    n         INTEGER NOT NULL,
    PRIMARY KEY (kind, ref_id, status_id)
) WITHOUT ROWID;
INSERT INTO booking_counts_new (kind, ref_id, status_id, n) SELECT kind, ref_id, status_id, n FROM booking_counts;
DROP TABLE booking_counts;
ALTER TABLE booking_counts_new RENAME TO booking_counts;

-- +goose StatementBegin
CREATE TRIGGER booking_counts_insert AFTER INSERT ON bookings
BEGIN
    INSERT INTO booking_counts (kind, ref_id, status_id, n) VALUES
        ('location', NEW.location_id, NEW.status_id, 1), ('client', NEW.client_id, NEW.status_id, 1),
        ('service', NEW.service_id, NEW.status_id, 1), ('provider', NEW.provider_id, NEW.status_id, 1)
        ON CONFLICT (kind, ref_id, status_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER booking_counts_delete AFTER DELETE ON bookings
BEGIN
    UPDATE booking_counts SET n = n - 1 WHERE (kind, ref_id, status_id) IN (VALUES
        ('location', OLD.location_id, OLD.status_id), ('client', OLD.client_id, OLD.status_id),
        ('service', OLD.service_id, OLD.status_id), ('provider', OLD.provider_id, OLD.status_id));
END;
-- +goose StatementEnd

-- A change of status moves all four counts; a change of one reference moves that kind's count.
-- +goose StatementBegin
CREATE TRIGGER booking_counts_move AFTER UPDATE OF location_id, client_id, service_id, provider_id, status_id ON bookings
WHEN OLD.status_id <> NEW.status_id OR OLD.location_id <> NEW.location_id OR OLD.client_id <> NEW.client_id
    OR OLD.service_id <> NEW.service_id OR OLD.provider_id <> NEW.provider_id
BEGIN
    UPDATE booking_counts SET n = n - 1 WHERE (kind, ref_id, status_id) IN (
        SELECT 'location', OLD.location_id, OLD.status_id WHERE OLD.status_id <> NEW.status_id OR OLD.location_id <> NEW.location_id
        UNION ALL SELECT 'client', OLD.client_id, OLD.status_id WHERE OLD.status_id <> NEW.status_id OR OLD.client_id <> NEW.client_id
        UNION ALL SELECT 'service', OLD.service_id, OLD.status_id WHERE OLD.status_id <> NEW.status_id OR OLD.service_id <> NEW.service_id
        UNION ALL SELECT 'provider', OLD.provider_id, OLD.status_id WHERE OLD.status_id <> NEW.status_id OR OLD.provider_id <> NEW.provider_id);
    INSERT INTO booking_counts (kind, ref_id, status_id, n)
        SELECT 'location', NEW.location_id, NEW.status_id, 1 WHERE OLD.status_id <> NEW.status_id OR OLD.location_id <> NEW.location_id
        UNION ALL SELECT 'client', NEW.client_id, NEW.status_id, 1 WHERE OLD.status_id <> NEW.status_id OR OLD.client_id <> NEW.client_id
        UNION ALL SELECT 'service', NEW.service_id, NEW.status_id, 1 WHERE OLD.status_id <> NEW.status_id OR OLD.service_id <> NEW.service_id
        UNION ALL SELECT 'provider', NEW.provider_id, NEW.status_id, 1 WHERE OLD.status_id <> NEW.status_id OR OLD.provider_id <> NEW.provider_id
        ON CONFLICT (kind, ref_id, status_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER booking_counts_insert;
DROP TRIGGER booking_counts_delete;
DROP TRIGGER booking_counts_move;

CREATE TABLE booking_counts_old (
    kind      TEXT    NOT NULL CHECK (kind IN ('location', 'client', 'service', 'provider')),
    ref_id    INTEGER NOT NULL,
    status_id INTEGER NOT NULL,
    n         INTEGER NOT NULL,
    PRIMARY KEY (kind, ref_id, status_id)
) WITHOUT ROWID;
INSERT INTO booking_counts_old (kind, ref_id, status_id, n) SELECT kind, ref_id, status_id, n FROM booking_counts;
DROP TABLE booking_counts;
ALTER TABLE booking_counts_old RENAME TO booking_counts;

-- +goose StatementBegin
CREATE TRIGGER booking_counts_insert AFTER INSERT ON bookings
BEGIN
    INSERT INTO booking_counts (kind, ref_id, status_id, n) VALUES ('location', NEW.location_id, NEW.status_id, 1)
        ON CONFLICT (kind, ref_id, status_id) DO UPDATE SET n = n + 1;
    INSERT INTO booking_counts (kind, ref_id, status_id, n) VALUES ('client', NEW.client_id, NEW.status_id, 1)
        ON CONFLICT (kind, ref_id, status_id) DO UPDATE SET n = n + 1;
    INSERT INTO booking_counts (kind, ref_id, status_id, n) VALUES ('service', NEW.service_id, NEW.status_id, 1)
        ON CONFLICT (kind, ref_id, status_id) DO UPDATE SET n = n + 1;
    INSERT INTO booking_counts (kind, ref_id, status_id, n) VALUES ('provider', NEW.provider_id, NEW.status_id, 1)
        ON CONFLICT (kind, ref_id, status_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER booking_counts_delete AFTER DELETE ON bookings
BEGIN
    UPDATE booking_counts SET n = n - 1 WHERE kind = 'location' AND ref_id = OLD.location_id AND status_id = OLD.status_id;
    UPDATE booking_counts SET n = n - 1 WHERE kind = 'client' AND ref_id = OLD.client_id AND status_id = OLD.status_id;
    UPDATE booking_counts SET n = n - 1 WHERE kind = 'service' AND ref_id = OLD.service_id AND status_id = OLD.status_id;
    UPDATE booking_counts SET n = n - 1 WHERE kind = 'provider' AND ref_id = OLD.provider_id AND status_id = OLD.status_id;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER booking_counts_move_location AFTER UPDATE OF location_id, status_id ON bookings
WHEN OLD.location_id <> NEW.location_id OR OLD.status_id <> NEW.status_id
BEGIN
    UPDATE booking_counts SET n = n - 1 WHERE kind = 'location' AND ref_id = OLD.location_id AND status_id = OLD.status_id;
    INSERT INTO booking_counts (kind, ref_id, status_id, n) VALUES ('location', NEW.location_id, NEW.status_id, 1)
        ON CONFLICT (kind, ref_id, status_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER booking_counts_move_client AFTER UPDATE OF client_id, status_id ON bookings
WHEN OLD.client_id <> NEW.client_id OR OLD.status_id <> NEW.status_id
BEGIN
    UPDATE booking_counts SET n = n - 1 WHERE kind = 'client' AND ref_id = OLD.client_id AND status_id = OLD.status_id;
    INSERT INTO booking_counts (kind, ref_id, status_id, n) VALUES ('client', NEW.client_id, NEW.status_id, 1)
        ON CONFLICT (kind, ref_id, status_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER booking_counts_move_service AFTER UPDATE OF service_id, status_id ON bookings
WHEN OLD.service_id <> NEW.service_id OR OLD.status_id <> NEW.status_id
BEGIN
    UPDATE booking_counts SET n = n - 1 WHERE kind = 'service' AND ref_id = OLD.service_id AND status_id = OLD.status_id;
    INSERT INTO booking_counts (kind, ref_id, status_id, n) VALUES ('service', NEW.service_id, NEW.status_id, 1)
        ON CONFLICT (kind, ref_id, status_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER booking_counts_move_provider AFTER UPDATE OF provider_id, status_id ON bookings
WHEN OLD.provider_id <> NEW.provider_id OR OLD.status_id <> NEW.status_id
BEGIN
    UPDATE booking_counts SET n = n - 1 WHERE kind = 'provider' AND ref_id = OLD.provider_id AND status_id = OLD.status_id;
    INSERT INTO booking_counts (kind, ref_id, status_id, n) VALUES ('provider', NEW.provider_id, NEW.status_id, 1)
        ON CONFLICT (kind, ref_id, status_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd
