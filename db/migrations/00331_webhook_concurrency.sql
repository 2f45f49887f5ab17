-- Slow endpoints (docs/webhooks.md, "Slow endpoints"): each webhook's bound on deliveries in
-- flight at once. The dispatcher keeps an endpoint at its share of the worker pool and lets it
-- go past it, up to this bound, while the endpoint is slow and steady (app/queue/adapt.go). A
-- webhook without a row has the default, 32; an owner lowers it for a receiver that cannot
-- take many requests at once, or raises it (up to 256) for a slow one with a backlog.

-- +goose Up
CREATE TABLE webhook_delivery_settings (
    webhook_id      INTEGER PRIMARY KEY REFERENCES webhooks (id) ON DELETE CASCADE,
    max_concurrency INTEGER NOT NULL CHECK (max_concurrency BETWEEN 1 AND 256)
);
