-- Conditional GET on /v3 (docs/api.md, "Conditional requests"): an ETag is built from change
-- counters, never from the body, so a poll that has nothing new costs one indexed read and no
-- body at all. The catalog already has its counter (catalog_version, 00110/00120); this table
-- holds the others, raised by triggers in the writing transaction itself, so no code path,
-- connection or process can change an answer without changing its tag:
--   bookings_location / bookings_provider / bookings_client / bookings_service (ref = that id):
--       any insert, change or delete of a booking with that reference, before or after the
--       change (a reschedule to another provider raises both), and a change of its sale;
--   booking (ref = booking id): any change or delete of that booking or of its sale;
--   clients (ref 0): any write to clients or their attribute values, and to the templates;
--   client (ref = client id): any change or delete of that client or of its attribute values;
--   custom_attributes (ref 0): any write to attribute templates, groups or options.
--   products (ref 0): any write to products.
-- Provider images join the catalog counter here: providers show them.
-- A missing row reads as 0. The counters only grow.

-- +goose Up
CREATE TABLE etag_versions (
    kind   TEXT    NOT NULL,
    ref_id INTEGER NOT NULL,
    n      INTEGER NOT NULL,
    PRIMARY KEY (kind, ref_id)
) WITHOUT ROWID;

-- A sale's status shows in its bookings; finding them must not scan the bookings.
CREATE INDEX bookings_sale ON bookings (sale_id) WHERE sale_id IS NOT NULL;

-- +goose StatementBegin
CREATE TRIGGER etag_bookings_insert AFTER INSERT ON bookings
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES
        ('bookings_location', NEW.location_id, 1), ('bookings_provider', NEW.provider_id, 1),
        ('bookings_client', NEW.client_id, 1), ('bookings_service', NEW.service_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_bookings_update AFTER UPDATE ON bookings
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES
        ('booking', OLD.id, 1),
        ('bookings_location', OLD.location_id, 1), ('bookings_provider', OLD.provider_id, 1),
        ('bookings_client', OLD.client_id, 1), ('bookings_service', OLD.service_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
    INSERT INTO etag_versions (kind, ref_id, n)
        SELECT 'bookings_location', NEW.location_id, 1 WHERE NEW.location_id <> OLD.location_id
        UNION ALL SELECT 'bookings_provider', NEW.provider_id, 1 WHERE NEW.provider_id <> OLD.provider_id
        UNION ALL SELECT 'bookings_client', NEW.client_id, 1 WHERE NEW.client_id <> OLD.client_id
        UNION ALL SELECT 'bookings_service', NEW.service_id, 1 WHERE NEW.service_id <> OLD.service_id
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_bookings_delete AFTER DELETE ON bookings
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES
        ('booking', OLD.id, 1),
        ('bookings_location', OLD.location_id, 1), ('bookings_provider', OLD.provider_id, 1),
        ('bookings_client', OLD.client_id, 1), ('bookings_service', OLD.service_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- A booking shows its sale's status and cart; neither moves the booking row.
-- +goose StatementBegin
CREATE TRIGGER etag_sales_update AFTER UPDATE OF status, cart_id ON sales
WHEN OLD.status IS NOT NEW.status OR OLD.cart_id IS NOT NEW.cart_id
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n)
        SELECT 'booking', id, 1 FROM bookings WHERE sale_id = NEW.id
        UNION ALL SELECT 'bookings_location', location_id, 1 FROM bookings WHERE sale_id = NEW.id
        UNION ALL SELECT 'bookings_provider', provider_id, 1 FROM bookings WHERE sale_id = NEW.id
        UNION ALL SELECT 'bookings_client', client_id, 1 FROM bookings WHERE sale_id = NEW.id
        UNION ALL SELECT 'bookings_service', service_id, 1 FROM bookings WHERE sale_id = NEW.id
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_clients_insert AFTER INSERT ON clients
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('clients', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_clients_update AFTER UPDATE ON clients
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('clients', 0, 1), ('client', OLD.id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_clients_delete AFTER DELETE ON clients
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('clients', 0, 1), ('client', OLD.id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_client_values_insert AFTER INSERT ON client_attribute_values
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('clients', 0, 1), ('client', NEW.client_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_client_values_update AFTER UPDATE ON client_attribute_values
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('clients', 0, 1), ('client', OLD.client_id, 1), ('client', NEW.client_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_client_values_delete AFTER DELETE ON client_attribute_values
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('clients', 0, 1), ('client', OLD.client_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_custom_attributes_insert AFTER INSERT ON custom_attributes
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('custom_attributes', 0, 1), ('clients', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_custom_attributes_update AFTER UPDATE ON custom_attributes
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('custom_attributes', 0, 1), ('clients', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_custom_attributes_delete AFTER DELETE ON custom_attributes
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('custom_attributes', 0, 1), ('clients', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_attribute_groups_insert AFTER INSERT ON attribute_groups
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('custom_attributes', 0, 1), ('clients', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_attribute_groups_update AFTER UPDATE ON attribute_groups
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('custom_attributes', 0, 1), ('clients', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_attribute_groups_delete AFTER DELETE ON attribute_groups
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('custom_attributes', 0, 1), ('clients', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_attribute_options_insert AFTER INSERT ON attribute_options
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('custom_attributes', 0, 1), ('clients', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_attribute_options_update AFTER UPDATE ON attribute_options
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('custom_attributes', 0, 1), ('clients', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_attribute_options_delete AFTER DELETE ON attribute_options
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('custom_attributes', 0, 1), ('clients', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- Providers show their images, which the catalog counter (00110) did not count.
-- +goose StatementBegin
CREATE TRIGGER catalog_version_provider_images_insert AFTER INSERT ON provider_images
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_provider_images_update AFTER UPDATE ON provider_images
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_provider_images_delete AFTER DELETE ON provider_images
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_products_insert AFTER INSERT ON products
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('products', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_products_update AFTER UPDATE ON products
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('products', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER etag_products_delete AFTER DELETE ON products
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('products', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd
