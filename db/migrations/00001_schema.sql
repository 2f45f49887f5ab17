-- The whole frontdesk domain (SPEC §3–§7). Conventions:
--   * instants are INTEGER Unix milliseconds in UTC, columns named *_at;
--   * money is INTEGER hundredths of the currency unit (*_cents), shown as decimal strings;
--   * percentages are INTEGER hundredths of a percent (*_bp, 1550 = 15.5 %);
--   * wall-clock times of day are INTEGER minutes since local midnight (*_min, 0..1440);
--   * local dates are TEXT 'YYYY-MM-DD'; booleans are INTEGER 0/1 with CHECKs;
--   * enums are TEXT with CHECK (… IN (…)) mirrored by Go constants.

-- +goose Up

-- The installation's one business and its booking policies.
CREATE TABLE company (
    id                       INTEGER PRIMARY KEY,
    name                     TEXT    NOT NULL,
    currency                 TEXT    NOT NULL DEFAULT 'USD',
    slot_step_min            INTEGER NOT NULL DEFAULT 15 CHECK (slot_step_min BETWEEN 5 AND 240),
    min_notice_min           INTEGER NOT NULL DEFAULT 0 CHECK (min_notice_min >= 0),
    max_advance_days         INTEGER NOT NULL DEFAULT 90 CHECK (max_advance_days >= 0),
    can_edit                 BOOLEAN NOT NULL DEFAULT 1 CHECK (can_edit IN (0, 1)),
    can_cancel               BOOLEAN NOT NULL DEFAULT 1 CHECK (can_cancel IN (0, 1)),
    edit_lock_min            INTEGER NOT NULL DEFAULT 0 CHECK (edit_lock_min >= 0),
    max_changes              INTEGER NOT NULL DEFAULT 0 CHECK (max_changes >= 0),
    online_payments          BOOLEAN NOT NULL DEFAULT 0 CHECK (online_payments IN (0, 1)),
    payment_expiry_min       INTEGER NOT NULL DEFAULT 15 CHECK (payment_expiry_min > 0),
    created_at               INTEGER NOT NULL,
    updated_at               INTEGER NOT NULL
);

CREATE TABLE countries (
    id   INTEGER PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL
);

CREATE TABLE locations (
    id           INTEGER PRIMARY KEY,
    uuid         TEXT    NOT NULL UNIQUE,
    name         TEXT    NOT NULL,
    active       BOOLEAN NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    address_json TEXT    NOT NULL DEFAULT '{}',
    phone        TEXT,
    email        TEXT    NOT NULL DEFAULT '',
    latitude     REAL,
    longitude    REAL,
    timezone     TEXT    NOT NULL,
    image_url    TEXT,
    image_map    TEXT,
    country_id   INTEGER NOT NULL REFERENCES countries (id),
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
);

CREATE TABLE location_hours (
    id          INTEGER PRIMARY KEY,
    location_id INTEGER NOT NULL REFERENCES locations (id) ON DELETE CASCADE,
    day_id      INTEGER NOT NULL CHECK (day_id BETWEEN 0 AND 6),
    open_min    INTEGER NOT NULL CHECK (open_min BETWEEN 0 AND 1439),
    close_min   INTEGER NOT NULL CHECK (close_min BETWEEN 1 AND 1440),
    CHECK (open_min < close_min)
);
CREATE INDEX location_hours_location ON location_hours (location_id, day_id);

-- Whole local days a location is closed (holidays).
CREATE TABLE location_closures (
    id          INTEGER PRIMARY KEY,
    location_id INTEGER NOT NULL REFERENCES locations (id) ON DELETE CASCADE,
    date        TEXT    NOT NULL,
    reason      TEXT    NOT NULL DEFAULT '',
    UNIQUE (location_id, date)
);

