-- The database that migrations 1 to 700 make from an empty file (db/snapshot.go).
-- Generated; do not edit. After adding a migration: go test ./db -run TestSchemaSnapshot -update-snapshot
PRAGMA defer_foreign_keys = ON;
CREATE TABLE goose_db_version (
		id INTEGER PRIMARY KEY AUTOINCREMENT,
		version_id INTEGER NOT NULL,
		is_applied INTEGER NOT NULL,
		tstamp TIMESTAMP DEFAULT (datetime('now'))
	);
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
, language TEXT NOT NULL DEFAULT 'en', clock TEXT NOT NULL DEFAULT '24h' CHECK (clock IN ('24h', '12h')));
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
CREATE TABLE providers (
    id             INTEGER PRIMARY KEY,
    public_name    TEXT    NOT NULL,
    active         BOOLEAN NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    online_booking BOOLEAN NOT NULL DEFAULT 1 CHECK (online_booking IN (0, 1)),
    -- The provider's main location, shown as Provider.location_id; all of them are in provider_locations.
    location_id    INTEGER NOT NULL REFERENCES locations (id),
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL
, email TEXT NOT NULL DEFAULT ''
    CHECK (instr(email, char(10)) = 0 AND instr(email, char(13)) = 0), phone TEXT NOT NULL DEFAULT '', notify_bookings BOOLEAN NOT NULL DEFAULT 0 CHECK (notify_bookings IN (0, 1)), agenda_min INTEGER CHECK (agenda_min BETWEEN 0 AND 1439));
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
CREATE TABLE service_providers (
    service_id  INTEGER NOT NULL REFERENCES services (id) ON DELETE CASCADE,
    provider_id INTEGER NOT NULL REFERENCES providers (id) ON DELETE CASCADE,
    PRIMARY KEY (service_id, provider_id)
) WITHOUT ROWID;
CREATE TABLE provider_hours (
    id          INTEGER PRIMARY KEY,
    provider_id INTEGER NOT NULL REFERENCES providers (id) ON DELETE CASCADE,
    location_id INTEGER NOT NULL REFERENCES locations (id) ON DELETE CASCADE,
    day_id      INTEGER NOT NULL CHECK (day_id BETWEEN 0 AND 6),
    open_min    INTEGER NOT NULL CHECK (open_min BETWEEN 0 AND 1439),
    close_min   INTEGER NOT NULL CHECK (close_min BETWEEN 1 AND 1440),
    CHECK (open_min < close_min)
);
CREATE TABLE provider_breaks (
    id        INTEGER PRIMARY KEY,
    hours_id  INTEGER NOT NULL REFERENCES provider_hours (id) ON DELETE CASCADE,
    start_min INTEGER NOT NULL CHECK (start_min BETWEEN 0 AND 1439),
    end_min   INTEGER NOT NULL CHECK (end_min BETWEEN 1 AND 1440),
    CHECK (start_min < end_min)
);
CREATE TABLE provider_time_off (
    id          INTEGER PRIMARY KEY,
    provider_id INTEGER NOT NULL REFERENCES providers (id) ON DELETE CASCADE,
    starts_at   INTEGER NOT NULL,
    ends_at     INTEGER NOT NULL,
    reason      TEXT    NOT NULL DEFAULT '',
    CHECK (starts_at < ends_at)
);
CREATE TABLE attribute_groups (
    id         INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    sort_order INTEGER NOT NULL DEFAULT 0
);
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
CREATE TABLE payment_methods (
    id   INTEGER PRIMARY KEY,
    type TEXT NOT NULL,
    name TEXT NOT NULL UNIQUE
);
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
, product_id INTEGER REFERENCES products (id), member_plan_id INTEGER REFERENCES membership_plans (id));
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
, checkout_url TEXT NOT NULL DEFAULT '', purpose TEXT NOT NULL DEFAULT 'payment'
    CHECK (purpose IN ('payment', 'card', 'fee')), deposit_cents INTEGER CHECK (deposit_cents IS NULL OR deposit_cents > 0), save_card BOOLEAN NOT NULL DEFAULT 0 CHECK (save_card IN (0, 1)));
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
CREATE TABLE transactions (
    id                INTEGER PRIMARY KEY,
    sale_id           INTEGER NOT NULL REFERENCES sales (id) ON DELETE CASCADE,
    amount_cents      INTEGER NOT NULL,
    payment_method_id INTEGER NOT NULL REFERENCES payment_methods (id),
    paid_at           INTEGER,
    created_at        INTEGER NOT NULL
);
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
    source             TEXT    NOT NULL DEFAULT 'connect' CHECK (source = 'connect' OR source = 'admin' OR source = 'import' OR source = 'online' OR source = 'mcp'),
    payment_request_id INTEGER REFERENCES payment_requests (id),
    sale_id            INTEGER REFERENCES sales (id),
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL, session_id INTEGER REFERENCES class_sessions (id), pack_id INTEGER REFERENCES client_packs (id), pack_returned BOOLEAN NOT NULL DEFAULT 0 CHECK (pack_returned BETWEEN 0 AND 1), cancelled_at INTEGER, cancelled_by TEXT
    CHECK (cancelled_by IS NULL OR cancelled_by = 'client' OR cancelled_by = 'business' OR cancelled_by = 'unpaid'), cancelled_late BOOLEAN NOT NULL DEFAULT 0 CHECK (cancelled_late BETWEEN 0 AND 1), client_confirmed_at INTEGER, series_id INTEGER REFERENCES booking_series (id),
    CHECK (start_at < end_at),
    CHECK (block_start_at <= start_at AND end_at <= block_end_at),
    -- Bounds the overlap search: no block is longer than two days.
    CHECK (block_end_at - block_start_at <= 172800000)
);
CREATE TABLE owners (
    id            INTEGER PRIMARY KEY,
    email         TEXT    NOT NULL UNIQUE,
    password_hash TEXT    NOT NULL,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
, language TEXT, role TEXT NOT NULL DEFAULT 'owner'
    CHECK (role IN ('owner', 'manager', 'reception', 'provider')), provider_id INTEGER REFERENCES providers (id)
    CHECK ((role = 'provider') = (provider_id IS NOT NULL)), name TEXT NOT NULL DEFAULT '' CHECK (length(name) <= 200), disabled_at INTEGER);
CREATE TABLE sessions (
    token     TEXT PRIMARY KEY,
    data      BLOB    NOT NULL,
    expiry_at INTEGER NOT NULL
);
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
, z_means_local BOOLEAN NOT NULL DEFAULT 0 CHECK (z_means_local IN (0, 1)), mcp_allowed BOOLEAN NOT NULL DEFAULT 0 CHECK (mcp_allowed IN (0, 1)));
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
, last_success_at INTEGER, key_mode TEXT NOT NULL DEFAULT 'standard'
    CHECK (key_mode IN ('standard', 'secret-text')));
