-- Customer messages by email (docs/messages.md): the owner's settings, message types, edited
-- templates, the message outbox with its attempt log, and clients' reminder opt-outs.
--
-- messages is an outbox with the webhook engine's guarantees (app/queue): rows are written in
-- the transaction of the change that causes them; a pending row with next_attempt_at NULL is
-- claimed by a running dispatcher (in flight), and every claim is released at the next start,
-- so sending is at-least-once. attempts counts every attempt ever made; series_base is
-- attempts as of the start of the current series (a resend starts a new one), so
-- attempts > series_base tells a retry from a first attempt.

-- +goose Up
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
    updated_at           INTEGER NOT NULL,
    CHECK (instr(from_name, char(10)) = 0 AND instr(from_name, char(13)) = 0),
    CHECK (instr(from_address || reply_to || owner_address, char(10)) = 0
        AND instr(from_address || reply_to || owner_address, char(13)) = 0)
);
INSERT INTO message_settings (id, unsubscribe_key, updated_at) VALUES (1, randomblob(32), 0);

CREATE TABLE message_kinds (
    kind       TEXT PRIMARY KEY
        CHECK (kind IN ('confirmation', 'rescheduled', 'cancelled', 'reminder', 'payment_request', 'receipt')),
    enabled    BOOLEAN NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    owner_copy BOOLEAN NOT NULL DEFAULT 0 CHECK (owner_copy IN (0, 1))
);
INSERT INTO message_kinds (kind) VALUES
    ('confirmation'), ('rescheduled'), ('cancelled'), ('reminder'), ('payment_request'), ('receipt');

-- An owner's wording of one message type in one language; without a row the catalog's default
-- (ui/i18n/locales) applies. A subject is one line: a line break in it could start a header.
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
        OR kind = 'reminder' OR kind = 'payment_request' OR kind = 'receipt' OR kind = 'test'),
    recipient          TEXT    NOT NULL CHECK (recipient = 'client' OR recipient = 'owner' OR recipient = 'address'),
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
    updated_at         INTEGER NOT NULL,
    CHECK (kind = 'test' OR booking_id IS NOT NULL OR payment_request_id IS NOT NULL),
    CHECK ((kind = 'reminder') = (offset_min IS NOT NULL)),
    CHECK ((recipient = 'address') = (kind = 'test'))
);
-- Indexes are few on purpose: a booking writes three rows here in its own transaction, and
-- every index is pages its commit writes. The dispatcher claims first attempts before retries,
-- each in due order (as deliveries_pending); a booking's page and a reschedule read by booking.
CREATE INDEX messages_pending ON messages (attempts > series_base, next_attempt_at) WHERE state = 'pending';
CREATE INDEX messages_booking ON messages (booking_id, send_at) WHERE booking_id IS NOT NULL;
-- One planned reminder per booking, offset and recipient: a reschedule moves it, never adds one.
CREATE UNIQUE INDEX messages_one_pending_reminder ON messages (booking_id, offset_min, recipient)
    WHERE kind = 'reminder' AND state = 'pending';

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
);
CREATE INDEX message_attempts_message ON message_attempts (message_id, attempt);
CREATE INDEX message_attempts_started ON message_attempts (started_at);

-- What a booking's messages were last planned for: a change is compared with it, so every
-- writer that records a booking event gets the same messages (app/messages/enqueue.go).
-- sequence is the SEQUENCE of the booking's latest calendar file.
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

-- The last word on "nothing is sent for a cancelled booking": whatever code path cancels a
-- booking, its planned confirmation, reschedule notice and reminders are skipped in the same
-- transaction. (A row already being sent finishes; the dispatcher checks again before sending.)
-- +goose StatementBegin
CREATE TRIGGER messages_skip_on_cancel AFTER UPDATE OF status_id ON bookings
WHEN NEW.status_id = 5 AND OLD.status_id <> 5
BEGIN
    UPDATE messages SET state = 'skipped', note = 'booking cancelled', next_attempt_at = NULL,
        updated_at = NEW.updated_at
    WHERE booking_id = NEW.id AND state = 'pending' AND next_attempt_at IS NOT NULL
      AND kind IN ('confirmation', 'rescheduled', 'reminder');
END;
-- +goose StatementEnd
