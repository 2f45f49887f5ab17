-- Read-only views for the admin webhook pages (app/admin/webhooks.go) that app/webhook's
-- Manager does not offer. Everything that changes a webhook goes through the Manager.

-- The latest attempts to one endpoint, newest first, for the list's outcome chart.
-- name: AdminRecentWebhookAttempts :many
-- The latest attempts belong to the most recently attempted deliveries (deliveries_attempted,
-- migration 00450): at most lim of them hold all lim attempts.
SELECT a.started_at, a.duration_ms, a.status_code, a.error_category
FROM delivery_attempts a
WHERE a.delivery_id IN (
    SELECT d.id FROM deliveries d
    WHERE d.webhook_id = sqlc.arg(webhook_id) AND d.last_attempt_at IS NOT NULL
    ORDER BY d.last_attempt_at DESC LIMIT CAST(sqlc.arg(lim) AS INTEGER))
ORDER BY a.started_at DESC, a.id DESC
LIMIT CAST(sqlc.arg(lim) AS INTEGER);
