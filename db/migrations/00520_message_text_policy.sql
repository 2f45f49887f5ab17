-- The owner's rules for texts (docs/messages.md, "Cost and courtesy"): message_text_policy holds
-- the daily cap on texts, the quiet hours (minutes of the local day in each message's location
-- zone; start = end is refused by the settings) and the price of 1,000 segments in the business
-- currency's hundredths (a segment costs a fraction of a cent, amounts have two decimals).
-- message_kinds.by_text says which kinds may go by text at all. A sent text remembers its
-- segments and its estimated cost (thousandths of a hundredth, so sums stay exact); each
-- attempt says which rule changed its channel or time (policy). message_month_counts keeps the
-- owner's monthly counts per channel past the log's retention.

-- +goose Up
CREATE TABLE message_text_policy (
    id                    INTEGER PRIMARY KEY CHECK (id = 1),
    daily_cap             INTEGER NOT NULL DEFAULT 200 CHECK (daily_cap BETWEEN 1 AND 100000),
    quiet_enabled         BOOLEAN NOT NULL DEFAULT 1 CHECK (quiet_enabled IN (0, 1)),
    quiet_start_min       INTEGER NOT NULL DEFAULT 1260 CHECK (quiet_start_min BETWEEN 0 AND 1439),
    quiet_end_min         INTEGER NOT NULL DEFAULT 480 CHECK (quiet_end_min BETWEEN 0 AND 1439),
    price_per_1000_cents  INTEGER NOT NULL DEFAULT 0 CHECK (price_per_1000_cents BETWEEN 0 AND 100000000),
    updated_at            INTEGER NOT NULL
);
INSERT INTO message_text_policy (id, updated_at) VALUES (1, 0);

ALTER TABLE message_kinds ADD COLUMN by_text BOOLEAN NOT NULL DEFAULT 1 CHECK (by_text IN (0, 1));
ALTER TABLE messages ADD COLUMN segments INTEGER;
ALTER TABLE messages ADD COLUMN cost_milli INTEGER;
ALTER TABLE message_attempts ADD COLUMN segments INTEGER;
ALTER TABLE message_attempts ADD COLUMN policy TEXT NOT NULL DEFAULT '';

CREATE TABLE message_month_counts (
    month      TEXT    NOT NULL CHECK (length(month) = 7),
    channel    TEXT    NOT NULL CHECK (channel IN ('email', 'sms', 'whatsapp')),
    sent       INTEGER NOT NULL DEFAULT 0,
    segments   INTEGER NOT NULL DEFAULT 0,
    cost_milli INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (month, channel)
) WITHOUT ROWID;

-- Quiet hours and the kinds sent by text are part of the plan every booking's write reads
-- (a reminder by text due in quiet hours is planned before they start).
-- +goose StatementBegin
CREATE TRIGGER message_plan_text_policy_update AFTER UPDATE OF quiet_enabled, quiet_start_min, quiet_end_min ON message_text_policy
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('message_plan', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER message_plan_kinds_by_text_update AFTER UPDATE OF by_text ON message_kinds
BEGIN
    INSERT INTO etag_versions (kind, ref_id, n) VALUES ('message_plan', 0, 1)
        ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER message_plan_kinds_by_text_update;
DROP TRIGGER message_plan_text_policy_update;
DROP TABLE message_month_counts;
ALTER TABLE message_attempts DROP COLUMN policy;
ALTER TABLE message_attempts DROP COLUMN segments;
ALTER TABLE messages DROP COLUMN cost_milli;
ALTER TABLE messages DROP COLUMN segments;
ALTER TABLE message_kinds DROP COLUMN by_text;
DROP TABLE message_text_policy;
