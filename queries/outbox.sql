-- name: CreateEvent :exec
INSERT INTO events (id, type, body, created_at) VALUES (?, ?, ?, ?);

-- name: ListWebhooksForEnqueue :many
SELECT id, events_json, state FROM webhooks ORDER BY id;

-- name: CreateDelivery :exec
INSERT INTO deliveries (event_id, webhook_id, state, next_attempt_at, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?);

-- A first attempt handed to this process's dispatcher in memory (app/queue/handoff.go): inserted
-- claimed, as ClaimDueFirstAttempts would leave it. Its id is the last insert rowid, not a
-- RETURNING clause: SQLite runs RETURNING through a temporary table it opens and closes on every
-- call, which cost more than the insert itself.
-- name: CreateDeliveryClaimed :execlastid
INSERT INTO deliveries (event_id, webhook_id, state, next_attempt_at, created_at, updated_at)
VALUES (sqlc.arg(event_id), sqlc.arg(webhook_id), 'pending', NULL, sqlc.arg(created_at), sqlc.arg(created_at));

-- The dispatcher (app/webhook/dispatch: dispatch.go, claim.go, record.go). See
-- db/migrations/00030_webhook_engine.sql for what a NULL next_attempt_at on a pending row means,
-- and 00100_webhook_claim_indexes.sql for the index the dispatcher reads the outbox through.

-- name: ListDispatchTargets :many
SELECT w.id, w.url, w.key_mode, s.secret,
    CAST(coalesce((SELECT c.max_concurrency FROM webhook_delivery_settings c WHERE c.webhook_id = w.id), 32) AS INTEGER) AS max_concurrency
FROM webhooks w JOIN webhook_secrets s ON s.webhook_id = w.id
WHERE w.state = 'active' AND (s.expires_at IS NULL OR s.expires_at > ?)
  AND NOT EXISTS (SELECT 1 FROM webhook_pauses p WHERE p.webhook_id = w.id) -- paused: queued, not sent
ORDER BY w.id, s.created_at DESC, s.id DESC;

-- Claims (next_attempt_at = NULL) up to lim due first attempts of one endpoint and returns them
-- with their bodies. A first attempt is due since its series began (Enqueue, resend, recover and
-- replay set next_attempt_at to that instant), so the series start, coalesce(restarted_at,
-- created_at), is also when it became due. The limit is a CAST, not a bare parameter: SQLite
-- plans a prepared statement again every time a bare LIMIT parameter is bound, which costs more
-- than the claim itself.
-- name: ClaimDueFirstAttempts :many
UPDATE deliveries SET next_attempt_at = NULL
WHERE id IN (
    SELECT d.id FROM deliveries d
    WHERE d.webhook_id = sqlc.arg(webhook_id) AND d.state = 'pending'
      AND (d.attempts > d.series_base) = 0 AND d.next_attempt_at <= sqlc.arg(now)
    ORDER BY d.next_attempt_at, d.id LIMIT CAST(sqlc.arg(lim) AS INTEGER))
RETURNING id, event_id, attempts, restarted_at, created_at,
    (SELECT e.body FROM events e WHERE e.id = deliveries.event_id) AS body;

-- Due retries of one endpoint; the dispatcher claims them with ClaimDelivery in the same
-- transaction, keeping next_attempt_at to hand them back as they were.
-- name: ListDueRetries :many
SELECT d.id, d.event_id, d.attempts, d.series_base,
    coalesce(d.restarted_at, d.created_at) AS series_at, d.next_attempt_at, e.body
FROM deliveries d JOIN events e ON e.id = d.event_id
WHERE d.webhook_id = sqlc.arg(webhook_id) AND d.state = 'pending'
  AND (d.attempts > d.series_base) = 1 AND d.next_attempt_at <= sqlc.arg(now)
ORDER BY d.next_attempt_at, d.id LIMIT CAST(sqlc.arg(lim) AS INTEGER);

-- name: ClaimDelivery :execrows
UPDATE deliveries SET next_attempt_at = NULL
WHERE id = ? AND state = 'pending' AND next_attempt_at IS NOT NULL;

-- name: ReleaseDelivery :exec
UPDATE deliveries SET next_attempt_at = ?
WHERE id = ? AND state = 'pending' AND next_attempt_at IS NULL;

-- name: ReleaseAllClaims :execrows
UPDATE deliveries SET next_attempt_at = ? WHERE state = 'pending' AND next_attempt_at IS NULL;

