-- A webhook paused by hand (docs/webhooks.md "Pause and resume"). While a row exists here the
-- dispatcher does not send to the webhook: its events are still recorded and its deliveries
-- queued (pending) as usual, and they go out, oldest first, once the row is removed (resume).
-- A table of its own rather than a third webhooks.state, so the webhook keeps its state and
-- everything that reads it (enqueue, deactivation, the API) is unchanged. Only an active
-- webhook can be paused; a deactivation (the dispatcher's, for an attempt already in flight
-- when the owner paused) ends the pause, since deactivated is the stronger stop.

-- +goose Up
CREATE TABLE webhook_pauses (
    webhook_id INTEGER PRIMARY KEY REFERENCES webhooks (id) ON DELETE CASCADE,
    paused_at  INTEGER NOT NULL
);

-- +goose StatementBegin
CREATE TRIGGER webhook_pauses_active_only BEFORE INSERT ON webhook_pauses
WHEN (SELECT state FROM webhooks WHERE id = NEW.webhook_id) IS NOT 'active'
BEGIN
    SELECT RAISE(ABORT, 'only an active webhook can be paused');
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER webhook_pauses_end_on_deactivation AFTER UPDATE OF state ON webhooks
WHEN NEW.state = 'deactivated'
BEGIN
    DELETE FROM webhook_pauses WHERE webhook_id = NEW.id;
END;
-- +goose StatementEnd

