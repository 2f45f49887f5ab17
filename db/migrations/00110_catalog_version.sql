-- The catalog is what the booking rules read besides bookings and time off: the company's
-- policy, locations with their hours and closures, services, providers with their locations,
-- services, shifts and breaks, and the booking statuses. It changes when an owner edits it, a
-- few times a day, while every slot query and booking reads it (nine statements each). These
-- triggers count every write to those tables, whichever connection, process or code path makes
-- it, so a value derived from the catalog stays valid for as long as the count is unchanged
-- (db/catalog.go): reading the count is one statement.

-- +goose Up
CREATE TABLE catalog_version (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n  INTEGER NOT NULL
);
INSERT INTO catalog_version (id, n) VALUES (1, 0);

-- +goose StatementBegin
CREATE TRIGGER catalog_version_company_insert AFTER INSERT ON company
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_company_update AFTER UPDATE ON company
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_company_delete AFTER DELETE ON company
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_locations_insert AFTER INSERT ON locations
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_locations_update AFTER UPDATE ON locations
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_locations_delete AFTER DELETE ON locations
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_location_hours_insert AFTER INSERT ON location_hours
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_location_hours_update AFTER UPDATE ON location_hours
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_location_hours_delete AFTER DELETE ON location_hours
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_location_closures_insert AFTER INSERT ON location_closures
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_location_closures_update AFTER UPDATE ON location_closures
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_location_closures_delete AFTER DELETE ON location_closures
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_services_insert AFTER INSERT ON services
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_services_update AFTER UPDATE ON services
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_services_delete AFTER DELETE ON services
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_providers_insert AFTER INSERT ON providers
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_providers_update AFTER UPDATE ON providers
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_providers_delete AFTER DELETE ON providers
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_provider_locations_insert AFTER INSERT ON provider_locations
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_provider_locations_update AFTER UPDATE ON provider_locations
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_provider_locations_delete AFTER DELETE ON provider_locations
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_service_providers_insert AFTER INSERT ON service_providers
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_service_providers_update AFTER UPDATE ON service_providers
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_service_providers_delete AFTER DELETE ON service_providers
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_provider_hours_insert AFTER INSERT ON provider_hours
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_provider_hours_update AFTER UPDATE ON provider_hours
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_provider_hours_delete AFTER DELETE ON provider_hours
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_provider_breaks_insert AFTER INSERT ON provider_breaks
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_provider_breaks_update AFTER UPDATE ON provider_breaks
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_provider_breaks_delete AFTER DELETE ON provider_breaks
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_booking_statuses_insert AFTER INSERT ON booking_statuses
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_booking_statuses_update AFTER UPDATE ON booking_statuses
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_booking_statuses_delete AFTER DELETE ON booking_statuses
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
