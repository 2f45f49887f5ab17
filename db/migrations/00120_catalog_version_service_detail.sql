-- GET /v3/services/{id} is answered from the catalog cache (db/catalog.go) while the catalog
-- version is unchanged. Besides the tables 00110 counts it shows the service's category name
-- and images, so writes to categories and service_images raise the version too.

-- +goose Up
-- +goose StatementBegin
CREATE TRIGGER catalog_version_categories_insert AFTER INSERT ON categories
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_categories_update AFTER UPDATE ON categories
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_categories_delete AFTER DELETE ON categories
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_service_images_insert AFTER INSERT ON service_images
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_service_images_update AFTER UPDATE ON service_images
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_service_images_delete AFTER DELETE ON service_images
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

