-- The public booking site (app/site, docs/booking-site.md): the owner's settings, which
-- locations and custom attributes it offers, the bookings it made and the personal manage links
-- customers change them with.
--
-- Settings live in their own one-row table, not in company: they belong to this feature.
-- The site is off until the owner switches it on (a fresh install takes no bookings from the
-- internet by surprise); `serve --demo` switches it on for the demo business.

-- +goose Up
CREATE TABLE site_settings (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    enabled       BOOLEAN NOT NULL DEFAULT 0 CHECK (enabled IN (0, 1)),
    display_name  TEXT    NOT NULL DEFAULT '' CHECK (length(display_name) <= 100),
    -- The logo is fetched from logo_url when the owner saves it and served from our own origin
    -- (/book/logo), so no public page ever makes a request to another site.
    logo_url      TEXT    NOT NULL DEFAULT '' CHECK (length(logo_url) <= 2048),
    logo_type     TEXT    NOT NULL DEFAULT ''
        CHECK (logo_type IN ('', 'image/png', 'image/jpeg', 'image/gif', 'image/webp')),
    logo          BLOB    CHECK (logo IS NULL OR length(logo) <= 262144),
    accent        TEXT    NOT NULL DEFAULT '#1f5fbf'
        CHECK (accent GLOB '#[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
    policy_text   TEXT    NOT NULL DEFAULT '' CHECK (length(policy_text) <= 2000),
    -- Origins (scheme://host[:port]) that may frame the site, one per line: CSP frame-ancestors.
    frame_origins TEXT    NOT NULL DEFAULT '' CHECK (length(frame_origins) <= 2000),
    -- A random name for this installation, the domain part of .ics UIDs: stable across changes
    -- of the public URL, so a calendar never sees one booking as two events.
    calendar_id   TEXT    NOT NULL CHECK (length(calendar_id) = 32),
    updated_at    INTEGER NOT NULL DEFAULT 0,
    CHECK ((logo IS NULL) = (logo_type = ''))
);
INSERT INTO site_settings (id, calendar_id) VALUES (1, lower(hex(randomblob(16))));

-- A location is on the site unless a row here says otherwise (new locations are offered).
CREATE TABLE site_locations (
    location_id INTEGER PRIMARY KEY REFERENCES locations (id) ON DELETE CASCADE,
    enabled     BOOLEAN NOT NULL CHECK (enabled IN (0, 1))
);

-- The custom attributes the booking form asks; mandatory ones among them must be answered.
CREATE TABLE site_attributes (
    attribute_id INTEGER PRIMARY KEY REFERENCES custom_attributes (id) ON DELETE CASCADE
);

-- Bookings the site made. nonce_hash is the SHA-256 of the random nonce of the form that made
-- it: a form submitted twice finds its booking here instead of booking again (UNIQUE is the last
-- word when two submits race).
CREATE TABLE site_bookings (
    booking_id   INTEGER PRIMARY KEY REFERENCES bookings (id),
    nonce_hash   BLOB    NOT NULL UNIQUE CHECK (length(nonce_hash) = 32),
    any_provider BOOLEAN NOT NULL CHECK (any_provider IN (0, 1)),
    created_at   INTEGER NOT NULL
);

-- Personal manage links (app/managelink): only the SHA-256 of the token is kept. A link is valid
-- while its booking has not ended more than a day ago (see app/managelink), so it follows the
-- booking through reschedules. A booking may have several (a repeated submit, each email).
CREATE TABLE manage_links (
    id         INTEGER PRIMARY KEY,
    booking_id INTEGER NOT NULL REFERENCES bookings (id),
    token_hash BLOB    NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    created_at INTEGER NOT NULL
);
CREATE INDEX manage_links_booking ON manage_links (booking_id);

-- Public pages keep what they derive from the settings and the catalog in the catalog cache
-- (db/catalog.go): writes to these tables and to the custom attribute templates the booking form
-- shows raise the catalog version like the tables of 00110 and 00120.
-- +goose StatementBegin
CREATE TRIGGER catalog_version_site_settings_update AFTER UPDATE ON site_settings
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_site_locations_insert AFTER INSERT ON site_locations
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_site_locations_update AFTER UPDATE ON site_locations
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_site_locations_delete AFTER DELETE ON site_locations
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_site_attributes_insert AFTER INSERT ON site_attributes
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_site_attributes_delete AFTER DELETE ON site_attributes
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_custom_attributes_insert AFTER INSERT ON custom_attributes
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_custom_attributes_update AFTER UPDATE ON custom_attributes
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_custom_attributes_delete AFTER DELETE ON custom_attributes
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_attribute_options_insert AFTER INSERT ON attribute_options
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_attribute_options_update AFTER UPDATE ON attribute_options
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER catalog_version_attribute_options_delete AFTER DELETE ON attribute_options
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