CREATE TABLE categories (
    id         INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    sort_order INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX categories_order ON categories (sort_order, id);

-- capacity > 1 makes a service a class; session_count > 1 a session pack (the computed /v3 type).
CREATE TABLE services (
    id                    INTEGER PRIMARY KEY,
    uuid                  TEXT    NOT NULL UNIQUE,
    name                  TEXT    NOT NULL,
    active                BOOLEAN NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    price_cents           INTEGER NOT NULL DEFAULT 0 CHECK (price_cents >= 0),
    has_discount          BOOLEAN NOT NULL DEFAULT 0 CHECK (has_discount IN (0, 1)),
    discount_bp           INTEGER CHECK (discount_bp BETWEEN 0 AND 10000),
    duration_min          INTEGER NOT NULL CHECK (duration_min BETWEEN 5 AND 1439),
    buffer_before_min     INTEGER NOT NULL DEFAULT 0 CHECK (buffer_before_min BETWEEN 0 AND 240),
    buffer_after_min      INTEGER NOT NULL DEFAULT 0 CHECK (buffer_after_min BETWEEN 0 AND 240),
    description           TEXT,
    category_id           INTEGER REFERENCES categories (id) ON DELETE SET NULL,
    capacity              INTEGER NOT NULL DEFAULT 1 CHECK (capacity >= 1),
    session_count         INTEGER NOT NULL DEFAULT 1 CHECK (session_count >= 1),
    online_booking        BOOLEAN NOT NULL DEFAULT 1 CHECK (online_booking IN (0, 1)),
    online_payment_mode   TEXT    NOT NULL DEFAULT 'NOT_AVAILABLE'
        CHECK (online_payment_mode IN ('NOT_AVAILABLE', 'OPTIONAL', 'MANDATORY_PARTIAL', 'MANDATORY_TOTAL')),
    online_payment_cents  INTEGER CHECK (online_payment_cents >= 0),
    outcall               BOOLEAN NOT NULL DEFAULT 0 CHECK (outcall IN (0, 1)),
    is_video              BOOLEAN NOT NULL DEFAULT 0 CHECK (is_video IN (0, 1)),
    location_id           INTEGER REFERENCES locations (id) ON DELETE SET NULL,
    favorite              BOOLEAN NOT NULL DEFAULT 0 CHECK (favorite IN (0, 1)),
    keywords_json         TEXT    NOT NULL DEFAULT '[]',
    created_at            INTEGER NOT NULL,
    updated_at            INTEGER NOT NULL
);

CREATE TABLE service_images (
    id         INTEGER PRIMARY KEY,
    service_id INTEGER NOT NULL REFERENCES services (id) ON DELETE CASCADE,
    url        TEXT    NOT NULL,
    position   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX service_images_service ON service_images (service_id, position);

CREATE TABLE providers (
    id             INTEGER PRIMARY KEY,
    public_name    TEXT    NOT NULL,
    active         BOOLEAN NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    online_booking BOOLEAN NOT NULL DEFAULT 1 CHECK (online_booking IN (0, 1)),
    -- The provider's main location, shown as Provider.location_id; all of them are in provider_locations.
    location_id    INTEGER NOT NULL REFERENCES locations (id),
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL
);

CREATE TABLE provider_images (
    id            INTEGER PRIMARY KEY,
    provider_id   INTEGER NOT NULL REFERENCES providers (id) ON DELETE CASCADE,
    url           TEXT    NOT NULL,
    thumbnail_url TEXT    NOT NULL,
    position      INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE provider_locations (
    provider_id INTEGER NOT NULL REFERENCES providers (id) ON DELETE CASCADE,
    location_id INTEGER NOT NULL REFERENCES locations (id) ON DELETE CASCADE,
    PRIMARY KEY (provider_id, location_id)
) WITHOUT ROWID;
CREATE INDEX provider_locations_location ON provider_locations (location_id, provider_id);

CREATE TABLE service_providers (
    service_id  INTEGER NOT NULL REFERENCES services (id) ON DELETE CASCADE,
    provider_id INTEGER NOT NULL REFERENCES providers (id) ON DELETE CASCADE,
    PRIMARY KEY (service_id, provider_id)
) WITHOUT ROWID;
CREATE INDEX service_providers_provider ON service_providers (provider_id, service_id);

-- Weekly working hours of a provider at one location; breaks hang off a shift.
CREATE TABLE provider_hours (
    id          INTEGER PRIMARY KEY,
    provider_id INTEGER NOT NULL REFERENCES providers (id) ON DELETE CASCADE,
    location_id INTEGER NOT NULL REFERENCES locations (id) ON DELETE CASCADE,
    day_id      INTEGER NOT NULL CHECK (day_id BETWEEN 0 AND 6),
    open_min    INTEGER NOT NULL CHECK (open_min BETWEEN 0 AND 1439),
    close_min   INTEGER NOT NULL CHECK (close_min BETWEEN 1 AND 1440),
    CHECK (open_min < close_min)
);
CREATE INDEX provider_hours_provider ON provider_hours (provider_id, location_id, day_id);

CREATE TABLE provider_breaks (
    id        INTEGER PRIMARY KEY,
    hours_id  INTEGER NOT NULL REFERENCES provider_hours (id) ON DELETE CASCADE,
    start_min INTEGER NOT NULL CHECK (start_min BETWEEN 0 AND 1439),
    end_min   INTEGER NOT NULL CHECK (end_min BETWEEN 1 AND 1440),
    CHECK (start_min < end_min)
);
CREATE INDEX provider_breaks_hours ON provider_breaks (hours_id);

-- Absences (vacation, sick day, a blocked afternoon) as absolute instants.
CREATE TABLE provider_time_off (
    id          INTEGER PRIMARY KEY,
    provider_id INTEGER NOT NULL REFERENCES providers (id) ON DELETE CASCADE,
    starts_at   INTEGER NOT NULL,
    ends_at     INTEGER NOT NULL,
    reason      TEXT    NOT NULL DEFAULT '',
    CHECK (starts_at < ends_at)
);
CREATE INDEX provider_time_off_provider ON provider_time_off (provider_id, starts_at);

CREATE TABLE attribute_groups (
    id         INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    sort_order INTEGER NOT NULL DEFAULT 0
);

-- Custom attribute templates (company-level definitions of client fields).
CREATE TABLE custom_attributes (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,
    datatype    TEXT    NOT NULL
        CHECK (datatype IN ('boolean', 'categoric', 'date', 'datetime', 'file', 'float', 'integer', 'text', 'textarea')),
    sort_order  INTEGER NOT NULL DEFAULT 0,
    description TEXT,
    mandatory   BOOLEAN NOT NULL DEFAULT 0 CHECK (mandatory IN (0, 1)),
    group_id    INTEGER REFERENCES attribute_groups (id) ON DELETE SET NULL
);

CREATE TABLE attribute_options (
    id           INTEGER PRIMARY KEY,
    attribute_id INTEGER NOT NULL REFERENCES custom_attributes (id) ON DELETE CASCADE,
    label        TEXT    NOT NULL,
    sort_order   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX attribute_options_attribute ON attribute_options (attribute_id, sort_order);

CREATE TABLE clients (
    id                    INTEGER PRIMARY KEY,
    first_name            TEXT    NOT NULL,
    last_name             TEXT,
    email                 TEXT,
    phone                 TEXT,
    second_phone          TEXT,
    identification_number TEXT,
    address               TEXT,
    district              TEXT,
    city                  TEXT,
    region                TEXT    NOT NULL DEFAULT '',
    age                   INTEGER,
    gender                INTEGER NOT NULL DEFAULT 0 CHECK (gender IN (0, 1, 2)),
    birth_day             INTEGER CHECK (birth_day BETWEEN 1 AND 31),
    birth_month           INTEGER CHECK (birth_month BETWEEN 1 AND 12),
    birth_year            INTEGER,
    record_number         TEXT UNIQUE,
    photo                 TEXT,
    nationality           TEXT,
    phone_country         TEXT,
    active                BOOLEAN NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    created_at            INTEGER NOT NULL,
    updated_at            INTEGER NOT NULL
);
CREATE INDEX clients_email ON clients (email);
CREATE INDEX clients_phone ON clients (phone);

CREATE TABLE client_attribute_values (
    client_id    INTEGER NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    attribute_id INTEGER NOT NULL REFERENCES custom_attributes (id) ON DELETE CASCADE,
    value        TEXT,
    PRIMARY KEY (client_id, attribute_id)
) WITHOUT ROWID;

CREATE TABLE booking_statuses (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL,
    internal_name TEXT NOT NULL UNIQUE,
    description   TEXT
);
INSERT INTO booking_statuses (id, name, internal_name, description) VALUES
    (1, 'Confirmed', 'confirmed', 'The client confirmed the appointment.'),
    (2, 'Reserved', 'reserved', 'Held for the client, for example while a payment request is pending.'),
    (3, 'Attended', 'attended', 'The client came.'),
    (4, 'No show', 'no_show', 'The client did not come.'),
    (5, 'Cancelled', 'cancelled', 'Cancelled; the time is free again.');

CREATE TABLE payment_methods (
    id   INTEGER PRIMARY KEY,
    type TEXT NOT NULL,
    name TEXT NOT NULL UNIQUE
);
INSERT INTO payment_methods (id, type, name) VALUES
    (1, 'CompanyPaymentMethod', 'Cash'),
    (2, 'CompanyPaymentMethod', 'Card terminal'),
    (3, 'CompanyPaymentMethod', 'Bank transfer'),
    (4, 'CompanyPaymentMethod', 'Online Payment');

CREATE TABLE carts (
    id          INTEGER PRIMARY KEY,
    uuid        TEXT    NOT NULL UNIQUE,
    client_id   INTEGER REFERENCES clients (id),
    location_id INTEGER REFERENCES locations (id),
    note        TEXT,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL
);

CREATE TABLE cart_items (
    id                  INTEGER PRIMARY KEY,
    cart_id             INTEGER NOT NULL REFERENCES carts (id) ON DELETE CASCADE,
    item_id             INTEGER NOT NULL,
    item_type           TEXT    NOT NULL CHECK (item_type IN ('service', 'class', 'session', 'addon', 'plan', 'bundle',
        'product', 'treatment', 'giftcard', 'membership')),
    item_name           TEXT,
    item_uuid           TEXT,
    quantity            INTEGER NOT NULL CHECK (quantity >= 1),
    unit_price_cents    INTEGER NOT NULL CHECK (unit_price_cents >= 0),
    unit_discount_cents INTEGER,
    unit_discount_type  TEXT,
    instances_json      TEXT    NOT NULL DEFAULT '[]',
    position            INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX cart_items_cart ON cart_items (cart_id, position);

CREATE TABLE payment_requests (
    id           INTEGER PRIMARY KEY,
    uuid         TEXT    NOT NULL UNIQUE,
    cart_id      INTEGER NOT NULL REFERENCES carts (id),
    amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
    status       TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'expired', 'cancelled')),
    channel      TEXT    NOT NULL DEFAULT 'online',
    expires_at   INTEGER,
    paid_at      INTEGER,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
);
CREATE INDEX payment_requests_cart ON payment_requests (cart_id);
CREATE INDEX payment_requests_pending ON payment_requests (expires_at) WHERE status = 'pending';

CREATE TABLE sales (
    id            INTEGER PRIMARY KEY,
    cart_id       INTEGER NOT NULL REFERENCES carts (id),
    client_id     INTEGER REFERENCES clients (id),
    location_id   INTEGER NOT NULL REFERENCES locations (id),
    status        TEXT    NOT NULL CHECK (status IN ('partially_paid', 'paid', 'canceled', 'refunded')),
    paid_cents    INTEGER NOT NULL DEFAULT 0,
    pending_cents INTEGER NOT NULL DEFAULT 0,
    paid_at       INTEGER,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
);
CREATE INDEX sales_paid_at ON sales (paid_at);

CREATE TABLE transactions (
    id                INTEGER PRIMARY KEY,
    sale_id           INTEGER NOT NULL REFERENCES sales (id) ON DELETE CASCADE,
    amount_cents      INTEGER NOT NULL,
    payment_method_id INTEGER NOT NULL REFERENCES payment_methods (id),
    paid_at           INTEGER,
    created_at        INTEGER NOT NULL
);
CREATE INDEX transactions_sale ON transactions (sale_id);

-- block_* is the time the provider is taken: the booking widened by the service's buffers. The
-- overlap triggers below compare blocks, so buffers are part of the no-double-booking rule.
CREATE TABLE bookings (
    id                 INTEGER PRIMARY KEY,
    location_id        INTEGER NOT NULL REFERENCES locations (id),
    service_id         INTEGER NOT NULL REFERENCES services (id),
    provider_id        INTEGER NOT NULL REFERENCES providers (id),
    client_id          INTEGER NOT NULL REFERENCES clients (id),
    status_id          INTEGER NOT NULL REFERENCES booking_statuses (id),
    start_at           INTEGER NOT NULL,
    end_at             INTEGER NOT NULL,
    block_start_at     INTEGER NOT NULL,
    block_end_at       INTEGER NOT NULL,
    price_cents        INTEGER NOT NULL CHECK (price_cents >= 0),
    list_price_cents   INTEGER NOT NULL CHECK (list_price_cents >= 0),
    discount_bp        INTEGER CHECK (discount_bp BETWEEN 0 AND 10000),
    notes              TEXT,
    scheduled          BOOLEAN NOT NULL DEFAULT 1 CHECK (scheduled IN (0, 1)),
    time_resource_id   INTEGER,
    change_count       INTEGER NOT NULL DEFAULT 0,
    source             TEXT    NOT NULL DEFAULT 'connect' CHECK (source IN ('connect', 'admin', 'import')),
    payment_request_id INTEGER REFERENCES payment_requests (id),
    sale_id            INTEGER REFERENCES sales (id),
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL,
    CHECK (start_at < end_at),
    CHECK (block_start_at <= start_at AND end_at <= block_end_at),
    -- Bounds the overlap search: no block is longer than two days.
    CHECK (block_end_at - block_start_at <= 172800000)
);
CREATE INDEX bookings_provider_block ON bookings (provider_id, block_start_at);
CREATE INDEX bookings_location_start ON bookings (location_id, start_at);
CREATE INDEX bookings_client_start ON bookings (client_id, start_at);
CREATE INDEX bookings_service_start ON bookings (service_id, start_at);

-- +goose StatementBegin
CREATE TRIGGER bookings_no_overlap_insert
BEFORE INSERT ON bookings
WHEN NEW.status_id <> 5
BEGIN
    SELECT RAISE(ABORT, 'slot_unavailable')
    WHERE EXISTS (
        SELECT 1 FROM bookings b
        WHERE b.provider_id = NEW.provider_id
          AND b.status_id <> 5
          AND b.block_start_at > NEW.block_start_at - 172800000
          AND b.block_start_at < NEW.block_end_at
          AND b.block_end_at > NEW.block_start_at
    );
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER bookings_no_overlap_update
BEFORE UPDATE OF provider_id, status_id, block_start_at, block_end_at ON bookings
WHEN NEW.status_id <> 5
BEGIN
    SELECT RAISE(ABORT, 'slot_unavailable')
    WHERE EXISTS (
        SELECT 1 FROM bookings b
        WHERE b.provider_id = NEW.provider_id
          AND b.id <> NEW.id
          AND b.status_id <> 5
          AND b.block_start_at > NEW.block_start_at - 172800000
          AND b.block_start_at < NEW.block_end_at
          AND b.block_end_at > NEW.block_start_at
    );
END;
-- +goose StatementEnd

-- A cancelled booking stays cancelled: the time has been given back.
-- +goose StatementBegin
CREATE TRIGGER bookings_cancel_is_final
BEFORE UPDATE OF status_id ON bookings
WHEN OLD.status_id = 5 AND NEW.status_id <> 5
BEGIN
    SELECT RAISE(ABORT, 'booking_cancelled');
END;
-- +goose StatementEnd

CREATE TABLE owners (
    id            INTEGER PRIMARY KEY,
    email         TEXT    NOT NULL UNIQUE,
    password_hash TEXT    NOT NULL,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
);

-- scs session store (expiry in Unix milliseconds).
CREATE TABLE sessions (
    token     TEXT PRIMARY KEY,
    data      BLOB    NOT NULL,
    expiry_at INTEGER NOT NULL
);
CREATE INDEX sessions_expiry ON sessions (expiry_at);

-- The one-time first-run token (stored hashed) that lets /setup create the first owner.
CREATE TABLE setup_tokens (
    token_hash TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL
);

CREATE TABLE api_keys (
    id           INTEGER PRIMARY KEY,
    name         TEXT    NOT NULL,
    prefix       TEXT    NOT NULL,
    key_hash     TEXT    NOT NULL UNIQUE,
    scopes       TEXT    NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER,
    revoked_at   INTEGER
);

-- First responses of requests sent with an Idempotency-Key, replayed on retry.
CREATE TABLE idempotency_keys (
    api_key_id    INTEGER NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    key           TEXT    NOT NULL,
    method        TEXT    NOT NULL,
    path          TEXT    NOT NULL,
    request_hash  TEXT    NOT NULL,
    status        INTEGER NOT NULL,
    response_body BLOB    NOT NULL,
    created_at    INTEGER NOT NULL,
    expires_at    INTEGER NOT NULL,
    PRIMARY KEY (api_key_id, key)
) WITHOUT ROWID;
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);

CREATE TABLE webhooks (
    id                 INTEGER PRIMARY KEY,
    url                TEXT    NOT NULL,
    events_json        TEXT    NOT NULL,
    description        TEXT    NOT NULL DEFAULT '',
    state              TEXT    NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'deactivated')),
    deactivated_reason TEXT,
    deactivated_at     INTEGER,
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL
);

