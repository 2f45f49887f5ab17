-- The latest attempt to any of a webhook's deliveries, for the LAST ERROR column of
-- `frontdesk webhook list` (app/webhook/refused.go).
-- name: LastWebhookAttempt :one
SELECT a.started_at, a.status_code, a.error_category, a.error_message
FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id
WHERE d.webhook_id = ?
ORDER BY a.id DESC LIMIT 1;
