-- The latest attempt to any of a webhook's deliveries, for the LAST ERROR column of
-- `frontdesk webhook list` (app/webhook/refused.go).
-- name: LastWebhookAttempt :one
SELECT a.started_at, a.status_code, a.error_category, a.error_message
FROM delivery_attempts a
WHERE a.delivery_id = (
    SELECT d.id FROM deliveries d
    WHERE d.webhook_id = ? AND d.last_attempt_at IS NOT NULL
    ORDER BY d.last_attempt_at DESC, d.id DESC LIMIT 1)
ORDER BY a.id DESC LIMIT 1;
