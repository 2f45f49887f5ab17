-- Pausing a webhook by hand (app/webhook/pause.go; db/migrations/00355_webhook_pauses.sql).

-- name: PauseWebhook :execrows
INSERT INTO webhook_pauses (webhook_id, paused_at) VALUES (?, ?) ON CONFLICT (webhook_id) DO NOTHING;

-- name: ResumeWebhook :execrows
DELETE FROM webhook_pauses WHERE webhook_id = ?;

-- name: GetWebhookPause :one
SELECT paused_at FROM webhook_pauses WHERE webhook_id = ?;
