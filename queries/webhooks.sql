-- Webhook registration, health and the delivery log (app/webhook/manage.go, log.go). The
-- dispatcher's own queries are in outbox.sql.

-- name: CountWebhooks :one
SELECT count(*) FROM webhooks;

-- name: CreateWebhook :one
INSERT INTO webhooks (url, events_json, description, key_mode, state, created_at, updated_at)
VALUES (?, ?, ?, ?, 'active', ?, ?)
RETURNING id;

-- name: GetWebhook :one
SELECT id, url, events_json, description, state, deactivated_reason, deactivated_at,
    last_success_at, created_at, updated_at, key_mode
FROM webhooks WHERE id = ?;

-- name: ListWebhooks :many
SELECT id, url, events_json, description, state, deactivated_reason, deactivated_at,
    last_success_at, created_at, updated_at, key_mode
FROM webhooks ORDER BY id;

-- name: UpdateWebhook :execrows
UPDATE webhooks SET url = ?, events_json = ?, description = ?, key_mode = ?, updated_at = ? WHERE id = ?;

-- name: DeleteWebhook :execrows
DELETE FROM webhooks WHERE id = ?;

-- name: ReactivateWebhook :execrows
UPDATE webhooks SET state = 'active', deactivated_reason = NULL, deactivated_at = NULL, updated_at = ?
WHERE id = ? AND state = 'deactivated';

-- name: CreateWebhookSecret :exec
INSERT INTO webhook_secrets (webhook_id, secret, created_at, expires_at) VALUES (?, ?, ?, ?);

-- name: ListWebhookSecretInfo :many
SELECT id, created_at, expires_at FROM webhook_secrets
WHERE webhook_id = ? ORDER BY created_at DESC, id DESC;

-- name: ExpireWebhookSecrets :exec
UPDATE webhook_secrets SET expires_at = sqlc.arg(expires_at)
WHERE webhook_id = sqlc.arg(webhook_id)
  AND (expires_at IS NULL OR expires_at > sqlc.arg(expires_at));

-- name: DeleteExpiredWebhookSecrets :exec
DELETE FROM webhook_secrets WHERE webhook_id = ? AND expires_at IS NOT NULL AND expires_at <= ?;

-- name: ReplayMissedDeliveries :execrows
UPDATE deliveries
SET state = 'pending', next_attempt_at = sqlc.arg(now), series_base = attempts,
    restarted_at = sqlc.arg(now), updated_at = sqlc.arg(now)
WHERE webhook_id = sqlc.arg(webhook_id) AND state = 'missed';

-- name: RestartDelivery :execrows
UPDATE deliveries
SET state = 'pending', next_attempt_at = sqlc.arg(now), series_base = attempts,
    restarted_at = sqlc.arg(now), updated_at = sqlc.arg(now)
WHERE id = sqlc.arg(id) AND state <> 'pending';

-- name: RecoverFailedDeliveries :execrows
UPDATE deliveries
SET state = 'pending', next_attempt_at = sqlc.arg(now), series_base = attempts,
    restarted_at = sqlc.arg(now), updated_at = sqlc.arg(now)
WHERE webhook_id = sqlc.arg(webhook_id) AND state = 'failed'
  AND created_at >= sqlc.arg(from_ms) AND created_at < sqlc.arg(to_ms);

-- name: LastWebhookDelivery :one
SELECT d.id, d.event_id, e.type AS event_type, d.webhook_id, d.state, d.attempts, d.series_base,
    d.next_attempt_at, d.last_attempt_at, d.last_status, d.created_at, d.updated_at
FROM deliveries d JOIN events e ON e.id = d.event_id
WHERE d.webhook_id = ?
ORDER BY d.created_at DESC, d.id DESC LIMIT 1;

-- The endpoint's latest outcomes: its most recently attempted deliveries (deliveries_attempted).
-- name: RecentWebhookOutcomes :one
SELECT count(*) AS attempted,
    CAST(coalesce(sum(last_status BETWEEN 200 AND 299), 0) AS INTEGER) AS succeeded
FROM (SELECT last_status FROM deliveries
      WHERE webhook_id = sqlc.arg(webhook_id) AND last_attempt_at IS NOT NULL
      ORDER BY last_attempt_at DESC, id DESC LIMIT CAST(sqlc.arg(sample) AS INTEGER));

-- How many of the endpoint's deliveries succeeded at an attempt since a time, for its drain
-- estimate when no running dispatcher reports a rate (deliveries_attempted).
-- name: WebhookDeliveredSince :one
SELECT count(*) FROM deliveries
WHERE webhook_id = sqlc.arg(webhook_id) AND last_attempt_at >= sqlc.arg(since) AND state = 'succeeded';

-- Kept by triggers on deliveries (migration 00450): a few rows, however long the backlog.
-- name: CountWebhookDeliveriesByState :many
SELECT state, n FROM webhook_delivery_counts WHERE webhook_id = ? AND n > 0 ORDER BY state;

