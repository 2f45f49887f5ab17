-- Provider lists batch-load the images of a page of providers by provider_id.

-- +goose Up
CREATE INDEX provider_images_provider ON provider_images (provider_id, position);
