-- Replies that act, delivery statuses and WhatsApp (docs/messages.md, "Replies" and
-- "WhatsApp").
-- bookings.client_confirmed_at: when the client confirmed the appointment by answering a text
-- ("1", "YES", the Confirm button); NULL until then, and again once the booking moves.
-- inbound_messages: every text received from a client, once per provider message id (a
-- provider that delivers the same notification twice finds its row and nothing acts twice),
-- with what it did; the admin's inbox lists them. text_optouts: numbers that answered STOP or
-- BAJA: no text goes to them again (their messages go by email).
-- messages.delivery_status: what the provider's status callbacks last said of a text
-- (queued … delivered, read, failed, undelivered), delivery_note their error, delivery_at when.
-- message_whatsapp_settings: the WhatsApp Business Cloud API channel, the access token and the
-- app secret sealed with app/secrets; message_whatsapp_templates: the approved template (name,
-- language code, the fields filling its {{1}}, {{2}}, … in order) per message kind and language.

-- +goose Up
ALTER TABLE bookings ADD COLUMN client_confirmed_at INTEGER;

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
CREATE INDEX inbound_messages_received ON inbound_messages (received_at DESC);

CREATE TABLE text_optouts (
    phone      TEXT    PRIMARY KEY,
    channel    TEXT    NOT NULL CHECK (channel IN ('sms', 'whatsapp')),
    created_at INTEGER NOT NULL
) WITHOUT ROWID;

ALTER TABLE messages ADD COLUMN delivery_status TEXT NOT NULL DEFAULT '';
ALTER TABLE messages ADD COLUMN delivery_note TEXT NOT NULL DEFAULT '';
ALTER TABLE messages ADD COLUMN delivery_at INTEGER;
-- A status callback names the provider's id of the text (the attempt's Message-ID column); a
-- reply names the number the last text went to.
CREATE INDEX message_attempts_provider_id ON message_attempts (message_id_header) WHERE channel <> 'email';
CREATE INDEX messages_text_to ON messages (to_address, last_attempt_at) WHERE channel <> 'email';

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
INSERT INTO message_whatsapp_settings (id, updated_at) VALUES (1, 0);

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

-- A confirmation is of a time: a booking moved to another is unconfirmed again, whatever path
-- moves it.
-- +goose StatementBegin
CREATE TRIGGER bookings_client_confirmed_moved AFTER UPDATE OF start_at ON bookings
WHEN NEW.client_confirmed_at IS NOT NULL AND NEW.start_at <> OLD.start_at
BEGIN
    UPDATE bookings SET client_confirmed_at = NULL WHERE id = NEW.id;
END;
-- +goose StatementEnd

-- Whether WhatsApp is set up is part of the plan every booking's write reads (enqueue.go).
-- +goose StatementBegin
CREATE TRIGGER message_plan_whatsapp_settings_update AFTER UPDATE OF enabled ON message_whatsapp_settings
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('message_plan', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER bookings_client_confirmed_moved;
DROP TRIGGER message_plan_whatsapp_settings_update;
DROP TABLE message_whatsapp_templates;
DROP TABLE message_whatsapp_settings;
DROP INDEX messages_text_to;
DROP INDEX message_attempts_provider_id;
ALTER TABLE messages DROP COLUMN delivery_at;
ALTER TABLE messages DROP COLUMN delivery_note;
ALTER TABLE messages DROP COLUMN delivery_status;
DROP TABLE text_optouts;
DROP INDEX inbound_messages_received;
DROP TABLE inbound_messages;
ALTER TABLE bookings DROP COLUMN client_confirmed_at;