-- The earliest retry of one endpoint scheduled after now (0: none), through deliveries_pending.
-- name: NextRetryAfter :one
SELECT CAST(coalesce(min(next_attempt_at), 0) AS INTEGER) FROM deliveries
WHERE webhook_id = sqlc.arg(webhook_id) AND state = 'pending' AND (attempts > series_base) = 1
  AND next_attempt_at > sqlc.arg(now);

-- An attempt's record: the delivery's new state first (RecordDeliveryAttempt), then its line in
-- the log (InsertDeliveryAttempt). The delivery may have been deleted with its webhook while the
-- attempt was in flight; then the update changes no row, and there is nothing to log it against:
-- the dispatcher skips the insert (app/webhook/dispatch/record.go), which needs no check of its own.
-- name: InsertDeliveryAttempt :exec
INSERT INTO delivery_attempts (delivery_id, attempt, started_at, duration_ms, status_code,
    error_category, error_message, request_headers_id, signature, response_headers_id,
    response_date, response_body_id)
VALUES (sqlc.arg(delivery_id), sqlc.arg(attempt), sqlc.arg(started_at), sqlc.arg(duration_ms),
    sqlc.narg(status_code), sqlc.narg(error_category), sqlc.arg(error_message),
    sqlc.arg(request_headers_id), sqlc.narg(signature), sqlc.arg(response_headers_id),
    sqlc.narg(response_date), sqlc.arg(response_body_id));

-- name: RecordDeliveryAttempt :execrows
UPDATE deliveries
SET attempts = sqlc.arg(attempts), last_attempt_at = sqlc.arg(at), last_status = sqlc.narg(status),
    updated_at = sqlc.arg(at),
    state = CASE WHEN state = 'pending' OR CAST(sqlc.arg(new_state) AS TEXT) = 'succeeded'
        THEN CAST(sqlc.arg(new_state) AS TEXT) ELSE state END,
    next_attempt_at = CASE WHEN state = 'pending' AND CAST(sqlc.arg(new_state) AS TEXT) = 'pending'
        THEN sqlc.narg(next_attempt_at) ELSE NULL END
WHERE id = sqlc.arg(id);

-- name: MarkWebhookSuccess :exec
UPDATE webhooks SET last_success_at = max(coalesce(last_success_at, 0), sqlc.arg(at))
WHERE id = sqlc.arg(id);

-- name: GetWebhookLastSuccess :one
SELECT CAST(coalesce(last_success_at, 0) AS INTEGER) FROM webhooks WHERE id = ?;

-- name: DeactivateWebhook :execrows
UPDATE webhooks SET state = 'deactivated', deactivated_reason = ?, deactivated_at = ?, updated_at = ?
WHERE id = ? AND state = 'active';

-- name: MissPendingDeliveries :execrows
UPDATE deliveries SET state = 'missed', next_attempt_at = NULL, updated_at = ?
WHERE webhook_id = ? AND state = 'pending';

-- name: CountPendingDeliveries :one
SELECT count(*) FROM deliveries WHERE state = 'pending';

-- name: OldestDueAt :one
SELECT CAST(coalesce(min(next_attempt_at), 0) AS INTEGER) FROM deliveries
WHERE state = 'pending' AND next_attempt_at IS NOT NULL AND next_attempt_at <= ?;

-- name: PruneEvents :execrows
DELETE FROM events WHERE id IN (
    SELECT e.id FROM events e
    WHERE e.created_at < sqlc.arg(before)
      AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id AND d.state = 'pending')
    LIMIT CAST(sqlc.arg(lim) AS INTEGER));

-- Texts of the delivery log no attempt has used since before (00332_delivery_log_texts.sql).
-- name: PruneDeliveryTexts :execrows
DELETE FROM delivery_texts WHERE id IN (
    SELECT t.id FROM delivery_texts t WHERE t.last_used_at < sqlc.arg(before) LIMIT CAST(sqlc.arg(lim) AS INTEGER));

-- name: PruneDeliveryAttempts :execrows
DELETE FROM delivery_attempts WHERE id IN (
    SELECT a.id FROM delivery_attempts a WHERE a.started_at < sqlc.arg(before) LIMIT CAST(sqlc.arg(lim) AS INTEGER));

-- A text of the delivery log, to refer to it (00332_delivery_log_texts.sql).
-- name: FindDeliveryText :one
SELECT id, last_used_at FROM delivery_texts WHERE text = ?;

-- name: UpsertDeliveryText :one
INSERT INTO delivery_texts (text, last_used_at) VALUES (sqlc.arg(text), sqlc.arg(at))
ON CONFLICT (text) DO UPDATE SET last_used_at = max(last_used_at, excluded.last_used_at)
RETURNING id;
