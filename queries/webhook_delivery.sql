-- Per-webhook delivery settings (db/migrations/00331_webhook_concurrency.sql).

-- name: WebhookMaxConcurrency :one
SELECT CAST(coalesce((SELECT max_concurrency FROM webhook_delivery_settings WHERE webhook_id = sqlc.arg(webhook_id)), 32) AS INTEGER) AS max_concurrency;

-- name: SetWebhookMaxConcurrency :exec
INSERT INTO webhook_delivery_settings (webhook_id, max_concurrency) VALUES (sqlc.arg(webhook_id), sqlc.arg(max_concurrency))
ON CONFLICT (webhook_id) DO UPDATE SET max_concurrency = excluded.max_concurrency;
