-- A service with processing time is two bookings of its visit (00551_visits.sql): its provider
-- is free between them, but what the service requires (the colour chair, the room) stays with
-- the client through the processing. The second part's holds therefore start hold_before_ms
-- earlier than its block, at the first part's end, so the resource is held for the whole
-- service and the provider is not. Visits booked before keep the holds they were made with.

-- +goose Up
ALTER TABLE visit_bookings ADD COLUMN hold_before_ms INTEGER NOT NULL DEFAULT 0
    CHECK (hold_before_ms BETWEEN 0 AND 86400000);

-- The part is written after its booking (which took its holds over its block): its holds reach
-- back over the processing. The capacity triggers of 00550_resources.sql check the longer holds.
-- +goose StatementBegin
CREATE TRIGGER visit_bookings_hold_processing AFTER INSERT ON visit_bookings
WHEN NEW.hold_before_ms > 0
BEGIN
    UPDATE booking_resources SET block_start_at = block_start_at - NEW.hold_before_ms
    WHERE booking_id = NEW.booking_id;
END;
-- +goose StatementEnd

-- A booking's holds follow its block and its status, reaching back over its processing.
DROP TRIGGER bookings_move_resources;
-- +goose StatementBegin
CREATE TRIGGER bookings_move_resources AFTER UPDATE OF block_start_at, block_end_at, status_id, session_id ON bookings
WHEN OLD.service_id = NEW.service_id AND OLD.location_id = NEW.location_id
BEGIN
    UPDATE booking_resources
    SET block_start_at = NEW.block_start_at
            - coalesce((SELECT vb.hold_before_ms FROM visit_bookings vb WHERE vb.booking_id = NEW.id), 0),
        block_end_at = NEW.block_end_at,
        live = NEW.status_id <> 5 AND NEW.session_id IS NULL
    WHERE booking_id = NEW.id;
END;
-- +goose StatementEnd

DROP TRIGGER bookings_rehold_resources;
-- +goose StatementBegin
CREATE TRIGGER bookings_rehold_resources AFTER UPDATE OF service_id, location_id ON bookings
WHEN OLD.service_id <> NEW.service_id OR OLD.location_id <> NEW.location_id
BEGIN
    DELETE FROM booking_resources WHERE booking_id = NEW.id;
    INSERT INTO booking_resources (booking_id, resource_id, block_start_at, block_end_at, live)
    SELECT NEW.id, r.id,
        NEW.block_start_at - coalesce((SELECT vb.hold_before_ms FROM visit_bookings vb WHERE vb.booking_id = NEW.id), 0),
        NEW.block_end_at, NEW.status_id <> 5 AND NEW.session_id IS NULL
    FROM service_resources sr JOIN resources r ON r.id = sr.resource_id
    WHERE sr.service_id = NEW.service_id AND r.location_id = NEW.location_id;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER bookings_rehold_resources;
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
DROP TRIGGER bookings_move_resources;
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
DROP TRIGGER visit_bookings_hold_processing;
ALTER TABLE visit_bookings DROP COLUMN hold_before_ms;
