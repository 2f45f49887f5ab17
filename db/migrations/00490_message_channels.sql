-- Customer messages on more than one channel (docs/messages.md, "Channels"): a message goes by
-- email, SMS or WhatsApp through the same outbox. messages.channel is the channel it is planned
-- for (and, once attempted, the one it went by: a text falls back to email at send time when
-- texts are not set up or the client has no number that can receive them); each attempt says
-- its channel. client_message_prefs holds a client's preferred channel (no row: email).
-- message_text_settings is the SMS provider: Twilio or a generic HTTP gateway, their secrets
-- sealed with app/secrets. message_text_templates are the owner's short texts per kind and
-- language (no row: the catalog's).

-- +goose Up
ALTER TABLE messages ADD COLUMN channel TEXT NOT NULL DEFAULT 'email'
    CHECK (channel = 'email' OR channel = 'sms' OR channel = 'whatsapp');
ALTER TABLE message_attempts ADD COLUMN channel TEXT NOT NULL DEFAULT 'email';

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
INSERT INTO message_text_settings (id, updated_at) VALUES (1, 0);

CREATE TABLE message_text_templates (
    kind       TEXT    NOT NULL REFERENCES message_kinds (kind),
    language   TEXT    NOT NULL,
    body       TEXT    NOT NULL CHECK (length(body) BETWEEN 1 AND 1600),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (kind, language)
);

-- Whether texts are set up is part of the plan every booking's write reads (enqueue.go).
-- +goose StatementBegin
CREATE TRIGGER message_plan_text_settings_update AFTER UPDATE OF sms_provider ON message_text_settings
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('message_plan', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER message_plan_text_settings_update;
DROP TABLE message_text_templates;
DROP TABLE message_text_settings;
DROP TABLE client_message_prefs;
ALTER TABLE message_attempts DROP COLUMN channel;
ALTER TABLE messages DROP COLUMN channel;