CREATE TABLE webhook_secrets (
    id         INTEGER PRIMARY KEY,
    webhook_id INTEGER NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    secret     TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER
);
CREATE TABLE events (
    id         TEXT    PRIMARY KEY,
    type       TEXT    NOT NULL,
    body       BLOB    NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TABLE deliveries (
    id              INTEGER PRIMARY KEY,
    event_id        TEXT    NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    webhook_id      INTEGER NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    state           TEXT    NOT NULL CHECK (state = 'pending' OR state = 'succeeded' OR state = 'failed' OR state = 'missed'),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER,
    last_attempt_at INTEGER,
    last_status     INTEGER,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
, series_base INTEGER NOT NULL DEFAULT 0, restarted_at INTEGER);
CREATE TABLE delivery_attempts (
    id               INTEGER PRIMARY KEY,
    delivery_id      INTEGER NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
    attempt          INTEGER NOT NULL,
    started_at       INTEGER NOT NULL,
    duration_ms      INTEGER NOT NULL,
    status_code      INTEGER,
    error_category   TEXT CHECK (error_category = 'dns' OR error_category = 'connect' OR error_category = 'tls' OR error_category = 'timeout' OR error_category = 'forbidden_address' OR error_category = 'http_status' OR error_category = 'other'),
    error_message    TEXT    NOT NULL DEFAULT '',
    request_headers_id INTEGER NOT NULL DEFAULT 0, response_headers_id INTEGER NOT NULL DEFAULT 0, response_body_id INTEGER NOT NULL DEFAULT 0, signature TEXT, response_date TEXT);
CREATE VIRTUAL TABLE client_search USING fts5(doc, tokenize = 'trigram remove_diacritics 1');
CREATE TABLE import_keys (
    kind        TEXT    NOT NULL
        CHECK (kind IN ('location', 'category', 'service', 'provider', 'custom_attribute', 'client', 'booking')),
    key         TEXT    NOT NULL,
    record_id   INTEGER NOT NULL,
    imported_at INTEGER NOT NULL,
    PRIMARY KEY (kind, key)
) WITHOUT ROWID;
CREATE TABLE catalog_version (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n  INTEGER NOT NULL
);
CREATE TABLE app_versions (
    id             INTEGER PRIMARY KEY,
    version        TEXT    NOT NULL CHECK (length(version) BETWEEN 1 AND 200),
    schema_version INTEGER NOT NULL CHECK (schema_version > 0),
    recorded_at    INTEGER NOT NULL
);
CREATE TABLE products (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
    sku         TEXT    CHECK (sku IS NULL OR length(sku) BETWEEN 1 AND 64),
    price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
    active      BOOLEAN NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    stock       INTEGER CHECK (stock IS NULL OR stock >= 0),
    description TEXT,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
CREATE VIRTUAL TABLE product_search USING fts5(doc, tokenize = 'trigram remove_diacritics 1');
CREATE TABLE import_product_keys (
    key         TEXT    PRIMARY KEY,
    record_id   INTEGER NOT NULL REFERENCES products (id),
    imported_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE storage_probe (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    checked_at INTEGER NOT NULL
);
CREATE TABLE signing_keys (
    name       TEXT    PRIMARY KEY,
    secret     BLOB    NOT NULL CHECK (length(secret) >= 32),
    created_at INTEGER NOT NULL
);
CREATE TABLE mcp_settings (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    enabled    BOOLEAN NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    slot_key   BLOB    NOT NULL CHECK (length(slot_key) = 32),
    updated_at INTEGER NOT NULL
);
CREATE TABLE class_timetable (
    id          INTEGER PRIMARY KEY,
    location_id INTEGER NOT NULL REFERENCES locations (id),
    service_id  INTEGER NOT NULL REFERENCES services (id),
    provider_id INTEGER NOT NULL REFERENCES providers (id),
    day_id      INTEGER NOT NULL CHECK (day_id BETWEEN 0 AND 6),
    start_min   INTEGER NOT NULL CHECK (start_min BETWEEN 0 AND 1439),
    -- NULL: the service's capacity. A value overrides it for this slot of the week (a bigger room).
    capacity    INTEGER CHECK (capacity >= 1),
    room        TEXT,
    -- Local dates of the location, inclusive; valid_to NULL: until further notice.
    valid_from  TEXT    NOT NULL,
    valid_to    TEXT,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    CHECK (valid_to IS NULL OR valid_to >= valid_from)
);
CREATE TABLE class_sessions (
    id             INTEGER PRIMARY KEY,
    location_id    INTEGER NOT NULL REFERENCES locations (id),
    service_id     INTEGER NOT NULL REFERENCES services (id),
    provider_id    INTEGER NOT NULL REFERENCES providers (id),
    -- The weekly entry that generated it; NULL for a one-off session.
    timetable_id   INTEGER REFERENCES class_timetable (id) ON DELETE SET NULL,
    local_date     TEXT    NOT NULL, -- the location's local date of start_at
    start_at       INTEGER NOT NULL,
    end_at         INTEGER NOT NULL,
    block_start_at INTEGER NOT NULL,
    block_end_at   INTEGER NOT NULL,
    capacity       INTEGER CHECK (capacity >= 1), -- NULL: the service's capacity
    room           TEXT,
    status         TEXT    NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'cancelled')),
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL,
    CHECK (start_at < end_at),
    CHECK (block_start_at <= start_at AND end_at <= block_end_at),
    CHECK (block_end_at - block_start_at <= 172800000)
);
CREATE TABLE class_settings (
    id                  INTEGER PRIMARY KEY CHECK (id = 1),
    -- Days a pack stays usable after it was paid; 0: packs never expire.
    pack_expiry_days    INTEGER NOT NULL DEFAULT 0 CHECK (pack_expiry_days BETWEEN 0 AND 3650),
    -- A freed seat goes to the first waiting client only until this many minutes before the
    -- session starts; later it stays free for anyone to book.
    waitlist_cutoff_min INTEGER NOT NULL DEFAULT 120 CHECK (waitlist_cutoff_min BETWEEN 0 AND 10080),
    updated_at          INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE client_packs (
    id             INTEGER PRIMARY KEY,
    client_id      INTEGER NOT NULL REFERENCES clients (id),
    service_id     INTEGER NOT NULL REFERENCES services (id),
    sessions_total INTEGER NOT NULL CHECK (sessions_total >= 1),
    price_cents    INTEGER NOT NULL DEFAULT 0 CHECK (price_cents >= 0),
    -- The sale that paid for it (NULL: recorded by the owner or imported).
    sale_id        INTEGER REFERENCES sales (id),
    -- Sessions must start before this instant; NULL: never expires.
    expires_at     INTEGER,
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL
, membership_period_id INTEGER REFERENCES membership_periods (id));
CREATE TABLE waitlist_entries (
    id          INTEGER PRIMARY KEY,
    session_id  INTEGER NOT NULL REFERENCES class_sessions (id),
    client_id   INTEGER NOT NULL REFERENCES clients (id),
    status      TEXT    NOT NULL DEFAULT 'waiting'
        CHECK (status IN ('waiting', 'booked', 'left', 'skipped')),
    -- Why an entry was skipped: 'already_booked', 'client_inactive', 'pack_unusable'.
    reason      TEXT,
    booking_id  INTEGER REFERENCES bookings (id),
    -- Who added the client, as bookings.source; a promoted booking carries it.
    source      TEXT    NOT NULL CHECK (source IN ('connect', 'admin', 'online', 'mcp')),
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    CHECK ((status = 'booked') = (booking_id IS NOT NULL))
);
CREATE TABLE import_class_keys (
    kind        TEXT    NOT NULL CHECK (kind IN ('timetable', 'session')),
    key         TEXT    NOT NULL,
    record_id   INTEGER NOT NULL,
    imported_at INTEGER NOT NULL,
    PRIMARY KEY (kind, key)
) WITHOUT ROWID;
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
    updated_at    INTEGER NOT NULL DEFAULT 0, repeat_online INTEGER NOT NULL DEFAULT 0 CHECK (repeat_online IN (0, 1)),
    CHECK ((logo IS NULL) = (logo_type = ''))
);
CREATE TABLE site_locations (
    location_id INTEGER PRIMARY KEY REFERENCES locations (id) ON DELETE CASCADE,
    enabled     BOOLEAN NOT NULL CHECK (enabled IN (0, 1))
);
CREATE TABLE site_attributes (
    attribute_id INTEGER PRIMARY KEY REFERENCES custom_attributes (id) ON DELETE CASCADE
);
CREATE TABLE site_bookings (
    booking_id   INTEGER PRIMARY KEY REFERENCES bookings (id),
    nonce_hash   BLOB    NOT NULL UNIQUE CHECK (length(nonce_hash) = 32),
    any_provider BOOLEAN NOT NULL CHECK (any_provider IN (0, 1)),
    created_at   INTEGER NOT NULL
);
CREATE TABLE manage_links (
    id         INTEGER PRIMARY KEY,
    booking_id INTEGER NOT NULL REFERENCES bookings (id),
    token_hash BLOB    NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    created_at INTEGER NOT NULL
);
CREATE TABLE message_settings (
    id                   INTEGER PRIMARY KEY CHECK (id = 1),
    smtp_host            TEXT    NOT NULL DEFAULT '',
    smtp_port            INTEGER NOT NULL DEFAULT 587 CHECK (smtp_port BETWEEN 1 AND 65535),
    smtp_security        TEXT    NOT NULL DEFAULT 'starttls'
        CHECK (smtp_security IN ('starttls', 'opportunistic', 'tls', 'off')),
    smtp_username        TEXT    NOT NULL DEFAULT '',
    -- Sealed with the key file in the data directory (app/secrets), never in clear.
    smtp_password_sealed TEXT    NOT NULL DEFAULT '',
    from_name            TEXT    NOT NULL DEFAULT '',
    from_address         TEXT    NOT NULL DEFAULT '',
    reply_to             TEXT    NOT NULL DEFAULT '',
    -- Where owner copies go; '' means the first owner account's address.
    owner_address        TEXT    NOT NULL DEFAULT '',
    -- Minutes before the start, comma separated, largest first; '' means no reminders.
    reminder_offsets     TEXT    NOT NULL DEFAULT '1440,120',
    -- Keys the unsubscribe links' tokens (HMAC), so links cannot be guessed or forged.
    unsubscribe_key      BLOB    NOT NULL,
    updated_at           INTEGER NOT NULL, copy_replies INTEGER NOT NULL DEFAULT 0 CHECK (copy_replies IN (0, 1)),
    CHECK (instr(from_name, char(10)) = 0 AND instr(from_name, char(13)) = 0),
    CHECK (instr(from_address || reply_to || owner_address, char(10)) = 0
        AND instr(from_address || reply_to || owner_address, char(13)) = 0)
);
CREATE TABLE message_kinds (
    kind       TEXT PRIMARY KEY
        CHECK (kind IN ('confirmation', 'rescheduled', 'cancelled', 'reminder', 'payment_request', 'receipt', 'waitlist_seat')),
    enabled    BOOLEAN NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    owner_copy BOOLEAN NOT NULL DEFAULT 0 CHECK (owner_copy IN (0, 1))
, by_text BOOLEAN NOT NULL DEFAULT 1 CHECK (by_text IN (0, 1)));
CREATE TABLE message_templates (
    kind       TEXT    NOT NULL REFERENCES message_kinds (kind),
    language   TEXT    NOT NULL,
    subject    TEXT    NOT NULL CHECK (length(subject) BETWEEN 1 AND 300
        AND instr(subject, char(10)) = 0 AND instr(subject, char(13)) = 0),
    body       TEXT    NOT NULL CHECK (length(body) BETWEEN 1 AND 20000),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (kind, language)
);
CREATE TABLE messages (
    id                 INTEGER PRIMARY KEY,
    -- The Message-ID's left part, fixed when the row is written: every attempt, and a resend
    -- after a crash, carries the same Message-ID. 134 random bits: unique without an index,
    -- which every booking's write would pay for.
    message_key        TEXT    NOT NULL,
    -- The enum CHECKs of this table are OR chains, not IN lists: SQLite builds an ephemeral
    -- index for an IN list on every statement run (≈6 µs each), and every booking writes
    -- three rows here inside its transaction.
    kind               TEXT    NOT NULL CHECK (kind = 'confirmation' OR kind = 'rescheduled' OR kind = 'cancelled'
        OR kind = 'reminder' OR kind = 'payment_request' OR kind = 'receipt' OR kind = 'test' OR kind = 'waitlist_seat'
        OR kind = 'provider_booked' OR kind = 'provider_moved' OR kind = 'provider_cancelled' OR kind = 'provider_agenda'
        OR kind = 'waitlist_offer' OR kind = 'reply' OR kind = 'gift_card' OR kind = 'membership_started' OR kind = 'membership_renewed'
        OR kind = 'membership_failed' OR kind = 'membership_paused' OR kind = 'membership_resumed' OR kind = 'membership_cancelled'),
    recipient          TEXT    NOT NULL CHECK (recipient = 'client' OR recipient = 'owner' OR recipient = 'address' OR recipient = 'provider'),
    -- The address it went to (resolved at the first attempt; given for a test).
    to_address         TEXT    NOT NULL DEFAULT '',
    booking_id         INTEGER REFERENCES bookings (id) ON DELETE CASCADE,
    payment_request_id INTEGER REFERENCES payment_requests (id) ON DELETE CASCADE,
    offset_min         INTEGER CHECK (offset_min > 0),
    -- What the change was, for the text: {"previous_start": ms} for a reschedule.
    detail_json        TEXT    NOT NULL DEFAULT '{}',
    state              TEXT    NOT NULL CHECK (state = 'pending' OR state = 'sent' OR state = 'failed' OR state = 'skipped'),
    -- Why it was skipped or failed, or the server's answer to the last attempt.
    note               TEXT    NOT NULL DEFAULT '',
    send_at            INTEGER NOT NULL,
    next_attempt_at    INTEGER,
    attempts           INTEGER NOT NULL DEFAULT 0,
    series_base        INTEGER NOT NULL DEFAULT 0,
    restarted_at       INTEGER,
    last_attempt_at    INTEGER,
    last_code          INTEGER,
    subject            TEXT    NOT NULL DEFAULT '',
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL, provider_id INTEGER REFERENCES providers (id) ON DELETE CASCADE, channel TEXT NOT NULL DEFAULT 'email'
    CHECK (channel = 'email' OR channel = 'sms' OR channel = 'whatsapp'), delivery_status TEXT NOT NULL DEFAULT '', delivery_note TEXT NOT NULL DEFAULT '', delivery_at INTEGER, segments INTEGER, cost_milli INTEGER, offer_id INTEGER REFERENCES appointment_offers (id) ON DELETE CASCADE, inbound_id INTEGER REFERENCES inbound_messages (id) ON DELETE CASCADE, gift_card_id INTEGER REFERENCES gift_cards (id) ON DELETE CASCADE, membership_id INTEGER REFERENCES memberships (id) ON DELETE CASCADE,
    CHECK (kind = 'test' OR booking_id IS NOT NULL OR payment_request_id IS NOT NULL OR provider_id IS NOT NULL OR offer_id IS NOT NULL OR inbound_id IS NOT NULL
        OR gift_card_id IS NOT NULL OR membership_id IS NOT NULL),
    CHECK ((kind = 'reminder') = (offset_min IS NOT NULL)),
    CHECK ((recipient = 'address') = (kind = 'test'))
);
CREATE TABLE message_attempts (
    id                INTEGER PRIMARY KEY,
    message_id        INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    attempt           INTEGER NOT NULL,
    started_at        INTEGER NOT NULL,
    duration_ms       INTEGER NOT NULL,
    code              INTEGER,
    category          TEXT,
    reply             TEXT    NOT NULL DEFAULT '',
    to_address        TEXT    NOT NULL DEFAULT '',
    message_id_header TEXT    NOT NULL DEFAULT ''
, channel TEXT NOT NULL DEFAULT 'email', segments INTEGER, policy TEXT NOT NULL DEFAULT '');
CREATE TABLE message_bookings (
    booking_id  INTEGER PRIMARY KEY REFERENCES bookings (id) ON DELETE CASCADE,
    status_id   INTEGER NOT NULL,
    start_at    INTEGER NOT NULL,
    end_at      INTEGER NOT NULL,
    location_id INTEGER NOT NULL,
    service_id  INTEGER NOT NULL,
    provider_id INTEGER NOT NULL,
    sequence    INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE message_optouts (
    client_id  INTEGER PRIMARY KEY REFERENCES clients (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL
);
CREATE TABLE payment_provider_settings (
    id             INTEGER PRIMARY KEY CHECK (id = 1),
    provider       TEXT    NOT NULL DEFAULT 'none'
        CHECK (provider GLOB '[a-z]*' AND provider NOT GLOB '*[^a-z0-9_]*'),
    reconciled_at  INTEGER,
    reconcile_note TEXT    NOT NULL DEFAULT '',
    updated_at     INTEGER NOT NULL
);
CREATE TABLE payment_provider_credentials (
    provider              TEXT PRIMARY KEY
        CHECK (provider <> 'none' AND provider GLOB '[a-z]*' AND provider NOT GLOB '*[^a-z0-9_]*'),
    -- Sealed values only: "v1:" + base64 of nonce and ciphertext; '' when not set.
    secret_key_sealed     TEXT    NOT NULL DEFAULT '' CHECK (secret_key_sealed = '' OR secret_key_sealed LIKE 'v1:%'),
    -- A hint to recognise the key by ("sk_test_…4242"), never enough to use it.
    secret_key_hint       TEXT    NOT NULL DEFAULT '',
    webhook_secret_sealed TEXT    NOT NULL DEFAULT '' CHECK (webhook_secret_sealed = '' OR webhook_secret_sealed LIKE 'v1:%'),
    webhook_secret_hint   TEXT    NOT NULL DEFAULT '',
    updated_at            INTEGER NOT NULL
);
CREATE TABLE online_checkouts (
    id                 INTEGER PRIMARY KEY,
    payment_request_id INTEGER NOT NULL REFERENCES payment_requests (id),
    provider           TEXT    NOT NULL,
    attempt            INTEGER NOT NULL CHECK (attempt >= 1),
    idempotency_key    TEXT    NOT NULL UNIQUE,
    status             TEXT    NOT NULL
        CHECK (status IN ('creating', 'open', 'processing', 'paid', 'expired', 'failed', 'refused')),
    session_id         TEXT    UNIQUE,
    url                TEXT    NOT NULL DEFAULT '',
    -- What the customer is asked to pay online (hundredths; the deposit for MANDATORY_PARTIAL).
    amount_cents       INTEGER NOT NULL CHECK (amount_cents > 0),
    currency           TEXT    NOT NULL CHECK (length(currency) = 3),
    expires_at         INTEGER NOT NULL,
    -- What the provider reports as paid (set when paid or refused), and the payment that
    -- refunds refer to (a Stripe PaymentIntent).
    received_cents     INTEGER,
    received_currency  TEXT,
    payment_ref        TEXT    NOT NULL DEFAULT '',
    sale_id            INTEGER REFERENCES sales (id),
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL,
    UNIQUE (payment_request_id, provider, attempt),
    CHECK (status <> 'paid' OR sale_id IS NOT NULL)
);
CREATE TABLE online_payment_events (
    provider    TEXT    NOT NULL,
    event_id    TEXT    NOT NULL,
    type        TEXT    NOT NULL,
    checkout_id INTEGER REFERENCES online_checkouts (id),
    outcome     TEXT    NOT NULL,
    received_at INTEGER NOT NULL,
    PRIMARY KEY (provider, event_id)
) WITHOUT ROWID;
CREATE TABLE payment_flags (
    id                 INTEGER PRIMARY KEY,
    payment_request_id INTEGER NOT NULL REFERENCES payment_requests (id),
    checkout_id        INTEGER NOT NULL REFERENCES online_checkouts (id),
    kind               TEXT    NOT NULL CHECK (kind IN ('amount_mismatch', 'paid_after_close')),
    expected_cents     INTEGER NOT NULL,
    expected_currency  TEXT    NOT NULL,
    received_cents     INTEGER NOT NULL,
    received_currency  TEXT    NOT NULL,
    created_at         INTEGER NOT NULL,
    resolved_at        INTEGER,
    UNIQUE (checkout_id, kind)
);
CREATE TABLE refunds (
    id                 INTEGER PRIMARY KEY,
    checkout_id        INTEGER NOT NULL REFERENCES online_checkouts (id),
    -- The sale the refunded payment paid for; NULL for a payment that never became a sale
    -- (a flagged one).
    sale_id            INTEGER REFERENCES sales (id),
    amount_cents       INTEGER NOT NULL CHECK (amount_cents > 0),
    provider_refund_id TEXT    NOT NULL UNIQUE,
    status             TEXT    NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'canceled')),
    -- Who asked for it: the owner in frontdesk's admin, or someone in the provider's dashboard.
    origin             TEXT    NOT NULL CHECK (origin IN ('admin', 'provider')),
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL
);
CREATE TABLE etag_versions (
    kind   TEXT    NOT NULL,
    ref_id INTEGER NOT NULL,
    n      INTEGER NOT NULL,
    PRIMARY KEY (kind, ref_id)
) WITHOUT ROWID;
CREATE TABLE webhook_delivery_settings (
    webhook_id      INTEGER PRIMARY KEY REFERENCES webhooks (id) ON DELETE CASCADE,
    max_concurrency INTEGER NOT NULL CHECK (max_concurrency BETWEEN 1 AND 256)
);
CREATE TABLE delivery_texts (
    id           INTEGER PRIMARY KEY,
    text         TEXT    NOT NULL UNIQUE,
    last_used_at INTEGER NOT NULL
);
CREATE TABLE webhook_pauses (
    webhook_id INTEGER PRIMARY KEY REFERENCES webhooks (id) ON DELETE CASCADE,
    paused_at  INTEGER NOT NULL
);
CREATE TABLE booking_overrides (
    id          INTEGER PRIMARY KEY,
    booking_id  INTEGER NOT NULL REFERENCES bookings (id) ON DELETE CASCADE,
    -- The availability rule the owner overrode (app/booking ReasonCode).
    reason_code TEXT    NOT NULL CHECK (reason_code IN ('closed', 'outside_hours', 'not_working', 'break', 'time_off')),
    -- What the warning said, in the owner's language, as they read it.
    message     TEXT    NOT NULL CHECK (length(message) BETWEEN 1 AND 1000),
    -- Who confirmed (their email then: the account may be removed later).
    owner_email TEXT    NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL
);
CREATE TABLE site_waitlist_links (
    id         INTEGER PRIMARY KEY,
    entry_id   INTEGER NOT NULL REFERENCES waitlist_entries (id),
    token_hash BLOB    NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    nonce_hash BLOB    UNIQUE CHECK (nonce_hash IS NULL OR length(nonce_hash) = 32),
    created_at INTEGER NOT NULL
);
CREATE TABLE "booking_counts" (
    kind      TEXT    NOT NULL CHECK (kind = 'location' OR kind = 'client' OR kind = 'service' OR kind = 'provider'),
    ref_id    INTEGER NOT NULL,
    status_id INTEGER NOT NULL,
    n         INTEGER NOT NULL, changes INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (kind, ref_id, status_id)
) WITHOUT ROWID;
CREATE TABLE staff_links (
    id          INTEGER PRIMARY KEY,
    token_hash  TEXT    NOT NULL UNIQUE,
    purpose     TEXT    NOT NULL CHECK (purpose IN ('invite', 'reset')),
    email       TEXT    NOT NULL,
    role        TEXT    NOT NULL DEFAULT '' CHECK (role IN ('', 'owner', 'manager', 'reception', 'provider')),
    provider_id INTEGER REFERENCES providers (id),
    -- The account a reset is for; the account an invitation made, once accepted.
    owner_id    INTEGER REFERENCES owners (id) ON DELETE CASCADE,
    invited_by  INTEGER REFERENCES owners (id) ON DELETE SET NULL,
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    used_at     INTEGER,
    CHECK ((purpose = 'invite') = (role <> '')),
    CHECK ((role = 'provider') = (provider_id IS NOT NULL)),
    CHECK (purpose = 'invite' OR owner_id IS NOT NULL)
);
CREATE TABLE team_settings (
    id                       INTEGER PRIMARY KEY CHECK (id = 1),
    providers_edit_own_hours BOOLEAN NOT NULL DEFAULT 0 CHECK (providers_edit_own_hours IN (0, 1)),
    updated_at               INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE calendar_feeds (
    id          INTEGER PRIMARY KEY,
    provider_id INTEGER UNIQUE REFERENCES providers (id) ON DELETE CASCADE,
    location_id INTEGER UNIQUE REFERENCES locations (id) ON DELETE CASCADE,
    token_hash  BLOB    NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    details     BOOLEAN NOT NULL DEFAULT 0 CHECK (details IN (0, 1)),
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    CHECK ((provider_id IS NULL) <> (location_id IS NULL))
);
CREATE TABLE activity (
    id          INTEGER PRIMARY KEY,
    at          INTEGER NOT NULL,
    actor_kind  TEXT    NOT NULL CHECK (actor_kind = 'owner' OR actor_kind = 'api_key'
                    OR actor_kind = 'mcp' OR actor_kind = 'client' OR actor_kind = 'site'
                    OR actor_kind = 'cli' OR actor_kind = 'system'),
    actor_id    TEXT    NOT NULL DEFAULT '',
    actor_label TEXT    NOT NULL DEFAULT '',
    action      TEXT    NOT NULL,
    entity      TEXT    NOT NULL,
    entity_id   INTEGER NOT NULL DEFAULT 0,
    changes     TEXT    NOT NULL DEFAULT '{}',
    ip          TEXT    NOT NULL DEFAULT ''
);
CREATE TABLE owner_totp (
    owner_id      INTEGER PRIMARY KEY REFERENCES owners (id) ON DELETE CASCADE,
    secret_sealed TEXT    NOT NULL,
    confirmed_at  INTEGER,
    last_step     INTEGER NOT NULL DEFAULT 0,
    created_at    INTEGER NOT NULL
);
CREATE TABLE owner_recovery_codes (
    id         INTEGER PRIMARY KEY,
    owner_id   INTEGER NOT NULL REFERENCES owners (id) ON DELETE CASCADE,
    code_hash  TEXT    NOT NULL UNIQUE,
    used_at    INTEGER,
    created_at INTEGER NOT NULL
);
CREATE TABLE security_settings (
    id                 INTEGER PRIMARY KEY CHECK (id = 1),
    require_two_factor BOOLEAN NOT NULL DEFAULT 0 CHECK (require_two_factor IN (0, 1)),
    updated_at         INTEGER NOT NULL
);
CREATE TABLE owner_sessions (
    id           INTEGER PRIMARY KEY,
    owner_id     INTEGER NOT NULL REFERENCES owners (id) ON DELETE CASCADE,
    sid_hash     TEXT    NOT NULL UNIQUE,
    ip           TEXT    NOT NULL DEFAULT '',
    user_agent   TEXT    NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL
);
CREATE TABLE owner_passkeys (
    id            INTEGER PRIMARY KEY,
    owner_id      INTEGER NOT NULL REFERENCES owners (id) ON DELETE CASCADE,
    name          TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
    credential_id BLOB    NOT NULL UNIQUE,
    credential    TEXT    NOT NULL,
    created_at    INTEGER NOT NULL,
    last_used_at  INTEGER
);
CREATE TABLE webhook_delivery_counts (
    webhook_id INTEGER NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    state      TEXT    NOT NULL,
    n          INTEGER NOT NULL,
    PRIMARY KEY (webhook_id, state)
) WITHOUT ROWID;
CREATE TABLE client_notes (
    id           INTEGER PRIMARY KEY,
    client_id    INTEGER NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    body         TEXT    NOT NULL CHECK (length(body) BETWEEN 1 AND 5000),
    author_id    INTEGER REFERENCES owners (id) ON DELETE SET NULL,
    author_label TEXT    NOT NULL CHECK (length(author_label) <= 254),
    created_at   INTEGER NOT NULL
);
CREATE TABLE client_message_prefs (
    client_id  INTEGER PRIMARY KEY REFERENCES clients (id) ON DELETE CASCADE,
    channel    TEXT    NOT NULL CHECK (channel IN ('email', 'sms', 'whatsapp')),
    updated_at INTEGER NOT NULL
);
CREATE TABLE message_text_settings (
    id                         INTEGER PRIMARY KEY CHECK (id = 1),
    -- none: texts are off and every message goes by email.
    sms_provider               TEXT    NOT NULL DEFAULT 'none' CHECK (sms_provider IN ('none', 'twilio', 'http')),
    twilio_account_sid         TEXT    NOT NULL DEFAULT '',
    twilio_auth_token_sealed   TEXT    NOT NULL DEFAULT ''
        CHECK (twilio_auth_token_sealed = '' OR twilio_auth_token_sealed LIKE 'v1:%'),
    -- The sender: a number in E.164 or a Messaging Service SID (MG…).
    twilio_from                TEXT    NOT NULL DEFAULT '',
    gateway_url                TEXT    NOT NULL DEFAULT '',
    gateway_method             TEXT    NOT NULL DEFAULT 'POST' CHECK (gateway_method IN ('POST', 'PUT', 'GET')),
    gateway_auth_name          TEXT    NOT NULL DEFAULT 'Authorization',
    gateway_auth_value_sealed  TEXT    NOT NULL DEFAULT ''
        CHECK (gateway_auth_value_sealed = '' OR gateway_auth_value_sealed LIKE 'v1:%'),
    gateway_content_type       TEXT    NOT NULL DEFAULT 'application/json',
    gateway_body               TEXT    NOT NULL DEFAULT '{"to": "{{to}}", "message": "{{text}}"}',
    updated_at                 INTEGER NOT NULL,
    CHECK (instr(twilio_account_sid || twilio_from || gateway_url || gateway_auth_name || gateway_content_type, char(10)) = 0
        AND instr(twilio_account_sid || twilio_from || gateway_url || gateway_auth_name || gateway_content_type, char(13)) = 0)
);
CREATE TABLE message_text_templates (
    kind       TEXT    NOT NULL REFERENCES message_kinds (kind),
    language   TEXT    NOT NULL,
    body       TEXT    NOT NULL CHECK (length(body) BETWEEN 1 AND 1600),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (kind, language)
);
CREATE TABLE import_sale_keys (
    kind        TEXT    NOT NULL CHECK (kind IN ('pack', 'sale')),
    key         TEXT    NOT NULL,
    record_id   INTEGER NOT NULL,
    imported_at INTEGER NOT NULL,
    PRIMARY KEY (kind, key)
) WITHOUT ROWID;
CREATE TABLE inbound_messages (
    id          INTEGER PRIMARY KEY,
    channel     TEXT    NOT NULL CHECK (channel IN ('sms', 'whatsapp')),
    -- Twilio's MessageSid (SM…), WhatsApp's message id (wamid.…).
    provider_id TEXT    NOT NULL CHECK (length(provider_id) BETWEEN 1 AND 200),
    from_phone  TEXT    NOT NULL,
    body        TEXT    NOT NULL,
    client_id   INTEGER REFERENCES clients (id) ON DELETE SET NULL,
    booking_id  INTEGER REFERENCES bookings (id) ON DELETE SET NULL,
    -- confirm, cancel, stop, or other (the inbox).
    action      TEXT    NOT NULL CHECK (action IN ('confirm', 'cancel', 'stop', 'other')),
    -- done, refused (outside the cancel policy; note names the rule), no_booking, inbox.
    outcome     TEXT    NOT NULL CHECK (outcome IN ('done', 'refused', 'no_booking', 'inbox')),
    note        TEXT    NOT NULL DEFAULT '',
    reply       TEXT    NOT NULL DEFAULT '',
    received_at INTEGER NOT NULL,
    UNIQUE (channel, provider_id)
);
CREATE TABLE text_optouts (
    phone      TEXT    PRIMARY KEY,
    channel    TEXT    NOT NULL CHECK (channel IN ('sms', 'whatsapp')),
    created_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE message_whatsapp_settings (
    id                  INTEGER PRIMARY KEY CHECK (id = 1),
    enabled             BOOLEAN NOT NULL DEFAULT 0 CHECK (enabled IN (0, 1)),
    -- The business phone number's id in the Cloud API (digits), not the number itself.
    phone_number_id     TEXT    NOT NULL DEFAULT '' CHECK (phone_number_id = '' OR phone_number_id GLOB '[0-9]*'),
    access_token_sealed TEXT    NOT NULL DEFAULT '' CHECK (access_token_sealed = '' OR access_token_sealed LIKE 'v1:%'),
    app_secret_sealed   TEXT    NOT NULL DEFAULT '' CHECK (app_secret_sealed = '' OR app_secret_sealed LIKE 'v1:%'),
    -- What Meta echoes in the webhook verification handshake (hub.verify_token).
    verify_token        TEXT    NOT NULL DEFAULT '',
    updated_at          INTEGER NOT NULL
);
CREATE TABLE message_whatsapp_templates (
    kind          TEXT    NOT NULL REFERENCES message_kinds (kind),
    language      TEXT    NOT NULL,
    template_name TEXT    NOT NULL CHECK (template_name GLOB '[a-z0-9_]*' AND length(template_name) BETWEEN 1 AND 512),
    -- The template's language code at Meta (en_US, es, es_MX …).
    template_lang TEXT    NOT NULL CHECK (length(template_lang) BETWEEN 2 AND 10),
    -- The message fields that fill {{1}}, {{2}}, … in order, comma-separated (Time,Date,Service).
    params        TEXT    NOT NULL DEFAULT '',
    -- Whether the template has the quick-reply buttons Confirm and Cancel (in that order).
    buttons       BOOLEAN NOT NULL DEFAULT 0 CHECK (buttons IN (0, 1)),
    updated_at    INTEGER NOT NULL,
    PRIMARY KEY (kind, language)
);
CREATE TABLE message_text_policy (
    id                    INTEGER PRIMARY KEY CHECK (id = 1),
    daily_cap             INTEGER NOT NULL DEFAULT 200 CHECK (daily_cap BETWEEN 1 AND 100000),
    quiet_enabled         BOOLEAN NOT NULL DEFAULT 1 CHECK (quiet_enabled IN (0, 1)),
    quiet_start_min       INTEGER NOT NULL DEFAULT 1260 CHECK (quiet_start_min BETWEEN 0 AND 1439),
    quiet_end_min         INTEGER NOT NULL DEFAULT 480 CHECK (quiet_end_min BETWEEN 0 AND 1439),
    price_per_1000_cents  INTEGER NOT NULL DEFAULT 0 CHECK (price_per_1000_cents BETWEEN 0 AND 100000000),
    updated_at            INTEGER NOT NULL
);
CREATE TABLE message_month_counts (
    month      TEXT    NOT NULL CHECK (length(month) = 7),
    channel    TEXT    NOT NULL CHECK (channel IN ('email', 'sms', 'whatsapp')),
    sent       INTEGER NOT NULL DEFAULT 0,
    segments   INTEGER NOT NULL DEFAULT 0,
    cost_milli INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (month, channel)
) WITHOUT ROWID;
CREATE TABLE calendar_connections (
    id              INTEGER PRIMARY KEY,
    provider_id     INTEGER NOT NULL UNIQUE REFERENCES providers (id) ON DELETE CASCADE,
    kind            TEXT    NOT NULL CHECK (kind IN ('ics', 'caldav')),
    url             TEXT    NOT NULL CHECK (length(url) BETWEEN 1 AND 2048),
    username        TEXT    NOT NULL DEFAULT '',
    password_sealed TEXT    NOT NULL DEFAULT '',
    allow_private   BOOLEAN NOT NULL DEFAULT 0 CHECK (allow_private IN (0, 1)),
    all_day_busy    BOOLEAN NOT NULL DEFAULT 1 CHECK (all_day_busy IN (0, 1)),
    reveal_summary  BOOLEAN NOT NULL DEFAULT 0 CHECK (reveal_summary IN (0, 1)),
    stale_blocks    BOOLEAN NOT NULL DEFAULT 1 CHECK (stale_blocks IN (0, 1)),
    stale           BOOLEAN NOT NULL DEFAULT 0 CHECK (stale IN (0, 1)),
    etag            TEXT    NOT NULL DEFAULT '',
    digest          TEXT    NOT NULL DEFAULT '',
    last_attempt_at INTEGER,
    last_success_at INTEGER,
    last_error      TEXT    NOT NULL DEFAULT '',
    next_poll_at    INTEGER NOT NULL DEFAULT 0,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
);
CREATE TABLE calendar_sources (
    id            INTEGER PRIMARY KEY,
    connection_id INTEGER NOT NULL REFERENCES calendar_connections (id) ON DELETE CASCADE,
    href          TEXT    NOT NULL,
    name          TEXT    NOT NULL DEFAULT '',
    busy          BOOLEAN NOT NULL DEFAULT 1 CHECK (busy IN (0, 1)),
    push          BOOLEAN NOT NULL DEFAULT 0 CHECK (push IN (0, 1)),
    UNIQUE (connection_id, href)
);
CREATE TABLE calendar_busy (
    id            INTEGER PRIMARY KEY,
    connection_id INTEGER NOT NULL REFERENCES calendar_connections (id) ON DELETE CASCADE,
    provider_id   INTEGER NOT NULL,
    starts_at     INTEGER NOT NULL,
    ends_at       INTEGER NOT NULL,
    summary       TEXT    NOT NULL DEFAULT '',
    CHECK (ends_at > starts_at AND ends_at - starts_at <= 172800000)
);
CREATE TABLE booking_series (
    id             INTEGER PRIMARY KEY,
    -- 'weekly': every interval_weeks weeks; 'monthly': the week_of_month-th weekday of each
    -- month (1–4, or -1 for the last), that weekday being the first occurrence's.
    freq           TEXT    NOT NULL CHECK (freq = 'weekly' OR freq = 'monthly'),
    interval_weeks INTEGER NOT NULL DEFAULT 1 CHECK (interval_weeks BETWEEN 1 AND 52),
    week_of_month  INTEGER CHECK (week_of_month IS NULL OR week_of_month BETWEEN 1 AND 4 OR week_of_month = -1),
    -- How many occurrences were asked for, and the local date and time of the first.
    count          INTEGER NOT NULL CHECK (count BETWEEN 1 AND 52),
    first_local    TEXT    NOT NULL,
    created_at     INTEGER NOT NULL,
    CHECK ((freq = 'monthly') = (week_of_month IS NOT NULL))
);
CREATE TABLE appointment_waits (
    id          INTEGER PRIMARY KEY,
    client_id   INTEGER NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    location_id INTEGER NOT NULL REFERENCES locations (id),
    service_id  INTEGER NOT NULL REFERENCES services (id),
    provider_id INTEGER REFERENCES providers (id), -- NULL: anyone
    first_day   TEXT    NOT NULL,                  -- local dates, both included
    last_day    TEXT    NOT NULL CHECK (first_day <= last_day),
    status      TEXT    NOT NULL DEFAULT 'waiting'
        CHECK (status = 'waiting' OR status = 'booked' OR status = 'left'),
    booking_id  INTEGER, -- the booking made (no reference: erasing a client deletes its bookings first)
    source      TEXT    NOT NULL CHECK (source = 'connect' OR source = 'admin' OR source = 'online' OR source = 'mcp'),
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    CHECK ((status = 'booked') = (booking_id IS NOT NULL))
);
CREATE TABLE appointment_offers (
    id          INTEGER PRIMARY KEY,
    wait_id     INTEGER NOT NULL REFERENCES appointment_waits (id) ON DELETE CASCADE,
    token_hash  BLOB    NOT NULL UNIQUE,
    -- The freed time offered: the cancelled or moved booking's provider and times.
    location_id INTEGER NOT NULL REFERENCES locations (id),
    service_id  INTEGER NOT NULL REFERENCES services (id),
    provider_id INTEGER NOT NULL REFERENCES providers (id),
    start_at    INTEGER NOT NULL,
    end_at      INTEGER NOT NULL CHECK (start_at < end_at),
    status      TEXT    NOT NULL DEFAULT 'open'
        CHECK (status = 'open' OR status = 'claimed' OR status = 'gone'),
    booking_id  INTEGER, -- the booking made (no reference: erasing a client deletes its bookings first)
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    CHECK ((status = 'claimed') = (booking_id IS NOT NULL))
);
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
CREATE TABLE booking_resources (
    booking_id     INTEGER NOT NULL REFERENCES bookings (id) ON DELETE CASCADE,
    resource_id    INTEGER NOT NULL REFERENCES resources (id) ON DELETE CASCADE,
    block_start_at INTEGER NOT NULL,
    block_end_at   INTEGER NOT NULL,
    live           BOOLEAN NOT NULL CHECK (live IN (0, 1)),
    PRIMARY KEY (booking_id, resource_id),
    CHECK (block_start_at < block_end_at AND block_end_at - block_start_at <= 172800000)
) WITHOUT ROWID;
CREATE TABLE resource_holds_version (
    resource_id INTEGER PRIMARY KEY,
    n           INTEGER NOT NULL
);
CREATE TABLE visits (
    id          INTEGER PRIMARY KEY,
    location_id INTEGER NOT NULL REFERENCES locations (id),
    client_id   INTEGER NOT NULL REFERENCES clients (id),
    source      TEXT    NOT NULL CHECK (source = 'connect' OR source = 'admin' OR source = 'online' OR source = 'mcp'),
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
CREATE TABLE visit_bookings (
    booking_id INTEGER PRIMARY KEY REFERENCES bookings (id) ON DELETE CASCADE,
    visit_id   INTEGER NOT NULL REFERENCES visits (id) ON DELETE CASCADE,
    position   INTEGER NOT NULL CHECK (position >= 0),
    part       INTEGER NOT NULL DEFAULT 0 CHECK (part IN (0, 1)),
    addon_of   INTEGER CHECK (addon_of IS NULL OR addon_of >= 0), hold_before_ms INTEGER NOT NULL DEFAULT 0
    CHECK (hold_before_ms BETWEEN 0 AND 86400000),
    UNIQUE (visit_id, position, part)
);
CREATE TABLE service_processing (
    service_id     INTEGER PRIMARY KEY REFERENCES services (id) ON DELETE CASCADE,
    after_min      INTEGER NOT NULL CHECK (after_min BETWEEN 5 AND 1439),
    processing_min INTEGER NOT NULL CHECK (processing_min BETWEEN 5 AND 1439)
);
CREATE TABLE service_addons (
    service_id INTEGER NOT NULL REFERENCES services (id) ON DELETE CASCADE,
    addon_id   INTEGER NOT NULL REFERENCES services (id) ON DELETE CASCADE,
    PRIMARY KEY (service_id, addon_id),
    CHECK (service_id <> addon_id)
) WITHOUT ROWID;
CREATE TABLE card_policy (
    id                   INTEGER PRIMARY KEY CHECK (id = 1),
    require_card         BOOLEAN NOT NULL DEFAULT 0 CHECK (require_card IN (0, 1)),
    notice_min           INTEGER NOT NULL DEFAULT 1440 CHECK (notice_min >= 0),
    late_fee_kind        TEXT    NOT NULL DEFAULT 'none' CHECK (late_fee_kind IN ('none', 'amount', 'percent')),
    late_fee_value       INTEGER NOT NULL DEFAULT 0 CHECK (late_fee_value >= 0),
    late_fee_cap_cents   INTEGER CHECK (late_fee_cap_cents IS NULL OR late_fee_cap_cents > 0),
    no_show_fee_kind     TEXT    NOT NULL DEFAULT 'none' CHECK (no_show_fee_kind IN ('none', 'amount', 'percent')),
    no_show_fee_value    INTEGER NOT NULL DEFAULT 0 CHECK (no_show_fee_value >= 0),
    no_show_fee_cap_cents INTEGER CHECK (no_show_fee_cap_cents IS NULL OR no_show_fee_cap_cents > 0),
    charge_days          INTEGER NOT NULL DEFAULT 14 CHECK (charge_days BETWEEN 1 AND 90),
    deposit_new_clients  BOOLEAN NOT NULL DEFAULT 0 CHECK (deposit_new_clients IN (0, 1)),
    deposit_no_shows     INTEGER NOT NULL DEFAULT 0 CHECK (deposit_no_shows >= 0),
    deposit_above_cents  INTEGER CHECK (deposit_above_cents IS NULL OR deposit_above_cents >= 0),
    deposit_kind         TEXT    NOT NULL DEFAULT 'percent' CHECK (deposit_kind IN ('amount', 'percent')),
    deposit_value        INTEGER NOT NULL DEFAULT 0 CHECK (deposit_value >= 0),
    updated_at           INTEGER NOT NULL,
    CHECK (late_fee_kind <> 'percent' OR late_fee_value <= 10000),
    CHECK (no_show_fee_kind <> 'percent' OR no_show_fee_value <= 10000),
    CHECK (deposit_kind <> 'percent' OR deposit_value <= 10000)
);
CREATE TABLE card_services (
    service_id INTEGER PRIMARY KEY REFERENCES services (id) ON DELETE CASCADE
);
CREATE TABLE client_deposit_overrides (
    client_id  INTEGER PRIMARY KEY REFERENCES clients (id) ON DELETE CASCADE,
    mode       TEXT    NOT NULL CHECK (mode IN ('always', 'never')),
    updated_at INTEGER NOT NULL
);
CREATE TABLE client_cards (
    client_id          INTEGER PRIMARY KEY REFERENCES clients (id) ON DELETE CASCADE,
    provider           TEXT    NOT NULL,
    customer_ref       TEXT    NOT NULL,
    payment_method_ref TEXT    NOT NULL,
    brand              TEXT    NOT NULL DEFAULT '',
    last4              TEXT    NOT NULL DEFAULT '',
    saved_at           INTEGER NOT NULL
);
CREATE TABLE booking_cards (
    booking_id         INTEGER PRIMARY KEY REFERENCES bookings (id) ON DELETE CASCADE,
    client_id          INTEGER NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    provider           TEXT    NOT NULL,
    customer_ref       TEXT    NOT NULL,
    payment_method_ref TEXT    NOT NULL,
    brand              TEXT    NOT NULL DEFAULT '',
    last4              TEXT    NOT NULL DEFAULT '',
    saved_at           INTEGER NOT NULL
);
CREATE TABLE card_setups (
    id                 INTEGER PRIMARY KEY,
    payment_request_id INTEGER NOT NULL REFERENCES payment_requests (id),
    provider           TEXT    NOT NULL,
    attempt            INTEGER NOT NULL CHECK (attempt >= 1),
    idempotency_key    TEXT    NOT NULL UNIQUE,
    status             TEXT    NOT NULL CHECK (status IN ('creating', 'open', 'saved', 'expired', 'failed')),
    session_id         TEXT    UNIQUE,
    url                TEXT    NOT NULL DEFAULT '',
    customer_ref       TEXT    NOT NULL DEFAULT '',
    expires_at         INTEGER NOT NULL,
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL,
    UNIQUE (payment_request_id, provider, attempt)
);
CREATE TABLE booking_fees (
    id                 INTEGER PRIMARY KEY,
    booking_id         INTEGER NOT NULL REFERENCES bookings (id),
    kind               TEXT    NOT NULL CHECK (kind IN ('no_show', 'late_cancel')),
    amount_cents       INTEGER NOT NULL CHECK (amount_cents > 0),
    currency           TEXT    NOT NULL CHECK (length(currency) = 3),
    status             TEXT    NOT NULL CHECK (status IN ('charging', 'paid', 'link_sent', 'failed')),
    attempt            INTEGER NOT NULL DEFAULT 1 CHECK (attempt >= 1),
    idempotency_key    TEXT    NOT NULL UNIQUE,
    payment_ref        TEXT    NOT NULL DEFAULT '',
    payment_request_id INTEGER REFERENCES payment_requests (id),
    sale_id            INTEGER REFERENCES sales (id),
    failure            TEXT    NOT NULL DEFAULT '',
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL,
    UNIQUE (booking_id, kind),
    CHECK (status <> 'paid' OR sale_id IS NOT NULL OR payment_request_id IS NOT NULL)
);
CREATE TABLE gift_card_settings (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    expiry_months INTEGER NOT NULL DEFAULT 0 CHECK (expiry_months BETWEEN 0 AND 120),
    sell_online   BOOLEAN NOT NULL DEFAULT 0 CHECK (sell_online BETWEEN 0 AND 1),
    updated_at    INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE gift_cards (
    id              INTEGER PRIMARY KEY,
    -- 16 characters of Crockford's base32 (80 random bits), shown in groups of four.
    code            TEXT    NOT NULL UNIQUE CHECK (length(code) = 16),
    value_cents     INTEGER NOT NULL CHECK (value_cents > 0),
    balance_cents   INTEGER NOT NULL DEFAULT 0 CHECK (balance_cents >= 0 AND balance_cents <= value_cents),
    -- pending: sold, not paid yet; active: paid (issued); void: cancelled by the owner.
    status          TEXT    NOT NULL CHECK (status IN ('pending', 'active', 'void')),
    source          TEXT    NOT NULL CHECK (source IN ('desk', 'site')),
    expires_at      INTEGER,
    buyer_name      TEXT    NOT NULL,
    buyer_email     TEXT    NOT NULL DEFAULT '',
    recipient_name  TEXT    NOT NULL DEFAULT '',
    recipient_email TEXT    NOT NULL DEFAULT '',
    message         TEXT    NOT NULL DEFAULT '',
    -- Who is emailed the card when it is issued.
    send_to         TEXT    NOT NULL CHECK (send_to IN ('buyer', 'recipient', 'none')),
    cart_id         INTEGER NOT NULL REFERENCES carts (id),
    sale_id         INTEGER REFERENCES sales (id),
    issued_at       INTEGER,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
);
CREATE TABLE gift_card_holds (
    id                 INTEGER PRIMARY KEY,
    gift_card_id       INTEGER NOT NULL REFERENCES gift_cards (id),
    payment_request_id INTEGER NOT NULL REFERENCES payment_requests (id),
    amount_cents       INTEGER NOT NULL CHECK (amount_cents > 0),
    status             TEXT    NOT NULL CHECK (status IN ('held', 'captured', 'released')),
    sale_id            INTEGER REFERENCES sales (id),
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL,
    UNIQUE (payment_request_id, gift_card_id)
);
CREATE TABLE gift_card_movements (
    id                 INTEGER PRIMARY KEY,
    gift_card_id       INTEGER NOT NULL REFERENCES gift_cards (id),
    kind               TEXT    NOT NULL CHECK (kind IN ('issue', 'redeem', 'hold', 'capture', 'release', 'void')),
    amount_cents       INTEGER NOT NULL,
    balance_after      INTEGER NOT NULL CHECK (balance_after >= 0),
    payment_request_id INTEGER REFERENCES payment_requests (id),
    sale_id            INTEGER REFERENCES sales (id),
    created_at         INTEGER NOT NULL,
    CHECK ((kind IN ('issue', 'release') AND amount_cents > 0)
        OR (kind IN ('redeem', 'hold', 'void') AND amount_cents < 0)
        OR (kind = 'capture' AND amount_cents = 0))
);
CREATE TABLE membership_plans (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    price_cents INTEGER NOT NULL CHECK (price_cents > 0),
    -- A discount on the member's purchases, in basis points (1000: 10 %).
    discount_bp INTEGER NOT NULL DEFAULT 0 CHECK (discount_bp BETWEEN 0 AND 10000),
    -- Unused sessions roll over into the next period (1) or expire at the period's end (0).
    rollover    BOOLEAN NOT NULL DEFAULT 0 CHECK (rollover BETWEEN 0 AND 1),
    active      BOOLEAN NOT NULL DEFAULT 1 CHECK (active BETWEEN 0 AND 1),
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
CREATE TABLE membership_plan_services (
    plan_id    INTEGER NOT NULL REFERENCES membership_plans (id) ON DELETE CASCADE,
    service_id INTEGER NOT NULL REFERENCES services (id),
    sessions   INTEGER NOT NULL CHECK (sessions BETWEEN 1 AND 1000),
    PRIMARY KEY (plan_id, service_id)
);
CREATE TABLE memberships (
    id                    INTEGER PRIMARY KEY,
    uuid                  TEXT    NOT NULL UNIQUE,
    plan_id               INTEGER NOT NULL REFERENCES membership_plans (id),
    client_id             INTEGER NOT NULL REFERENCES clients (id),
    status                TEXT    NOT NULL CHECK (status IN ('pending', 'active', 'paused', 'cancelled')),
    paused_by             TEXT    CHECK (paused_by IS NULL OR paused_by IN ('owner', 'client', 'payment_failed')),
    provider              TEXT    NOT NULL,
    checkout_session_id   TEXT,
    customer_ref          TEXT,
    subscription_ref      TEXT    UNIQUE,
    current_period_end    INTEGER,
    created_at            INTEGER NOT NULL,
    updated_at            INTEGER NOT NULL
);
CREATE TABLE membership_periods (
    id            INTEGER PRIMARY KEY,
    membership_id INTEGER NOT NULL REFERENCES memberships (id),
    period_start  INTEGER NOT NULL,
    period_end    INTEGER NOT NULL CHECK (period_end > period_start),
    invoice_ref   TEXT    NOT NULL,
    amount_cents  INTEGER NOT NULL,
    currency      TEXT    NOT NULL,
    created_at    INTEGER NOT NULL, sale_id INTEGER REFERENCES sales (id),
    UNIQUE (membership_id, period_start)
);
CREATE TABLE calendar_pushes (
    booking_id    INTEGER PRIMARY KEY,
    provider_id   INTEGER NOT NULL,
    version       INTEGER NOT NULL DEFAULT 1,
    due_at        INTEGER,
    attempts      INTEGER NOT NULL DEFAULT 0,
    last_error    TEXT    NOT NULL DEFAULT '',
    attempted_at  INTEGER,
    connection_id INTEGER REFERENCES calendar_connections (id) ON DELETE SET NULL,
    href          TEXT    NOT NULL DEFAULT '',
    etag          TEXT    NOT NULL DEFAULT ''
);
CREATE TABLE membership_plan_discounts (
    plan_id    INTEGER NOT NULL REFERENCES membership_plans (id) ON DELETE CASCADE,
    service_id INTEGER NOT NULL REFERENCES services (id),
    PRIMARY KEY (plan_id, service_id)
);
CREATE TABLE reminder_horizon (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    through_at INTEGER NOT NULL
);
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (1, 0, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (2, 1, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (3, 10, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (4, 11, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (5, 20, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (6, 30, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (7, 50, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (8, 51, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (9, 90, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (10, 100, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (11, 110, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (12, 111, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (13, 112, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (14, 113, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (15, 120, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (16, 130, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (17, 131, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (18, 200, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (19, 220, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (20, 221, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (21, 222, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (22, 230, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (23, 231, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (24, 240, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (25, 250, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (26, 270, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (27, 290, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (28, 310, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (29, 330, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (30, 331, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (31, 332, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (32, 355, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (33, 356, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (34, 357, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (35, 360, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (36, 361, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (37, 362, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (38, 363, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (39, 368, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (40, 370, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (41, 371, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (42, 380, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (43, 381, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (44, 382, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (45, 400, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (46, 410, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (47, 411, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (48, 412, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (49, 415, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (50, 420, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (51, 430, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (52, 431, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (53, 432, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (54, 450, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (55, 470, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (56, 480, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (57, 490, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (58, 500, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (59, 510, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (60, 520, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (61, 530, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (62, 540, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (63, 541, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (64, 542, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (65, 550, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (66, 551, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (67, 560, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (68, 570, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (69, 571, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (70, 580, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (71, 581, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (72, 582, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (73, 590, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (74, 600, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (75, 610, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (76, 620, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (77, 621, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (78, 630, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (79, 631, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (80, 690, 1, datetime('now'));
INSERT INTO "goose_db_version" ("id", "version_id", "is_applied", "tstamp") VALUES (81, 700, 1, datetime('now'));
INSERT INTO "booking_statuses" ("id", "name", "internal_name", "description") VALUES (1, 'Confirmed', 'confirmed', 'The client confirmed the appointment.');
INSERT INTO "booking_statuses" ("id", "name", "internal_name", "description") VALUES (2, 'Reserved', 'reserved', 'Held for the client, for example while a payment request is pending.');
INSERT INTO "booking_statuses" ("id", "name", "internal_name", "description") VALUES (3, 'Attended', 'attended', 'The client came.');
INSERT INTO "booking_statuses" ("id", "name", "internal_name", "description") VALUES (4, 'No show', 'no_show', 'The client did not come.');
INSERT INTO "booking_statuses" ("id", "name", "internal_name", "description") VALUES (5, 'Cancelled', 'cancelled', 'Cancelled; the time is free again.');
INSERT INTO "payment_methods" ("id", "type", "name") VALUES (1, 'CompanyPaymentMethod', 'Cash');
INSERT INTO "payment_methods" ("id", "type", "name") VALUES (2, 'CompanyPaymentMethod', 'Card terminal');
INSERT INTO "payment_methods" ("id", "type", "name") VALUES (3, 'CompanyPaymentMethod', 'Bank transfer');
INSERT INTO "payment_methods" ("id", "type", "name") VALUES (4, 'CompanyPaymentMethod', 'Online Payment');
INSERT INTO "payment_methods" ("id", "type", "name") VALUES (5, 'CompanyPaymentMethod', 'Gift card');
INSERT INTO "catalog_version" ("id", "n") VALUES (1, 0);
INSERT INTO "mcp_settings" ("id", "enabled", "slot_key", "updated_at") VALUES (1, 1, randomblob(32), 0);
INSERT INTO "class_settings" ("id", "pack_expiry_days", "waitlist_cutoff_min", "updated_at") VALUES (1, 0, 120, 0);
INSERT INTO "site_settings" ("id", "enabled", "display_name", "logo_url", "logo_type", "logo", "accent", "policy_text", "frame_origins", "calendar_id", "updated_at", "repeat_online") VALUES (1, 0, '', '', '', NULL, '#1f5fbf', '', '', lower(hex(randomblob(16))), 0, 0);
INSERT INTO "message_settings" ("id", "smtp_host", "smtp_port", "smtp_security", "smtp_username", "smtp_password_sealed", "from_name", "from_address", "reply_to", "owner_address", "reminder_offsets", "unsubscribe_key", "updated_at", "copy_replies") VALUES (1, '', 587, 'starttls', '', '', '', '', '', '', '1440,120', randomblob(32), 0, 0);
INSERT INTO "message_kinds" ("kind", "enabled", "owner_copy", "by_text") VALUES ('confirmation', 1, 0, 1);
INSERT INTO "message_kinds" ("kind", "enabled", "owner_copy", "by_text") VALUES ('rescheduled', 1, 0, 1);
INSERT INTO "message_kinds" ("kind", "enabled", "owner_copy", "by_text") VALUES ('cancelled', 1, 0, 1);
INSERT INTO "message_kinds" ("kind", "enabled", "owner_copy", "by_text") VALUES ('reminder', 1, 0, 1);
INSERT INTO "message_kinds" ("kind", "enabled", "owner_copy", "by_text") VALUES ('payment_request', 1, 0, 1);
INSERT INTO "message_kinds" ("kind", "enabled", "owner_copy", "by_text") VALUES ('receipt', 1, 0, 1);
INSERT INTO "message_kinds" ("kind", "enabled", "owner_copy", "by_text") VALUES ('waitlist_seat', 1, 0, 1);
INSERT INTO "team_settings" ("id", "providers_edit_own_hours", "updated_at") VALUES (1, 0, 0);
INSERT INTO "security_settings" ("id", "require_two_factor", "updated_at") VALUES (1, 0, 0);
INSERT INTO "message_text_settings" ("id", "sms_provider", "twilio_account_sid", "twilio_auth_token_sealed", "twilio_from", "gateway_url", "gateway_method", "gateway_auth_name", "gateway_auth_value_sealed", "gateway_content_type", "gateway_body", "updated_at") VALUES (1, 'none', '', '', '', '', 'POST', 'Authorization', '', 'application/json', '{"to": "{{to}}", "message": "{{text}}"}', 0);
INSERT INTO "message_whatsapp_settings" ("id", "enabled", "phone_number_id", "access_token_sealed", "app_secret_sealed", "verify_token", "updated_at") VALUES (1, 0, '', '', '', '', 0);
INSERT INTO "message_text_policy" ("id", "daily_cap", "quiet_enabled", "quiet_start_min", "quiet_end_min", "price_per_1000_cents", "updated_at") VALUES (1, 200, 1, 1260, 480, 0, 0);
INSERT INTO "gift_card_settings" ("id", "expiry_months", "sell_online", "updated_at") VALUES (1, 0, 0, 0);
INSERT INTO "reminder_horizon" ("id", "through_at") VALUES (1, 0);
DELETE FROM sqlite_sequence;
INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('goose_db_version', 81);
CREATE INDEX location_hours_location ON location_hours (location_id, day_id);
CREATE INDEX categories_order ON categories (sort_order, id);
CREATE INDEX service_images_service ON service_images (service_id, position);
CREATE INDEX provider_locations_location ON provider_locations (location_id, provider_id);
CREATE INDEX service_providers_provider ON service_providers (provider_id, service_id);
CREATE INDEX provider_hours_provider ON provider_hours (provider_id, location_id, day_id);
CREATE INDEX provider_breaks_hours ON provider_breaks (hours_id);
CREATE INDEX provider_time_off_provider ON provider_time_off (provider_id, starts_at);
CREATE INDEX attribute_options_attribute ON attribute_options (attribute_id, sort_order);
CREATE INDEX clients_email ON clients (email);
CREATE INDEX clients_phone ON clients (phone);
CREATE INDEX cart_items_cart ON cart_items (cart_id, position);
CREATE INDEX payment_requests_cart ON payment_requests (cart_id);
CREATE INDEX payment_requests_pending ON payment_requests (expires_at) WHERE status = 'pending';
CREATE INDEX sales_paid_at ON sales (paid_at);
CREATE INDEX transactions_sale ON transactions (sale_id);
CREATE INDEX sessions_expiry ON sessions (expiry_at);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
CREATE INDEX webhook_secrets_webhook ON webhook_secrets (webhook_id);
CREATE INDEX events_created ON events (created_at);
CREATE INDEX deliveries_webhook ON deliveries (webhook_id, created_at);
CREATE INDEX deliveries_event ON deliveries (event_id);
CREATE INDEX delivery_attempts_delivery ON delivery_attempts (delivery_id, attempt);
CREATE INDEX delivery_attempts_started ON delivery_attempts (started_at);
CREATE INDEX clients_first_name_nocase ON clients (first_name COLLATE NOCASE);
CREATE INDEX clients_last_name_nocase ON clients (last_name COLLATE NOCASE);
CREATE INDEX clients_identification_nocase ON clients (identification_number COLLATE NOCASE);
CREATE INDEX clients_record_number_nocase ON clients (record_number COLLATE NOCASE);
CREATE TRIGGER client_search_insert AFTER INSERT ON clients
BEGIN
    INSERT INTO client_search (rowid, doc)
    VALUES (NEW.id, NEW.first_name || ' ' || coalesce(NEW.last_name, '') || char(31) || coalesce(NEW.email, '')
        || char(31) || coalesce(NEW.phone, '') || char(31) || coalesce(NEW.identification_number, '')
        || char(31) || coalesce(NEW.record_number, ''));
END;
CREATE TRIGGER client_search_update
AFTER UPDATE OF first_name, last_name, email, phone, identification_number, record_number ON clients
BEGIN
    UPDATE client_search
    SET doc = NEW.first_name || ' ' || coalesce(NEW.last_name, '') || char(31) || coalesce(NEW.email, '')
        || char(31) || coalesce(NEW.phone, '') || char(31) || coalesce(NEW.identification_number, '')
        || char(31) || coalesce(NEW.record_number, '')
    WHERE rowid = NEW.id;
END;
CREATE TRIGGER client_search_delete AFTER DELETE ON clients
BEGIN
    DELETE FROM client_search WHERE rowid = OLD.id;
END;
CREATE INDEX provider_images_provider ON provider_images (provider_id, position);
CREATE UNIQUE INDEX payment_requests_one_pending ON payment_requests (cart_id) WHERE status = 'pending';
CREATE UNIQUE INDEX sales_one_paid_per_cart ON sales (cart_id) WHERE status IN ('paid', 'partially_paid');
CREATE INDEX bookings_payment_request ON bookings (payment_request_id) WHERE payment_request_id IS NOT NULL;
CREATE INDEX sales_client ON sales (client_id, paid_at);
CREATE INDEX sales_location ON sales (location_id, paid_at);
CREATE INDEX deliveries_pending ON deliveries (webhook_id, attempts > series_base, next_attempt_at)
    WHERE state = 'pending';
CREATE TRIGGER catalog_version_company_insert AFTER INSERT ON company
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_company_update AFTER UPDATE ON company
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_company_delete AFTER DELETE ON company
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_locations_insert AFTER INSERT ON locations
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_locations_update AFTER UPDATE ON locations
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_locations_delete AFTER DELETE ON locations
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_location_hours_insert AFTER INSERT ON location_hours
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_location_hours_update AFTER UPDATE ON location_hours
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_location_hours_delete AFTER DELETE ON location_hours
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_location_closures_insert AFTER INSERT ON location_closures
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_location_closures_update AFTER UPDATE ON location_closures
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_location_closures_delete AFTER DELETE ON location_closures
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_services_insert AFTER INSERT ON services
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_services_update AFTER UPDATE ON services
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_services_delete AFTER DELETE ON services
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_providers_insert AFTER INSERT ON providers
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_providers_update AFTER UPDATE ON providers
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_providers_delete AFTER DELETE ON providers
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_provider_locations_insert AFTER INSERT ON provider_locations
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_provider_locations_update AFTER UPDATE ON provider_locations
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_provider_locations_delete AFTER DELETE ON provider_locations
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_service_providers_insert AFTER INSERT ON service_providers
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_service_providers_update AFTER UPDATE ON service_providers
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_service_providers_delete AFTER DELETE ON service_providers
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_provider_hours_insert AFTER INSERT ON provider_hours
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_provider_hours_update AFTER UPDATE ON provider_hours
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_provider_hours_delete AFTER DELETE ON provider_hours
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_provider_breaks_insert AFTER INSERT ON provider_breaks
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_provider_breaks_update AFTER UPDATE ON provider_breaks
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_provider_breaks_delete AFTER DELETE ON provider_breaks
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_booking_statuses_insert AFTER INSERT ON booking_statuses
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_booking_statuses_update AFTER UPDATE ON booking_statuses
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_booking_statuses_delete AFTER DELETE ON booking_statuses
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE INDEX bookings_provider_blocks ON bookings (provider_id, block_start_at, block_end_at, status_id);
CREATE INDEX bookings_location_list ON bookings (location_id, start_at, id, status_id, scheduled);
CREATE INDEX bookings_client_list ON bookings (client_id, start_at, id, status_id, scheduled);
CREATE INDEX bookings_service_list ON bookings (service_id, start_at, id, status_id, scheduled);
CREATE INDEX bookings_provider_list ON bookings (provider_id, start_at, id, status_id, scheduled);
CREATE TRIGGER catalog_version_categories_insert AFTER INSERT ON categories
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_categories_update AFTER UPDATE ON categories
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_categories_delete AFTER DELETE ON categories
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_service_images_insert AFTER INSERT ON service_images
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_service_images_update AFTER UPDATE ON service_images
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_service_images_delete AFTER DELETE ON service_images
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER api_keys_scopes_insert BEFORE INSERT ON api_keys
WHEN NEW.scopes = '' OR NEW.scopes GLOB ',*' OR NEW.scopes GLOB '*,' OR NEW.scopes GLOB '*,,*'
    OR NEW.scopes GLOB '*[ ]*' OR (NEW.scopes GLOB '*[*]*' AND NEW.scopes <> '*')
BEGIN
    SELECT RAISE(ABORT, 'api_key_scopes_invalid');
END;
CREATE TRIGGER api_keys_scopes_update BEFORE UPDATE OF scopes ON api_keys
WHEN NEW.scopes = '' OR NEW.scopes GLOB ',*' OR NEW.scopes GLOB '*,' OR NEW.scopes GLOB '*,,*'
    OR NEW.scopes GLOB '*[ ]*' OR (NEW.scopes GLOB '*[*]*' AND NEW.scopes <> '*')
BEGIN
    SELECT RAISE(ABORT, 'api_key_scopes_invalid');
END;
CREATE UNIQUE INDEX products_sku ON products (sku COLLATE NOCASE) WHERE sku IS NOT NULL;
CREATE INDEX products_active ON products (active, id);
CREATE TRIGGER product_search_insert AFTER INSERT ON products
BEGIN
    INSERT INTO product_search (rowid, doc) VALUES (NEW.id, NEW.name || char(31) || coalesce(NEW.sku, ''));
END;
CREATE TRIGGER product_search_update AFTER UPDATE OF name, sku ON products
BEGIN
    UPDATE product_search SET doc = NEW.name || char(31) || coalesce(NEW.sku, '') WHERE rowid = NEW.id;
END;
CREATE TRIGGER product_search_delete AFTER DELETE ON products
BEGIN
    DELETE FROM product_search WHERE rowid = OLD.id;
END;
CREATE INDEX cart_items_product ON cart_items (product_id) WHERE product_id IS NOT NULL;
CREATE TRIGGER cart_items_product_insert BEFORE INSERT ON cart_items
WHEN (NEW.item_type = 'product') <> (NEW.product_id IS NOT NULL)
    OR (NEW.product_id IS NOT NULL AND (NEW.product_id <> NEW.item_id
        OR NOT EXISTS (SELECT 1 FROM products p WHERE p.id = NEW.product_id AND p.active = 1
                       AND (p.stock IS NULL OR p.stock >= NEW.quantity))))
BEGIN
    SELECT RAISE(ABORT, 'cart_item_product_invalid');
END;
CREATE INDEX class_timetable_location ON class_timetable (location_id, day_id, start_min);
CREATE INDEX class_timetable_provider ON class_timetable (provider_id);
CREATE UNIQUE INDEX class_sessions_timetable_date ON class_sessions (timetable_id, local_date)
    WHERE timetable_id IS NOT NULL;
CREATE INDEX class_sessions_provider_block ON class_sessions (provider_id, block_start_at, block_end_at, status);
CREATE INDEX class_sessions_location_start ON class_sessions (location_id, start_at);
CREATE INDEX bookings_session ON bookings (session_id, status_id) WHERE session_id IS NOT NULL;
CREATE UNIQUE INDEX bookings_one_seat_per_client ON bookings (session_id, client_id)
    WHERE session_id IS NOT NULL AND status_id <> 5;
CREATE TRIGGER class_sessions_no_overlap_insert
BEFORE INSERT ON class_sessions
WHEN NEW.status = 'scheduled'
BEGIN
    SELECT RAISE(ABORT, 'slot_unavailable')
    WHERE EXISTS (
        SELECT 1 FROM bookings b
        WHERE b.provider_id = NEW.provider_id
          AND b.status_id <> 5
          AND b.block_start_at > NEW.block_start_at - 172800000
          AND b.block_start_at < NEW.block_end_at
          AND b.block_end_at > NEW.block_start_at
    ) OR EXISTS (
        SELECT 1 FROM class_sessions s
        WHERE s.provider_id = NEW.provider_id
          AND s.status = 'scheduled'
          AND s.block_start_at > NEW.block_start_at - 172800000
          AND s.block_start_at < NEW.block_end_at
          AND s.block_end_at > NEW.block_start_at
    );
END;
CREATE TRIGGER class_sessions_no_overlap_update
BEFORE UPDATE OF provider_id, status, block_start_at, block_end_at ON class_sessions
WHEN NEW.status = 'scheduled'
BEGIN
    SELECT RAISE(ABORT, 'slot_unavailable')
    WHERE EXISTS (
        SELECT 1 FROM bookings b
        WHERE b.provider_id = NEW.provider_id
          AND b.status_id <> 5
          AND b.block_start_at > NEW.block_start_at - 172800000
          AND b.block_start_at < NEW.block_end_at
          AND b.block_end_at > NEW.block_start_at
          AND b.session_id IS NOT NEW.id
    ) OR EXISTS (
        SELECT 1 FROM class_sessions s
        WHERE s.provider_id = NEW.provider_id
          AND s.id <> NEW.id
          AND s.status = 'scheduled'
          AND s.block_start_at > NEW.block_start_at - 172800000
          AND s.block_start_at < NEW.block_end_at
          AND s.block_end_at > NEW.block_start_at
    );
END;
CREATE TRIGGER class_sessions_keep_attendees
BEFORE UPDATE OF location_id, service_id, provider_id, start_at, end_at, block_start_at, block_end_at, status
ON class_sessions
WHEN NEW.status <> 'scheduled' OR NEW.location_id <> OLD.location_id OR NEW.service_id <> OLD.service_id
    OR NEW.provider_id <> OLD.provider_id OR NEW.start_at <> OLD.start_at OR NEW.end_at <> OLD.end_at
    OR NEW.block_start_at <> OLD.block_start_at OR NEW.block_end_at <> OLD.block_end_at
BEGIN
    SELECT RAISE(ABORT, 'session_has_attendees')
    WHERE EXISTS (SELECT 1 FROM bookings b WHERE b.session_id = OLD.id AND b.status_id <> 5);
END;
CREATE TRIGGER bookings_no_overlap_insert
BEFORE INSERT ON bookings
WHEN NEW.status_id <> 5 AND NEW.session_id IS NULL
BEGIN
    SELECT RAISE(ABORT, 'slot_unavailable')
    WHERE EXISTS (
        SELECT 1 FROM bookings b
        WHERE b.provider_id = NEW.provider_id
          AND b.status_id <> 5
          AND b.block_start_at > NEW.block_start_at - 172800000
          AND b.block_start_at < NEW.block_end_at
          AND b.block_end_at > NEW.block_start_at
    ) OR EXISTS (
        SELECT 1 FROM class_sessions s
        WHERE s.provider_id = NEW.provider_id
          AND s.status = 'scheduled'
          AND s.block_start_at > NEW.block_start_at - 172800000
          AND s.block_start_at < NEW.block_end_at
          AND s.block_end_at > NEW.block_start_at
    );
END;
CREATE TRIGGER bookings_no_overlap_update
BEFORE UPDATE OF provider_id, status_id, block_start_at, block_end_at, session_id ON bookings
WHEN NEW.status_id <> 5 AND NEW.session_id IS NULL
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
    ) OR EXISTS (
        SELECT 1 FROM class_sessions s
        WHERE s.provider_id = NEW.provider_id
          AND s.status = 'scheduled'
          AND s.block_start_at > NEW.block_start_at - 172800000
          AND s.block_start_at < NEW.block_end_at
          AND s.block_end_at > NEW.block_start_at
    );
END;
CREATE TRIGGER bookings_session_seat_insert
BEFORE INSERT ON bookings
WHEN NEW.status_id <> 5 AND NEW.session_id IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'session_cancelled')
    WHERE NOT EXISTS (SELECT 1 FROM class_sessions s WHERE s.id = NEW.session_id AND s.status = 'scheduled');
    SELECT RAISE(ABORT, 'session_mismatch')
    WHERE NOT EXISTS (
        SELECT 1 FROM class_sessions s
        WHERE s.id = NEW.session_id AND s.location_id = NEW.location_id AND s.service_id = NEW.service_id
          AND s.provider_id = NEW.provider_id AND s.start_at = NEW.start_at AND s.end_at = NEW.end_at
          AND s.block_start_at = NEW.block_start_at AND s.block_end_at = NEW.block_end_at
    );
    SELECT RAISE(ABORT, 'class_full')
    WHERE (SELECT count(*) FROM bookings b WHERE b.session_id = NEW.session_id AND b.status_id <> 5)
        >= (SELECT coalesce(s.capacity, sv.capacity) FROM class_sessions s JOIN services sv ON sv.id = s.service_id
            WHERE s.id = NEW.session_id);
END;
CREATE TRIGGER bookings_session_match_update
BEFORE UPDATE OF session_id, location_id, service_id, provider_id, start_at, end_at, block_start_at, block_end_at
ON bookings
WHEN NEW.status_id <> 5 AND NEW.session_id IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'session_cancelled')
    WHERE NOT EXISTS (SELECT 1 FROM class_sessions s WHERE s.id = NEW.session_id AND s.status = 'scheduled');
    SELECT RAISE(ABORT, 'session_mismatch')
    WHERE NOT EXISTS (
        SELECT 1 FROM class_sessions s
        WHERE s.id = NEW.session_id AND s.location_id = NEW.location_id AND s.service_id = NEW.service_id
          AND s.provider_id = NEW.provider_id AND s.start_at = NEW.start_at AND s.end_at = NEW.end_at
          AND s.block_start_at = NEW.block_start_at AND s.block_end_at = NEW.block_end_at
    );
END;
CREATE TRIGGER bookings_session_seat_update
BEFORE UPDATE OF session_id ON bookings
WHEN NEW.status_id <> 5 AND NEW.session_id IS NOT NULL AND OLD.session_id IS NOT NEW.session_id
BEGIN
    SELECT RAISE(ABORT, 'class_full')
    WHERE (SELECT count(*) FROM bookings b WHERE b.session_id = NEW.session_id AND b.status_id <> 5 AND b.id <> NEW.id)
        >= (SELECT coalesce(s.capacity, sv.capacity) FROM class_sessions s JOIN services sv ON sv.id = s.service_id
            WHERE s.id = NEW.session_id);
END;
CREATE TRIGGER bookings_cancel_is_final
BEFORE UPDATE OF status_id ON bookings
WHEN OLD.status_id = 5 AND NEW.status_id <> 5
BEGIN
    SELECT RAISE(ABORT, 'booking_cancelled');
END;
CREATE INDEX client_packs_client ON client_packs (client_id, service_id);
CREATE INDEX client_packs_sale ON client_packs (sale_id) WHERE sale_id IS NOT NULL;
CREATE INDEX bookings_pack ON bookings (pack_id, status_id, pack_returned) WHERE pack_id IS NOT NULL;
CREATE TRIGGER bookings_pack_insert
BEFORE INSERT ON bookings
WHEN NEW.pack_id IS NOT NULL AND NEW.status_id <> 5
BEGIN
    SELECT RAISE(ABORT, 'pack_mismatch')
    WHERE NOT EXISTS (SELECT 1 FROM client_packs p
        WHERE p.id = NEW.pack_id AND p.client_id = NEW.client_id AND p.service_id = NEW.service_id);
    SELECT RAISE(ABORT, 'pack_expired')
    WHERE EXISTS (SELECT 1 FROM client_packs p WHERE p.id = NEW.pack_id AND p.expires_at <= NEW.start_at);
    SELECT RAISE(ABORT, 'pack_used_up')
    WHERE (SELECT count(*) FROM bookings b
           WHERE b.pack_id = NEW.pack_id AND (b.status_id <> 5 OR b.pack_returned = 0))
        >= (SELECT p.sessions_total FROM client_packs p WHERE p.id = NEW.pack_id);
END;
CREATE TRIGGER bookings_pack_update
BEFORE UPDATE OF pack_id, client_id, service_id, start_at ON bookings
WHEN NEW.pack_id IS NOT NULL AND NEW.status_id <> 5
BEGIN
    SELECT RAISE(ABORT, 'pack_mismatch')
    WHERE NOT EXISTS (SELECT 1 FROM client_packs p
        WHERE p.id = NEW.pack_id AND p.client_id = NEW.client_id AND p.service_id = NEW.service_id);
    SELECT RAISE(ABORT, 'pack_expired')
    WHERE EXISTS (SELECT 1 FROM client_packs p WHERE p.id = NEW.pack_id AND p.expires_at <= NEW.start_at);
    SELECT RAISE(ABORT, 'pack_used_up')
    WHERE OLD.pack_id IS NOT NEW.pack_id
      AND (SELECT count(*) FROM bookings b
           WHERE b.pack_id = NEW.pack_id AND b.id <> NEW.id AND (b.status_id <> 5 OR b.pack_returned = 0))
        >= (SELECT p.sessions_total FROM client_packs p WHERE p.id = NEW.pack_id);
END;
CREATE TRIGGER bookings_pack_returned
BEFORE UPDATE OF pack_returned ON bookings
WHEN NEW.pack_returned <> OLD.pack_returned
BEGIN
    SELECT RAISE(ABORT, 'pack_return_final')
    WHERE OLD.pack_returned = 1 OR NEW.status_id <> 5 OR NEW.pack_id IS NULL;
END;
CREATE UNIQUE INDEX waitlist_one_per_client ON waitlist_entries (session_id, client_id) WHERE status = 'waiting';
CREATE INDEX waitlist_queue ON waitlist_entries (session_id, status, id);
CREATE INDEX waitlist_client ON waitlist_entries (client_id, id);
CREATE TRIGGER waitlist_in_order
BEFORE UPDATE OF status ON waitlist_entries
WHEN NEW.status = 'booked' AND OLD.status = 'waiting'
BEGIN
    SELECT RAISE(ABORT, 'waitlist_out_of_order')
    WHERE EXISTS (SELECT 1 FROM waitlist_entries w
        WHERE w.session_id = NEW.session_id AND w.status = 'waiting' AND w.id < NEW.id);
    SELECT RAISE(ABORT, 'waitlist_booking_mismatch')
    WHERE NOT EXISTS (SELECT 1 FROM bookings b
        WHERE b.id = NEW.booking_id AND b.session_id = NEW.session_id AND b.client_id = NEW.client_id
          AND b.status_id <> 5);
END;
CREATE TRIGGER waitlist_final
BEFORE UPDATE OF status ON waitlist_entries
WHEN OLD.status <> 'waiting' AND NEW.status <> OLD.status
BEGIN
    SELECT RAISE(ABORT, 'waitlist_entry_closed');
END;
CREATE INDEX manage_links_booking ON manage_links (booking_id);
CREATE TRIGGER catalog_version_site_settings_update AFTER UPDATE ON site_settings
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_site_locations_insert AFTER INSERT ON site_locations
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_site_locations_update AFTER UPDATE ON site_locations
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_site_locations_delete AFTER DELETE ON site_locations
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_site_attributes_insert AFTER INSERT ON site_attributes
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_site_attributes_delete AFTER DELETE ON site_attributes
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_custom_attributes_insert AFTER INSERT ON custom_attributes
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_custom_attributes_update AFTER UPDATE ON custom_attributes
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_custom_attributes_delete AFTER DELETE ON custom_attributes
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_attribute_options_insert AFTER INSERT ON attribute_options
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_attribute_options_update AFTER UPDATE ON attribute_options
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_attribute_options_delete AFTER DELETE ON attribute_options
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE INDEX messages_pending ON messages (attempts > series_base, next_attempt_at) WHERE state = 'pending';
CREATE INDEX messages_booking ON messages (booking_id, send_at) WHERE booking_id IS NOT NULL;
CREATE UNIQUE INDEX messages_one_pending_reminder ON messages (booking_id, offset_min, recipient)
    WHERE kind = 'reminder' AND state = 'pending';
CREATE INDEX message_attempts_message ON message_attempts (message_id, attempt);
CREATE INDEX message_attempts_started ON message_attempts (started_at);
CREATE TRIGGER payment_provider_needs_credentials_insert
BEFORE INSERT ON payment_provider_settings
WHEN NEW.provider <> 'none' AND NOT EXISTS (
    SELECT 1 FROM payment_provider_credentials c
    WHERE c.provider = NEW.provider AND c.secret_key_sealed <> '' AND c.webhook_secret_sealed <> '')
BEGIN
    SELECT RAISE(ABORT, 'provider_credentials_missing');
END;
CREATE TRIGGER payment_provider_needs_credentials_update
BEFORE UPDATE OF provider ON payment_provider_settings
WHEN NEW.provider <> 'none' AND NOT EXISTS (
    SELECT 1 FROM payment_provider_credentials c
    WHERE c.provider = NEW.provider AND c.secret_key_sealed <> '' AND c.webhook_secret_sealed <> '')
BEGIN
    SELECT RAISE(ABORT, 'provider_credentials_missing');
END;
CREATE UNIQUE INDEX online_checkouts_one_live ON online_checkouts (payment_request_id)
    WHERE status IN ('creating', 'open', 'processing');
CREATE INDEX online_checkouts_live ON online_checkouts (status, payment_request_id)
    WHERE status IN ('creating', 'open', 'processing');
CREATE UNIQUE INDEX online_checkouts_sale ON online_checkouts (sale_id) WHERE sale_id IS NOT NULL;
CREATE INDEX online_checkouts_payment ON online_checkouts (provider, payment_ref) WHERE payment_ref <> '';
CREATE TRIGGER online_checkouts_final
BEFORE UPDATE OF status, sale_id ON online_checkouts
WHEN OLD.status IN ('paid', 'refused') AND (NEW.status <> OLD.status OR NEW.sale_id IS NOT OLD.sale_id)
BEGIN
    SELECT RAISE(ABORT, 'checkout_final');
END;
CREATE INDEX online_payment_events_checkout ON online_payment_events (checkout_id, received_at);
CREATE INDEX online_payment_events_received ON online_payment_events (received_at);
CREATE INDEX payment_flags_open ON payment_flags (created_at) WHERE resolved_at IS NULL;
CREATE INDEX payment_flags_request ON payment_flags (payment_request_id);
CREATE INDEX refunds_checkout ON refunds (checkout_id);
CREATE INDEX refunds_sale ON refunds (sale_id) WHERE sale_id IS NOT NULL;
CREATE TRIGGER refunds_within_received
BEFORE INSERT ON refunds
WHEN NEW.status IN ('pending', 'succeeded') AND NEW.amount_cents + (
    SELECT coalesce(sum(r.amount_cents), 0) FROM refunds r
    WHERE r.checkout_id = NEW.checkout_id AND r.status IN ('pending', 'succeeded')
) > (SELECT coalesce(c.received_cents, 0) FROM online_checkouts c WHERE c.id = NEW.checkout_id)
BEGIN
    SELECT RAISE(ABORT, 'refund_exceeds_payment');
END;
CREATE INDEX bookings_sale ON bookings (sale_id) WHERE sale_id IS NOT NULL;
CREATE TRIGGER etag_clients_insert AFTER INSERT ON clients
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('clients', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_clients_update AFTER UPDATE ON clients
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('clients', 0, 1), ('client', OLD.id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_clients_delete AFTER DELETE ON clients
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('clients', 0, 1), ('client', OLD.id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_client_values_insert AFTER INSERT ON client_attribute_values
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('clients', 0, 1), ('client', NEW.client_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_client_values_update AFTER UPDATE ON client_attribute_values
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('clients', 0, 1), ('client', OLD.client_id, 1), ('client', NEW.client_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_client_values_delete AFTER DELETE ON client_attribute_values
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('clients', 0, 1), ('client', OLD.client_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_custom_attributes_insert AFTER INSERT ON custom_attributes
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('custom_attributes', 0, 1), ('clients', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_custom_attributes_update AFTER UPDATE ON custom_attributes
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('custom_attributes', 0, 1), ('clients', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_custom_attributes_delete AFTER DELETE ON custom_attributes
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('custom_attributes', 0, 1), ('clients', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_attribute_groups_insert AFTER INSERT ON attribute_groups
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('custom_attributes', 0, 1), ('clients', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_attribute_groups_update AFTER UPDATE ON attribute_groups
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('custom_attributes', 0, 1), ('clients', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_attribute_groups_delete AFTER DELETE ON attribute_groups
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('custom_attributes', 0, 1), ('clients', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_attribute_options_insert AFTER INSERT ON attribute_options
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('custom_attributes', 0, 1), ('clients', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_attribute_options_update AFTER UPDATE ON attribute_options
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('custom_attributes', 0, 1), ('clients', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_attribute_options_delete AFTER DELETE ON attribute_options
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('custom_attributes', 0, 1), ('clients', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER catalog_version_provider_images_insert AFTER INSERT ON provider_images
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_provider_images_update AFTER UPDATE ON provider_images
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_provider_images_delete AFTER DELETE ON provider_images
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER etag_products_insert AFTER INSERT ON products
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('products', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_products_update AFTER UPDATE ON products
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('products', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_products_delete AFTER DELETE ON products
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('products', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE INDEX delivery_texts_last_used ON delivery_texts (last_used_at);
CREATE TRIGGER webhook_pauses_active_only BEFORE INSERT ON webhook_pauses
WHEN (SELECT state FROM webhooks WHERE id = NEW.webhook_id) IS NOT 'active'
BEGIN
    SELECT RAISE(ABORT, 'only an active webhook can be paused');
END;
CREATE TRIGGER webhook_pauses_end_on_deactivation AFTER UPDATE OF state ON webhooks
WHEN NEW.state = 'deactivated'
BEGIN
    DELETE FROM webhook_pauses WHERE webhook_id = NEW.id;
END;
CREATE INDEX booking_overrides_booking ON booking_overrides (booking_id);
CREATE INDEX site_waitlist_links_entry ON site_waitlist_links (entry_id);
CREATE TRIGGER etag_sessions_insert AFTER INSERT ON class_sessions
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_provider', NEW.provider_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_sessions_update AFTER UPDATE ON class_sessions
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_provider', OLD.provider_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
    INSERT INTO etag_versions (kind, ref_id, n)
        SELECT 'sessions_provider', NEW.provider_id, 1 WHERE NEW.provider_id <> OLD.provider_id
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_sessions_delete AFTER DELETE ON class_sessions
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_provider', OLD.provider_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_timeoff_insert AFTER INSERT ON provider_time_off
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_provider', NEW.provider_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_timeoff_update AFTER UPDATE ON provider_time_off
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_provider', OLD.provider_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
    INSERT INTO etag_versions (kind, ref_id, n)
        SELECT 'sessions_provider', NEW.provider_id, 1 WHERE NEW.provider_id <> OLD.provider_id
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_timeoff_delete AFTER DELETE ON provider_time_off
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_provider', OLD.provider_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_api_keys_insert AFTER INSERT ON api_keys
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('api_keys', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_api_keys_update AFTER UPDATE ON api_keys
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('api_keys', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_api_keys_delete AFTER DELETE ON api_keys
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('api_keys', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER message_plan_settings_update AFTER UPDATE OF reminder_offsets ON message_settings
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('message_plan', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER message_plan_settings_insert AFTER INSERT ON message_settings
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('message_plan', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER message_plan_settings_delete AFTER DELETE ON message_settings
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('message_plan', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER message_plan_kinds_update AFTER UPDATE OF kind, enabled, owner_copy ON message_kinds
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('message_plan', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER message_plan_kinds_insert AFTER INSERT ON message_kinds
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('message_plan', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER message_plan_kinds_delete AFTER DELETE ON message_kinds
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('message_plan', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER webhooks_enqueue_insert AFTER INSERT ON webhooks
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('webhooks_enqueue', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER webhooks_enqueue_update AFTER UPDATE OF events_json, state ON webhooks
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('webhooks_enqueue', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER webhooks_enqueue_delete AFTER DELETE ON webhooks
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('webhooks_enqueue', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE INDEX owners_provider ON owners (provider_id) WHERE provider_id IS NOT NULL;
CREATE TRIGGER owners_keep_one BEFORE DELETE ON owners
WHEN OLD.role = 'owner' AND OLD.disabled_at IS NULL
    AND (SELECT count(*) FROM owners WHERE role = 'owner' AND disabled_at IS NULL) <= 1
BEGIN
    SELECT RAISE(ABORT, 'the last owner cannot be removed');
END;
CREATE TRIGGER owners_keep_one_active BEFORE UPDATE OF role, disabled_at ON owners
WHEN OLD.role = 'owner' AND OLD.disabled_at IS NULL
    AND (NEW.role <> 'owner' OR NEW.disabled_at IS NOT NULL)
    AND (SELECT count(*) FROM owners WHERE role = 'owner' AND disabled_at IS NULL) <= 1
BEGIN
    SELECT RAISE(ABORT, 'the last owner cannot be disabled or demoted');
END;
CREATE INDEX staff_links_email ON staff_links (email, purpose) WHERE used_at IS NULL;
CREATE INDEX messages_provider ON messages (provider_id, send_at) WHERE provider_id IS NOT NULL;
CREATE TRIGGER messages_skip_on_cancel AFTER UPDATE OF status_id ON bookings
WHEN NEW.status_id = 5 AND OLD.status_id <> 5
BEGIN
    UPDATE messages SET state = 'skipped', note = 'booking cancelled', next_attempt_at = NULL,
        updated_at = NEW.updated_at
    WHERE booking_id = NEW.id AND state = 'pending' AND next_attempt_at IS NOT NULL
      AND kind IN ('confirmation', 'rescheduled', 'reminder', 'waitlist_seat', 'provider_booked', 'provider_moved');
END;
CREATE TRIGGER etag_feed_sessions_insert AFTER INSERT ON class_sessions
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_location', NEW.location_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_feed_sessions_update AFTER UPDATE ON class_sessions
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_location', OLD.location_id, 1), ('session', OLD.id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
    INSERT INTO etag_versions (kind, ref_id, n)
        SELECT 'sessions_location', NEW.location_id, 1 WHERE NEW.location_id <> OLD.location_id
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_feed_sessions_delete AFTER DELETE ON class_sessions
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_location', OLD.location_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE INDEX activity_at ON activity (at);
CREATE INDEX activity_entity ON activity (entity, entity_id, at);
CREATE INDEX activity_actor ON activity (actor_kind, actor_id, at);
CREATE INDEX owner_recovery_codes_owner ON owner_recovery_codes (owner_id);
CREATE INDEX owner_sessions_owner ON owner_sessions (owner_id, last_seen_at);
CREATE INDEX owner_passkeys_owner ON owner_passkeys (owner_id);
CREATE TRIGGER webhook_delivery_counts_insert AFTER INSERT ON deliveries
BEGIN
    INSERT INTO webhook_delivery_counts (webhook_id, state, n) VALUES (NEW.webhook_id, NEW.state, 1)
        ON CONFLICT (webhook_id, state) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER webhook_delivery_counts_update AFTER UPDATE OF state ON deliveries
WHEN OLD.state <> NEW.state
BEGIN
    UPDATE webhook_delivery_counts SET n = n - 1 WHERE webhook_id = OLD.webhook_id AND state = OLD.state;
    INSERT INTO webhook_delivery_counts (webhook_id, state, n) VALUES (NEW.webhook_id, NEW.state, 1)
        ON CONFLICT (webhook_id, state) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER webhook_delivery_counts_delete AFTER DELETE ON deliveries
BEGIN
    UPDATE webhook_delivery_counts SET n = n - 1 WHERE webhook_id = OLD.webhook_id AND state = OLD.state;
END;
CREATE INDEX deliveries_attempted ON deliveries (webhook_id, last_attempt_at)
    WHERE last_attempt_at IS NOT NULL;
CREATE INDEX client_notes_by_client ON client_notes (client_id, created_at DESC, id DESC);
CREATE TRIGGER message_plan_text_settings_update AFTER UPDATE OF sms_provider ON message_text_settings
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('message_plan', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE INDEX inbound_messages_received ON inbound_messages (received_at DESC);
CREATE INDEX message_attempts_provider_id ON message_attempts (message_id_header) WHERE channel <> 'email';
CREATE INDEX messages_text_to ON messages (to_address, last_attempt_at) WHERE channel <> 'email';
CREATE TRIGGER bookings_client_confirmed_moved AFTER UPDATE OF start_at ON bookings
WHEN NEW.client_confirmed_at IS NOT NULL AND NEW.start_at <> OLD.start_at
BEGIN
    UPDATE bookings SET client_confirmed_at = NULL WHERE id = NEW.id;
END;
CREATE TRIGGER message_plan_whatsapp_settings_update AFTER UPDATE OF enabled ON message_whatsapp_settings
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('message_plan', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER message_plan_text_policy_update AFTER UPDATE OF quiet_enabled, quiet_start_min, quiet_end_min ON message_text_policy
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('message_plan', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER message_plan_kinds_by_text_update AFTER UPDATE OF by_text ON message_kinds
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('message_plan', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE INDEX calendar_connections_due ON calendar_connections (next_poll_at);
CREATE INDEX calendar_busy_provider ON calendar_busy (provider_id, starts_at);
CREATE INDEX calendar_busy_connection ON calendar_busy (connection_id);
CREATE TRIGGER etag_calendar_busy_insert AFTER INSERT ON calendar_busy
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_provider', NEW.provider_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_calendar_busy_delete AFTER DELETE ON calendar_busy
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_provider', OLD.provider_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_calendar_busy_update AFTER UPDATE ON calendar_busy
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_provider', OLD.provider_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
    INSERT INTO etag_versions (kind, ref_id, n)
        SELECT 'sessions_provider', NEW.provider_id, 1 WHERE NEW.provider_id <> OLD.provider_id
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER etag_calendar_connection_update AFTER UPDATE OF stale, stale_blocks, provider_id ON calendar_connections
WHEN NEW.stale <> OLD.stale OR NEW.stale_blocks <> OLD.stale_blocks OR NEW.provider_id <> OLD.provider_id
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('sessions_provider', OLD.provider_id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
    INSERT INTO etag_versions (kind, ref_id, n)
        SELECT 'sessions_provider', NEW.provider_id, 1 WHERE NEW.provider_id <> OLD.provider_id
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE INDEX bookings_by_series ON bookings (series_id, start_at) WHERE series_id IS NOT NULL;
CREATE INDEX appointment_waits_queue ON appointment_waits (location_id, service_id, created_at, id)
    WHERE status = 'waiting';
CREATE INDEX appointment_waits_by_client ON appointment_waits (client_id);
CREATE INDEX appointment_offers_by_time ON appointment_offers (provider_id, start_at) WHERE status = 'open';
CREATE INDEX appointment_offers_by_wait ON appointment_offers (wait_id);
CREATE INDEX service_resources_resource ON service_resources (resource_id);
CREATE INDEX booking_resources_by_time ON booking_resources (resource_id, block_start_at, block_end_at, live);
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
CREATE TRIGGER bookings_hold_resources AFTER INSERT ON bookings
BEGIN
    INSERT INTO booking_resources (booking_id, resource_id, block_start_at, block_end_at, live)
    SELECT NEW.id, r.id, NEW.block_start_at, NEW.block_end_at, NEW.status_id <> 5 AND NEW.session_id IS NULL
    FROM service_resources sr JOIN resources r ON r.id = sr.resource_id
    WHERE sr.service_id = NEW.service_id AND r.location_id = NEW.location_id;
END;
CREATE TRIGGER booking_resources_version_insert AFTER INSERT ON booking_resources
BEGIN
    INSERT INTO resource_holds_version (resource_id, n) VALUES (NEW.resource_id, 1)
    ON CONFLICT (resource_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER booking_resources_version_update AFTER UPDATE ON booking_resources
BEGIN
    INSERT INTO resource_holds_version (resource_id, n) VALUES (NEW.resource_id, 1)
    ON CONFLICT (resource_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER booking_resources_version_delete AFTER DELETE ON booking_resources
BEGIN
    INSERT INTO resource_holds_version (resource_id, n) VALUES (OLD.resource_id, 1)
    ON CONFLICT (resource_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER catalog_version_resources_insert AFTER INSERT ON resources
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_resources_update AFTER UPDATE ON resources
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_resources_delete AFTER DELETE ON resources
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_service_resources_insert AFTER INSERT ON service_resources
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_service_resources_delete AFTER DELETE ON service_resources
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_service_processing_insert AFTER INSERT ON service_processing
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_service_processing_update AFTER UPDATE ON service_processing
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER catalog_version_service_processing_delete AFTER DELETE ON service_processing
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE UNIQUE INDEX card_setups_one_live ON card_setups (payment_request_id) WHERE status IN ('creating', 'open');
CREATE TRIGGER card_setups_final
BEFORE UPDATE OF status ON card_setups
WHEN OLD.status = 'saved' AND NEW.status <> 'saved'
BEGIN
    SELECT RAISE(ABORT, 'card_setup_final');
END;
CREATE INDEX gift_cards_cart ON gift_cards (cart_id);
CREATE INDEX gift_cards_list ON gift_cards (status, id);
CREATE INDEX gift_card_holds_card ON gift_card_holds (gift_card_id);
CREATE TRIGGER gift_card_holds_final
BEFORE UPDATE OF status ON gift_card_holds
WHEN OLD.status <> 'held'
BEGIN
    SELECT RAISE(ABORT, 'gift_card_hold_final');
END;
CREATE INDEX gift_card_movements_card ON gift_card_movements (gift_card_id, id);
CREATE TRIGGER gift_card_movements_check
BEFORE INSERT ON gift_card_movements
BEGIN
    SELECT RAISE(ABORT, 'gift_card_not_active')
    WHERE NEW.amount_cents < 0 AND NEW.kind <> 'void'
      AND (SELECT status FROM gift_cards WHERE id = NEW.gift_card_id) <> 'active';
    SELECT RAISE(ABORT, 'gift_card_expired')
    WHERE NEW.amount_cents < 0 AND NEW.kind <> 'void'
      AND (SELECT expires_at FROM gift_cards WHERE id = NEW.gift_card_id) <= NEW.created_at;
    SELECT RAISE(ABORT, 'gift_card_overdrawn')
    WHERE (SELECT balance_cents FROM gift_cards WHERE id = NEW.gift_card_id) + NEW.amount_cents < 0;
    SELECT RAISE(ABORT, 'gift_card_balance_after')
    WHERE (SELECT balance_cents FROM gift_cards WHERE id = NEW.gift_card_id) + NEW.amount_cents <> NEW.balance_after;
END;
CREATE TRIGGER gift_card_movements_apply
AFTER INSERT ON gift_card_movements
WHEN NEW.amount_cents <> 0
BEGIN
    UPDATE gift_cards SET balance_cents = NEW.balance_after, updated_at = NEW.created_at WHERE id = NEW.gift_card_id;
END;
CREATE TRIGGER gift_cards_balance_is_ledger
BEFORE UPDATE OF balance_cents ON gift_cards
WHEN NEW.balance_cents IS NOT (SELECT COALESCE(SUM(amount_cents), 0) FROM gift_card_movements WHERE gift_card_id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'gift_card_balance_not_ledger');
END;
CREATE TRIGGER gift_card_movements_no_update
BEFORE UPDATE ON gift_card_movements
BEGIN
    SELECT RAISE(ABORT, 'gift_card_ledger_immutable');
END;
CREATE TRIGGER gift_card_movements_no_delete
BEFORE DELETE ON gift_card_movements
BEGIN
    SELECT RAISE(ABORT, 'gift_card_ledger_immutable');
END;
CREATE INDEX memberships_client ON memberships (client_id);
CREATE INDEX memberships_status ON memberships (status, id);
CREATE TRIGGER memberships_cancelled_final
BEFORE UPDATE OF status ON memberships
WHEN OLD.status = 'cancelled' AND NEW.status <> 'cancelled'
BEGIN
    SELECT RAISE(ABORT, 'membership_cancelled');
END;
CREATE UNIQUE INDEX client_packs_membership_period ON client_packs (membership_period_id, service_id)
    WHERE membership_period_id IS NOT NULL;
CREATE INDEX calendar_pushes_due ON calendar_pushes (due_at) WHERE due_at IS NOT NULL;
CREATE INDEX calendar_pushes_provider ON calendar_pushes (provider_id) WHERE due_at IS NOT NULL;
CREATE TRIGGER calendar_push_booking_insert AFTER INSERT ON bookings
WHEN NEW.session_id IS NULL AND EXISTS (
    SELECT 1 FROM calendar_connections c JOIN calendar_sources s ON s.connection_id = c.id AND s.push = 1
    WHERE c.provider_id = NEW.provider_id)
BEGIN
    INSERT INTO calendar_pushes (booking_id, provider_id, due_at) VALUES (NEW.id, NEW.provider_id, 0)
        ON CONFLICT (booking_id) DO UPDATE SET provider_id = excluded.provider_id, version = version + 1, due_at = 0, attempts = 0;
END;
CREATE TRIGGER calendar_push_booking_update AFTER UPDATE OF start_at, end_at, status_id, provider_id, service_id, client_id, location_id, scheduled, session_id ON bookings
WHEN (NEW.start_at <> OLD.start_at OR NEW.end_at <> OLD.end_at OR NEW.status_id <> OLD.status_id
        OR NEW.provider_id <> OLD.provider_id OR NEW.service_id <> OLD.service_id OR NEW.client_id <> OLD.client_id
        OR NEW.location_id <> OLD.location_id OR NEW.scheduled <> OLD.scheduled OR NEW.session_id IS NOT OLD.session_id)
    AND (EXISTS (SELECT 1 FROM calendar_pushes WHERE booking_id = NEW.id)
        OR (NEW.session_id IS NULL AND EXISTS (
            SELECT 1 FROM calendar_connections c JOIN calendar_sources s ON s.connection_id = c.id AND s.push = 1
            WHERE c.provider_id = NEW.provider_id)))
BEGIN
    INSERT INTO calendar_pushes (booking_id, provider_id, due_at) VALUES (NEW.id, NEW.provider_id, 0)
        ON CONFLICT (booking_id) DO UPDATE SET provider_id = excluded.provider_id, version = version + 1, due_at = 0, attempts = 0;
END;
CREATE TRIGGER calendar_push_booking_delete AFTER DELETE ON bookings
BEGIN
    UPDATE calendar_pushes SET version = version + 1, due_at = 0, attempts = 0 WHERE booking_id = OLD.id;
END;
CREATE TRIGGER visit_bookings_hold_processing AFTER INSERT ON visit_bookings
WHEN NEW.hold_before_ms > 0
BEGIN
    UPDATE booking_resources SET block_start_at = block_start_at - NEW.hold_before_ms
    WHERE booking_id = NEW.booking_id;
END;
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
CREATE TRIGGER catalog_version_first_client_pack AFTER INSERT ON client_packs
WHEN NOT EXISTS (SELECT 1 FROM client_packs WHERE id <> NEW.id)
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER booking_counts_insert AFTER INSERT ON bookings
BEGIN
    INSERT INTO booking_counts (kind, ref_id, status_id, n, changes) VALUES
        ('location', NEW.location_id, NEW.status_id, 1, 1), ('client', NEW.client_id, NEW.status_id, 1, 1),
        ('service', NEW.service_id, NEW.status_id, 1, 1), ('provider', NEW.provider_id, NEW.status_id, 1, 1)
        ON CONFLICT (kind, ref_id, status_id) DO UPDATE SET n = n + 1, changes = changes + 1;
END;
CREATE TRIGGER etag_bookings_update AFTER UPDATE ON bookings
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('booking', OLD.id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
    INSERT INTO booking_counts (kind, ref_id, status_id, n, changes) VALUES
        ('location', OLD.location_id, OLD.status_id, 0, 1), ('client', OLD.client_id, OLD.status_id, 0, 1),
        ('service', OLD.service_id, OLD.status_id, 0, 1), ('provider', OLD.provider_id, OLD.status_id, 0, 1)
        ON CONFLICT (kind, ref_id, status_id) DO UPDATE SET changes = changes + 1;
END;
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
CREATE TRIGGER etag_bookings_delete AFTER DELETE ON bookings
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('booking', OLD.id, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER booking_counts_delete AFTER DELETE ON bookings
BEGIN
    UPDATE booking_counts SET n = n - 1, changes = changes + 1 WHERE (kind, ref_id, status_id) IN (VALUES
        ('location', OLD.location_id, OLD.status_id), ('client', OLD.client_id, OLD.status_id),
        ('service', OLD.service_id, OLD.status_id), ('provider', OLD.provider_id, OLD.status_id));
END;
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
