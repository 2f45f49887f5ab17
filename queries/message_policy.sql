-- The owner's rules for texts (app/messages/policy.go, docs/messages.md "Cost and courtesy"):
-- the daily cap, quiet hours, the kinds sent by text, segments and cost, monthly counts.

-- name: MessageTextPolicy :one
SELECT * FROM message_text_policy WHERE id = 1;

-- name: UpdateMessageTextPolicy :exec
UPDATE message_text_policy SET daily_cap = ?, quiet_enabled = ?, quiet_start_min = ?, quiet_end_min = ?,
    price_per_1000_cents = ?, updated_at = ?
WHERE id = 1;

-- name: MessageKindsByText :many
SELECT kind, by_text FROM message_kinds ORDER BY rowid;

-- name: UpdateMessageKindByText :execrows
UPDATE message_kinds SET by_text = ? WHERE kind = ?;

-- Texts a provider took whose attempt began in [from, to), SMS and WhatsApp alike: what the
-- daily cap counts. A sent SMS has its segments; a WhatsApp message has none (Meta bills by
-- conversation), so a 2xx from the provider says it was taken, unless it was the answer to
-- a message from the client (kind reply), which the cap neither holds nor counts.
-- name: CountTextsSent :one
SELECT count(*) FROM message_attempts a
WHERE a.started_at >= sqlc.arg(from_at) AND a.started_at < sqlc.arg(to_at)
    AND (a.channel = 'sms' AND a.segments IS NOT NULL
        OR a.channel = 'whatsapp' AND a.code >= 200 AND a.code < 300
            AND (SELECT m.kind FROM messages m WHERE m.id = a.message_id) <> 'reply');

-- name: SetAttemptTextFacts :exec
UPDATE message_attempts SET segments = sqlc.narg(segments), policy = sqlc.arg(policy)
WHERE message_id = sqlc.arg(message_id) AND attempt = sqlc.arg(attempt);

-- name: SetMessageTextCost :exec
UPDATE messages SET segments = sqlc.arg(segments), cost_milli = sqlc.arg(cost_milli) WHERE id = sqlc.arg(id);

-- name: AddMonthCount :exec
INSERT INTO message_month_counts (month, channel, sent, segments, cost_milli)
VALUES (sqlc.arg(month), sqlc.arg(channel), 1, sqlc.arg(segments), sqlc.arg(cost_milli))
ON CONFLICT (month, channel) DO UPDATE SET sent = sent + 1, segments = segments + excluded.segments,
    cost_milli = cost_milli + excluded.cost_milli;

-- name: ListMonthCounts :many
SELECT month, channel, sent, segments, cost_milli FROM message_month_counts
WHERE month >= sqlc.arg(from_month) ORDER BY month DESC, channel;

-- A claimed message that is to wait (quiet hours, the daily cap): due again at next_attempt_at,
-- no attempt counted.
-- name: DeferMessage :exec
UPDATE messages SET next_attempt_at = sqlc.arg(due), note = sqlc.arg(note), updated_at = sqlc.arg(now)
WHERE id = sqlc.arg(id) AND state = 'pending' AND next_attempt_at IS NULL;

-- A planned reminder by text whose moment falls in quiet hours goes before they start: its
-- send_at stays the nominal moment (start - offset), only when it is due moves.
-- name: SetMessageDue :exec
UPDATE messages SET next_attempt_at = sqlc.arg(due)
WHERE id = sqlc.arg(id) AND state = 'pending' AND next_attempt_at IS NOT NULL;

-- name: LocationTimezone :one
SELECT timezone FROM locations WHERE id = ?;

-- The business's zone: its first active location's (the cap's day, the monthly counts' month).
-- name: BusinessTimezone :one
SELECT CAST(coalesce((SELECT timezone FROM locations WHERE active ORDER BY id LIMIT 1),
    (SELECT timezone FROM locations ORDER BY id LIMIT 1), 'UTC') AS TEXT) AS timezone;

-- Whether number is the phone of a client who has a booking: the only numbers texts go to.
-- name: TextableClientNumber :one
SELECT EXISTS (SELECT 1 FROM clients c WHERE c.phone = sqlc.arg(number)
    AND EXISTS (SELECT 1 FROM bookings b WHERE b.client_id = c.id));

-- The business's own numbers, as stored: its locations' and its providers'.
-- name: BusinessNumbers :many
SELECT coalesce(phone, '') AS phone FROM locations WHERE coalesce(phone, '') <> ''
UNION SELECT phone FROM providers WHERE phone <> '';