-- Written as (attempts > series_base) = 1 to read the endpoint's retries through
-- deliveries_pending (migration 00100) rather than its whole delivery history.
-- name: OldestFailingDelivery :one
SELECT id, attempts - series_base AS series_attempts, last_attempt_at,
    coalesce(restarted_at, created_at) AS series_at
FROM deliveries
WHERE webhook_id = sqlc.arg(webhook_id) AND state = 'pending' AND (attempts > series_base) = 1
  AND coalesce(restarted_at, created_at) > sqlc.arg(last_success_at)
ORDER BY series_at, id LIMIT 1;

-- The log reads newest event first: d.created_at is the event's time, since a delivery is
-- written in its event's transaction with the event's timestamp (app/webhook/outbox.go), and a
-- replay or resend never changes it.
-- name: ListWebhookDeliveries :many
SELECT d.id, d.event_id, e.type AS event_type, d.webhook_id, d.state, d.attempts, d.series_base,
    d.next_attempt_at, d.last_attempt_at, d.last_status, d.created_at, d.updated_at
FROM deliveries d JOIN events e ON e.id = d.event_id
WHERE d.webhook_id = sqlc.arg(webhook_id)
  AND (CAST(sqlc.arg(state) AS TEXT) = '' OR d.state = sqlc.arg(state))
  AND (CAST(sqlc.arg(event_type) AS TEXT) = '' OR e.type = sqlc.arg(event_type))
  AND d.created_at >= sqlc.arg(from_ms) AND d.created_at < sqlc.arg(to_ms)
ORDER BY d.created_at DESC, d.id DESC
LIMIT CAST(sqlc.arg(lim) AS INTEGER) OFFSET CAST(sqlc.arg(off) AS INTEGER);

-- name: CountWebhookDeliveries :one
SELECT count(*)
FROM deliveries d JOIN events e ON e.id = d.event_id
WHERE d.webhook_id = sqlc.arg(webhook_id)
  AND (CAST(sqlc.arg(state) AS TEXT) = '' OR d.state = sqlc.arg(state))
  AND (CAST(sqlc.arg(event_type) AS TEXT) = '' OR e.type = sqlc.arg(event_type))
  AND d.created_at >= sqlc.arg(from_ms) AND d.created_at < sqlc.arg(to_ms);

-- name: ListEventDeliveries :many
SELECT d.id, d.event_id, e.type AS event_type, d.webhook_id, d.state, d.attempts, d.series_base,
    d.next_attempt_at, d.last_attempt_at, d.last_status, d.created_at, d.updated_at
FROM deliveries d JOIN events e ON e.id = d.event_id
WHERE d.event_id = ?
ORDER BY d.webhook_id;

-- name: GetDelivery :one
SELECT d.id, d.event_id, e.type AS event_type, e.body, d.webhook_id, d.state, d.attempts,
    d.series_base, d.next_attempt_at, d.last_attempt_at, d.last_status, d.created_at, d.updated_at
FROM deliveries d JOIN events e ON e.id = d.event_id
WHERE d.id = ?;

-- name: ListDeliveryAttempts :many
SELECT a.id, a.delivery_id, a.attempt, a.started_at, a.duration_ms, a.status_code, a.error_category,
    a.error_message, d.event_id, a.signature, a.response_date,
    CAST(coalesce(rq.text, '') AS TEXT) AS request_headers, CAST(coalesce(rs.text, '') AS TEXT) AS response_headers,
    CAST(coalesce(rb.text, '') AS TEXT) AS response_body
FROM delivery_attempts a
JOIN deliveries d ON d.id = a.delivery_id
LEFT JOIN delivery_texts rq ON rq.id = a.request_headers_id
LEFT JOIN delivery_texts rs ON rs.id = a.response_headers_id
LEFT JOIN delivery_texts rb ON rb.id = a.response_body_id
WHERE a.delivery_id = ? ORDER BY a.attempt, a.id;

-- name: GetDeliveryAttempt :one
SELECT a.id, a.delivery_id, a.attempt, a.started_at, a.duration_ms, a.status_code, a.error_category,
    a.error_message, d.event_id, a.signature, a.response_date,
    CAST(coalesce(rq.text, '') AS TEXT) AS request_headers, CAST(coalesce(rs.text, '') AS TEXT) AS response_headers,
    CAST(coalesce(rb.text, '') AS TEXT) AS response_body
FROM delivery_attempts a
JOIN deliveries d ON d.id = a.delivery_id
LEFT JOIN delivery_texts rq ON rq.id = a.request_headers_id
LEFT JOIN delivery_texts rs ON rs.id = a.response_headers_id
LEFT JOIN delivery_texts rb ON rb.id = a.response_body_id
WHERE a.id = ?;
