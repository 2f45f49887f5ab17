-- name: CreateEvent :exec
INSERT INTO events (id, type, body, created_at) VALUES (?, ?, ?, ?);

-- name: ListWebhooksForEnqueue :many
SELECT id, events_json, state FROM webhooks ORDER BY id;

-- name: CreateDelivery :exec
INSERT INTO deliveries (event_id, webhook_id, state, next_attempt_at, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?);
