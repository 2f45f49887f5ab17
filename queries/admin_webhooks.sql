-- Read-only views for the admin webhook pages (app/admin/webhooks.go) that app/webhook's
-- Manager does not offer. Everything that changes a webhook goes through the Manager.

-- The latest attempts to one endpoint, newest first, for the list's outcome chart.
-- name: AdminRecentWebhookAttempts :many
SELECT a.started_at, a.duration_ms, a.status_code, a.error_category
FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id
WHERE d.webhook_id = sqlc.arg(webhook_id)
ORDER BY a.started_at DESC, a.id DESC
LIMIT CAST(sqlc.arg(lim) AS INTEGER);