-- Signing secrets; a rotated-out secret keeps signing until expires_at.
CREATE TABLE webhook_secrets (
    id         INTEGER PRIMARY KEY,
    webhook_id INTEGER NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    secret     TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER
);
CREATE INDEX webhook_secrets_webhook ON webhook_secrets (webhook_id);

-- The outbox: one row per event, its body exactly as delivered.
CREATE TABLE events (
    id         TEXT    PRIMARY KEY,
    type       TEXT    NOT NULL,
    body       BLOB    NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX events_created ON events (created_at);

CREATE TABLE deliveries (
    id              INTEGER PRIMARY KEY,
    event_id        TEXT    NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    webhook_id      INTEGER NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    state           TEXT    NOT NULL CHECK (state IN ('pending', 'succeeded', 'failed', 'missed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER,
    last_attempt_at INTEGER,
    last_status     INTEGER,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
);
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX deliveries_webhook ON deliveries (webhook_id, created_at);
CREATE INDEX deliveries_event ON deliveries (event_id);

CREATE TABLE delivery_attempts (
    id               INTEGER PRIMARY KEY,
    delivery_id      INTEGER NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
    attempt          INTEGER NOT NULL,
    started_at       INTEGER NOT NULL,
    duration_ms      INTEGER NOT NULL,
    status_code      INTEGER,
    error_category   TEXT CHECK (error_category IN ('dns', 'connect', 'tls', 'timeout', 'forbidden_address', 'http_status', 'other')),
    error_message    TEXT    NOT NULL DEFAULT '',
    request_headers  TEXT    NOT NULL,
    response_headers TEXT    NOT NULL DEFAULT '',
    response_body    TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX delivery_attempts_delivery ON delivery_attempts (delivery_id, attempt);
CREATE INDEX delivery_attempts_started ON delivery_attempts (started_at);
