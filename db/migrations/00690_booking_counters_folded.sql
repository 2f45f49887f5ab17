-- A booking's insert kept two sets of counters over the same four keys: booking_counts (how many
-- bookings of a location, client, service and provider, per status: total_records) and the
-- change counters of etag_versions (bookings_location, bookings_provider, bookings_client,
-- bookings_service: list ETags, the schedules' busy-time version, calendar feeds). That is eight
-- upserts for every new booking inside the single writer. The change counters now live in
-- booking_counts too, as a column: the version of the bookings of one location (client, service,
-- provider) is the sum of `changes` over its rows, one per status. Every write that changed the
-- old counter raises `changes` on at least one of those rows and none lowers it, so the sum only
-- grows and moves with every change, as the counter did; a new booking writes four upserts.
--
-- The counters carried over start where they were (rows of status 0, which count no booking),
-- so no ETag a client holds can come round again. The per-booking counters ('booking') stay in
-- etag_versions.
-- +goose Up
-- +goose StatementBegin
ALTER TABLE booking_counts ADD COLUMN changes INTEGER NOT NULL DEFAULT 0;
-- +goose StatementEnd
-- +goose StatementBegin
INSERT INTO booking_counts (kind, ref_id, status_id, n, changes)
SELECT substr(kind, 10), ref_id, 0, 0, n FROM etag_versions
WHERE kind IN ('bookings_location', 'bookings_client', 'bookings_service', 'bookings_provider');
-- +goose StatementEnd
-- +goose StatementBegin
DELETE FROM etag_versions
WHERE kind IN ('bookings_location', 'bookings_client', 'bookings_service', 'bookings_provider');
-- +goose StatementEnd

-- +goose StatementBegin
DROP TRIGGER etag_bookings_insert;
-- +goose StatementEnd
-- +goose StatementBegin
DROP TRIGGER booking_counts_insert;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER booking_counts_insert AFTER INSERT ON bookings
BEGIN
    INSERT INTO booking_counts (kind, ref_id, status_id, n, changes) VALUES
        ('location', NEW.location_id, NEW.status_id, 1, 1), ('client', NEW.client_id, NEW.status_id, 1, 1),
        ('service', NEW.service_id, NEW.status_id, 1, 1), ('provider', NEW.provider_id, NEW.status_id, 1, 1)
        ON CONFLICT (kind, ref_id, status_id) DO UPDATE SET n = n + 1, changes = changes + 1;
END;
-- +goose StatementEnd

-- Any change of a booking changes the lists it was in (its old location, client, service and
-- provider); a move or a new status also changes the lists it is in now (booking_counts_move
-- raises those rows' changes with their counts).
-- +goose StatementBegin
DROP TRIGGER etag_bookings_update;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER etag_bookings_update AFTER UPDATE ON bookings
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('booking', OLD.id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
    INSERT INTO booking_counts (kind, ref_id, status_id, n, changes) VALUES
        ('location', OLD.location_id, OLD.status_id, 0, 1), ('client', OLD.client_id, OLD.status_id, 0, 1),
        ('service', OLD.service_id, OLD.status_id, 0, 1), ('provider', OLD.provider_id, OLD.status_id, 0, 1)
        ON CONFLICT (kind, ref_id, status_id) DO UPDATE SET changes = changes + 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
DROP TRIGGER booking_counts_move;
-- +goose StatementEnd
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
    INSERT INTO booking_counts (kind, ref_id, status_id, n, changes)
        SELECT 'location', NEW.location_id, NEW.status_id, 1, 1 WHERE OLD.status_id <> NEW.status_id OR OLD.location_id <> NEW.location_id
        UNION ALL SELECT 'client', NEW.client_id, NEW.status_id, 1, 1 WHERE OLD.status_id <> NEW.status_id OR OLD.client_id <> NEW.client_id
        UNION ALL SELECT 'service', NEW.service_id, NEW.status_id, 1, 1 WHERE OLD.status_id <> NEW.status_id OR OLD.service_id <> NEW.service_id
        UNION ALL SELECT 'provider', NEW.provider_id, NEW.status_id, 1, 1 WHERE OLD.status_id <> NEW.status_id OR OLD.provider_id <> NEW.provider_id
        ON CONFLICT (kind, ref_id, status_id) DO UPDATE SET n = n + 1, changes = changes + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
DROP TRIGGER etag_bookings_delete;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER etag_bookings_delete AFTER DELETE ON bookings
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('booking', OLD.id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
DROP TRIGGER booking_counts_delete;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER booking_counts_delete AFTER DELETE ON bookings
BEGIN
    UPDATE booking_counts SET n = n - 1, changes = changes + 1 WHERE (kind, ref_id, status_id) IN (VALUES
        ('location', OLD.location_id, OLD.status_id), ('client', OLD.client_id, OLD.status_id),
        ('service', OLD.service_id, OLD.status_id), ('provider', OLD.provider_id, OLD.status_id));
END;
-- +goose StatementEnd

-- A sale's status shows on its bookings.
-- +goose StatementBegin
DROP TRIGGER etag_sales_update;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER etag_sales_update AFTER UPDATE OF status, cart_id ON sales
WHEN OLD.status IS NOT NEW.status OR OLD.cart_id IS NOT NEW.cart_id
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n)
        SELECT 'booking', id, 1 FROM bookings WHERE sale_id = NEW.id
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
    UPDATE booking_counts SET changes = changes + 1 WHERE (kind, ref_id, status_id) IN (
        SELECT 'location', location_id, status_id FROM bookings WHERE sale_id = NEW.id
        UNION ALL SELECT 'client', client_id, status_id FROM bookings WHERE sale_id = NEW.id
        UNION ALL SELECT 'service', service_id, status_id FROM bookings WHERE sale_id = NEW.id
        UNION ALL SELECT 'provider', provider_id, status_id FROM bookings WHERE sale_id = NEW.id);
END;
-- +goose StatementEnd

-- +goose Down
SELECT RAISE(ABORT, 'booking_counters_folded cannot be undone: restore a backup from before the upgrade');
