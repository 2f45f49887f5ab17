-- What the webhook dispatcher (app/webhook) needs beyond the outbox tables of 00001.
--
-- Attempt series: a delivery is one (event, webhook) pair. Resend, recover and "replay missed"
-- start a new series on the same row, so the delivery log keeps one row per event and endpoint
-- with its attempts numbered 1..n across series. series_base is the number of attempts made
-- before the current series (the schedule restarts there); restarted_at is when the current
-- series began (NULL: at created_at). SPEC §6's deactivation rule ("no success to that endpoint
-- since the delivery began") reads the series start.
--
-- Claims: a pending delivery whose next_attempt_at is NULL is claimed by the running
-- dispatcher (queued in memory or in flight). Nothing else writes a pending row without a
-- next_attempt_at, so on start-up the dispatcher makes every such row due again: a crash at any
-- instant leaves no delivery stranded (at-least-once).
--
-- webhooks.last_success_at is the end of the latest 2xx attempt to the endpoint: the
-- deactivation rule and the admin UI's health badge read it without scanning deliveries.

-- +goose Up
ALTER TABLE deliveries ADD COLUMN series_base INTEGER NOT NULL DEFAULT 0;
ALTER TABLE deliveries ADD COLUMN restarted_at INTEGER;
ALTER TABLE webhooks ADD COLUMN last_success_at INTEGER;

-- The dispatcher claims per endpoint, in due order (fair turns, per-endpoint cap).
CREATE INDEX deliveries_webhook_due ON deliveries (webhook_id, next_attempt_at) WHERE state = 'pending';
