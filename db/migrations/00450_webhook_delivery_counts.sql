-- An endpoint's deliveries counted by state, kept by triggers, so the webhook pages and
-- `frontdesk webhook list` read a handful of rows instead of counting a slow endpoint's whole
-- backlog and history (200,000 waiting took seconds). Decrements are plain UPDATEs: when a
-- webhook is deleted its counts and its deliveries cascade away in either order, and an
-- upsert there would recreate a count for a webhook that no longer exists.
--
-- deliveries_attempted indexes the deliveries an endpoint has attempted by when, for its
-- latest attempts (the outcome chart, the last error): they belong to its most recently
-- attempted deliveries. Waiting deliveries never attempted are not in it, so enqueueing an
-- event inside a booking's commit does not pay for it.

-- +goose Up
CREATE TABLE webhook_delivery_counts (
    webhook_id INTEGER NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    state      TEXT    NOT NULL,
    n          INTEGER NOT NULL,
    PRIMARY KEY (webhook_id, state)
) WITHOUT ROWID;

INSERT INTO webhook_delivery_counts (webhook_id, state, n)
SELECT webhook_id, state, count(*) FROM deliveries GROUP BY webhook_id, state;

-- +goose StatementBegin
CREATE TRIGGER webhook_delivery_counts_insert AFTER INSERT ON deliveries
BEGIN
    INSERT INTO webhook_delivery_counts (webhook_id, state, n) VALUES (NEW.webhook_id, NEW.state, 1)
        ON CONFLICT (webhook_id, state) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER webhook_delivery_counts_update AFTER UPDATE OF state ON deliveries
WHEN OLD.state <> NEW.state
BEGIN
    UPDATE webhook_delivery_counts SET n = n - 1 WHERE webhook_id = OLD.webhook_id AND state = OLD.state;
    INSERT INTO webhook_delivery_counts (webhook_id, state, n) VALUES (NEW.webhook_id, NEW.state, 1)
        ON CONFLICT (webhook_id, state) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER webhook_delivery_counts_delete AFTER DELETE ON deliveries
BEGIN
    UPDATE webhook_delivery_counts SET n = n - 1 WHERE webhook_id = OLD.webhook_id AND state = OLD.state;
END;
-- +goose StatementEnd

CREATE INDEX deliveries_attempted ON deliveries (webhook_id, last_attempt_at)
    WHERE last_attempt_at IS NOT NULL;

-- +goose Down
DROP INDEX deliveries_attempted;
DROP TRIGGER webhook_delivery_counts_delete;
DROP TRIGGER webhook_delivery_counts_update;
DROP TRIGGER webhook_delivery_counts_insert;
DROP TABLE webhook_delivery_counts;
