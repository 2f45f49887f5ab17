-- Customer messages (app/messages, docs/messages.md). Schema and the meaning of a NULL
-- next_attempt_at on a pending row: db/migrations/00290_messages.sql.

-- Writing messages inside the transaction of the change (app/messages/enqueue.go).

-- name: MessagePlanSettings :one
SELECT s.reminder_offsets,
    CAST((SELECT t.sms_provider FROM message_text_settings t WHERE t.id = 1) AS TEXT) AS sms_provider,
    CAST(coalesce((SELECT w.enabled FROM message_whatsapp_settings w WHERE w.id = 1), 0) AS BOOLEAN) AS whatsapp_enabled,
    CAST((SELECT group_concat(k.kind || ':' || k.enabled || k.owner_copy, ',') FROM message_kinds k) AS TEXT) AS kinds
FROM message_settings s WHERE s.id = 1;

-- name: GetMessageBooking :one
SELECT * FROM message_bookings WHERE booking_id = ?;

-- name: SaveMessageBooking :exec
INSERT INTO message_bookings (booking_id, status_id, start_at, end_at, location_id, service_id, provider_id, sequence)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (booking_id) DO UPDATE SET status_id = excluded.status_id, start_at = excluded.start_at,
    end_at = excluded.end_at, location_id = excluded.location_id, service_id = excluded.service_id,
    provider_id = excluded.provider_id, sequence = excluded.sequence;

-- name: InsertMessage :exec
INSERT INTO messages (message_key, kind, recipient, channel, to_address, booking_id, payment_request_id, provider_id,
    offset_min, detail_json, state, note, send_at, next_attempt_at, created_at, updated_at)
VALUES (sqlc.arg(message_key), sqlc.arg(kind), sqlc.arg(recipient), sqlc.arg(channel), sqlc.arg(to_address), sqlc.narg(booking_id),
    sqlc.narg(payment_request_id), sqlc.narg(provider_id), sqlc.narg(offset_min), sqlc.arg(detail_json),
    sqlc.arg(state), sqlc.arg(note), sqlc.arg(send_at), sqlc.narg(next_attempt_at), sqlc.arg(created_at),
    sqlc.arg(created_at));

-- name: InsertMessageClaimed :one
-- A message due now, inserted already claimed (next_attempt_at NULL: the lease a claim sets) for
-- the dispatcher running in this process, which gets it in memory once the write commits
-- (app/queue/handoff.go).
INSERT INTO messages (message_key, kind, recipient, channel, to_address, booking_id, payment_request_id, provider_id,
    offset_min, detail_json, state, note, send_at, next_attempt_at, created_at, updated_at)
VALUES (sqlc.arg(message_key), sqlc.arg(kind), sqlc.arg(recipient), sqlc.arg(channel), '', sqlc.narg(booking_id),
    sqlc.narg(payment_request_id), sqlc.narg(provider_id), NULL, sqlc.arg(detail_json),
    'pending', '', sqlc.arg(send_at), NULL, sqlc.arg(created_at), sqlc.arg(created_at))
RETURNING id;

-- The channel a client's messages are planned for: their preferred one and their number.
-- name: MessageClientChannel :one
SELECT CAST(coalesce((SELECT p.channel FROM client_message_prefs p WHERE p.client_id = c.id), 'email') AS TEXT) AS channel,
    coalesce(c.phone, '') AS phone
FROM clients c WHERE c.id = ?;

-- Messages to providers (app/messages/providers.go) -------------------------------------------

-- Whether and when a provider is emailed: read when a booking of theirs is written, and again
-- when a message to them is sent.
-- name: MessageProvider :one
SELECT p.id, p.public_name, p.email, p.notify_bookings, p.agenda_min, l.timezone
FROM providers p JOIN locations l ON l.id = p.location_id
WHERE p.id = ?;

-- A provider's daily agenda messages for one local day (detail_json's "day"), planned or sent.
-- name: ProviderAgendaFor :many
SELECT id, state, next_attempt_at FROM messages
WHERE provider_id = sqlc.arg(provider_id) AND kind = 'provider_agenda' AND state IN ('pending', 'sent')
  AND json_extract(detail_json, '$.day') = CAST(sqlc.arg(day) AS TEXT);

-- name: SkipProviderAgenda :exec
UPDATE messages SET state = 'skipped', note = sqlc.arg(note), next_attempt_at = NULL, updated_at = sqlc.arg(now)
WHERE provider_id = sqlc.arg(provider_id) AND kind = 'provider_agenda' AND state = 'pending'
  AND next_attempt_at IS NOT NULL;

-- The starts of a provider's bookings from a time on that are not cancelled: the days their
-- agenda is planned for.
-- name: ProviderBookingStarts :many
SELECT start_at FROM bookings
WHERE provider_id = sqlc.arg(provider_id) AND status_id <> 5 AND start_at >= sqlc.arg(from_at)
ORDER BY start_at;

-- A provider's day as the agenda lists it: the bookings not cancelled that start in it.
-- name: ProviderAgendaBookings :many
SELECT b.id, b.start_at, b.end_at, b.status_id, c.first_name, coalesce(c.last_name, '') AS last_name,
    s.name AS service_name, l.name AS location_name, l.timezone
FROM bookings b
JOIN clients c ON c.id = b.client_id
JOIN services s ON s.id = b.service_id
JOIN locations l ON l.id = b.location_id
WHERE b.provider_id = sqlc.arg(provider_id) AND b.status_id <> 5
  AND b.start_at >= sqlc.arg(from_at) AND b.start_at < sqlc.arg(to_at)
ORDER BY b.start_at, b.id;

-- name: PendingBookingReminders :many
SELECT id, offset_min, recipient, next_attempt_at FROM messages
WHERE booking_id = ? AND kind = 'reminder' AND state = 'pending'
ORDER BY id;

-- name: MoveMessage :exec
UPDATE messages SET send_at = sqlc.arg(send_at), next_attempt_at = sqlc.arg(send_at), updated_at = sqlc.arg(now)
WHERE id = sqlc.arg(id) AND state = 'pending' AND next_attempt_at IS NOT NULL;

-- name: SkipPendingMessage :exec
UPDATE messages SET state = 'skipped', note = sqlc.arg(note), next_attempt_at = NULL, updated_at = sqlc.arg(now)
WHERE id = sqlc.arg(id) AND state = 'pending' AND next_attempt_at IS NOT NULL;

-- The dispatcher (app/messages/dispatch.go, through app/queue).

-- name: MessageTransportSettings :one
SELECT smtp_host, smtp_port, smtp_security, smtp_username, smtp_password_sealed, from_name, from_address,
    reply_to, owner_address, updated_at
FROM message_settings WHERE id = 1;

-- A first attempt is due since its series began: send_at for a new row, restarted_at after a
-- resend. Only messages that can leave are claimed: any while email is set up (a text falls back
-- to email when texts cannot go), texts alone while only texts are. The limit is a CAST
-- (queries/README.md).
-- name: ClaimDueFirstMessages :many
UPDATE messages SET next_attempt_at = NULL
WHERE id IN (
    SELECT m.id FROM messages m
    WHERE m.state = 'pending' AND (m.attempts > m.series_base) = 0 AND m.next_attempt_at <= sqlc.arg(now)
      AND (CAST(sqlc.arg(email_ready) AS BOOLEAN) OR m.channel <> 'email' AND CAST(sqlc.arg(text_ready) AS BOOLEAN))
    ORDER BY m.next_attempt_at, m.id LIMIT CAST(sqlc.arg(lim) AS INTEGER))
RETURNING id, attempts, restarted_at, send_at;

-- name: ListDueMessageRetries :many
SELECT id, attempts, series_base, coalesce(restarted_at, send_at) AS series_at, next_attempt_at
FROM messages
WHERE state = 'pending' AND (attempts > series_base) = 1 AND next_attempt_at <= sqlc.arg(now)
  AND (CAST(sqlc.arg(email_ready) AS BOOLEAN) OR channel <> 'email' AND CAST(sqlc.arg(text_ready) AS BOOLEAN))
ORDER BY next_attempt_at, id LIMIT CAST(sqlc.arg(lim) AS INTEGER);

-- name: ClaimMessage :execrows
UPDATE messages SET next_attempt_at = NULL
WHERE id = ? AND state = 'pending' AND next_attempt_at IS NOT NULL;

-- name: NextMessageRetryAfter :one
SELECT CAST(coalesce(min(next_attempt_at), 0) AS INTEGER) FROM messages
WHERE state = 'pending' AND (attempts > series_base) = 1 AND next_attempt_at > sqlc.arg(now);

-- name: ReleaseMessage :exec
UPDATE messages SET next_attempt_at = ?
WHERE id = ? AND state = 'pending' AND next_attempt_at IS NULL;

-- name: ReleaseAllMessageClaims :execrows
UPDATE messages SET next_attempt_at = ? WHERE state = 'pending' AND next_attempt_at IS NULL;

-- name: GetMessageRow :one
SELECT * FROM messages WHERE id = ?;

-- Everything a booking message says, read when it is sent (so it names the booking as it is).
-- name: MessageBooking :one
SELECT b.id, b.status_id, b.start_at, b.end_at, b.price_cents, b.change_count, b.created_at,
    b.client_id, c.first_name, coalesce(c.last_name, '') AS last_name, coalesce(c.email, '') AS email,
    coalesce(c.phone, '') AS phone,
    CAST(coalesce((SELECT mp.channel FROM client_message_prefs mp WHERE mp.client_id = c.id), 'email') AS TEXT) AS channel,
    s.name AS service_name, s.is_video, b.provider_id, p.public_name AS provider_name,
    l.name AS location_name, l.address_json, l.timezone, coalesce(l.phone, '') AS location_phone
FROM bookings b
JOIN clients c ON c.id = b.client_id
JOIN services s ON s.id = b.service_id
JOIN providers p ON p.id = b.provider_id
JOIN locations l ON l.id = b.location_id
WHERE b.id = ?;

-- name: MessagePaymentRequest :one
SELECT pr.id, pr.uuid, pr.amount_cents, pr.status, pr.checkout_url, pr.expires_at, pr.paid_at,
    coalesce(ca.client_id, 0) AS client_id, coalesce(c.first_name, '') AS first_name,
    coalesce(c.last_name, '') AS last_name, coalesce(c.email, '') AS email, coalesce(c.phone, '') AS phone,
    CAST(coalesce((SELECT mp.channel FROM client_message_prefs mp WHERE mp.client_id = c.id), 'email') AS TEXT) AS channel,
    CAST(coalesce((SELECT min(b.id) FROM bookings b WHERE b.payment_request_id = pr.id), 0) AS INTEGER) AS booking_id,
    CAST(coalesce((SELECT l.timezone FROM locations l WHERE l.id = ca.location_id),
        (SELECT l.timezone FROM locations l ORDER BY l.id LIMIT 1), 'UTC') AS TEXT) AS timezone
FROM payment_requests pr
JOIN carts ca ON ca.id = pr.cart_id
LEFT JOIN clients c ON c.id = ca.client_id
WHERE pr.id = ?;

-- name: MessageBusiness :one
SELECT CAST(coalesce((SELECT name FROM company ORDER BY id LIMIT 1), '') AS TEXT) AS name,
    CAST(coalesce((SELECT email FROM owners ORDER BY id LIMIT 1), '') AS TEXT) AS owner_email;

-- name: ClientOptedOut :one
SELECT count(*) > 0 FROM message_optouts WHERE client_id = ?;

-- name: InsertMessageAttempt :exec
INSERT INTO message_attempts (message_id, attempt, started_at, duration_ms, code, category, reply, to_address,
    message_id_header, channel)
SELECT sqlc.arg(message_id), sqlc.arg(attempt), sqlc.arg(started_at), sqlc.arg(duration_ms), sqlc.narg(code),
    sqlc.narg(category), sqlc.arg(reply), sqlc.arg(to_address), sqlc.arg(message_id_header), sqlc.arg(channel)
WHERE EXISTS (SELECT 1 FROM messages WHERE id = sqlc.arg(message_id));

-- A message the server accepted is sent whatever happened meanwhile; otherwise only a pending
-- row changes state.
-- name: RecordMessageAttempt :exec
UPDATE messages
SET attempts = sqlc.arg(attempts), last_attempt_at = sqlc.arg(at), last_code = sqlc.narg(code),
    note = sqlc.arg(note), to_address = sqlc.arg(to_address), subject = sqlc.arg(subject), updated_at = sqlc.arg(at),
    channel = sqlc.arg(channel),
    state = CASE WHEN state = 'pending' OR CAST(sqlc.arg(new_state) AS TEXT) = 'sent'
        THEN CAST(sqlc.arg(new_state) AS TEXT) ELSE state END,
    next_attempt_at = CASE WHEN state = 'pending' AND CAST(sqlc.arg(new_state) AS TEXT) = 'pending'
        THEN sqlc.narg(next_attempt_at) ELSE NULL END
WHERE id = sqlc.arg(id);

-- A message found, when its turn came, to have nothing to say (booking cancelled or past,
-- no address, opted out): no attempt is made.
-- name: SkipClaimedMessage :exec
UPDATE messages SET state = 'skipped', note = sqlc.arg(note), next_attempt_at = NULL, updated_at = sqlc.arg(now)
WHERE id = sqlc.arg(id) AND state = 'pending';

-- name: CountPendingMessages :one
SELECT count(*) FROM messages WHERE state = 'pending';

-- name: PruneMessages :execrows
DELETE FROM messages WHERE id IN (
    SELECT m.id FROM messages m WHERE m.updated_at < sqlc.arg(before)
      AND (m.state <> 'pending' OR m.send_at < sqlc.arg(before))
    LIMIT CAST(sqlc.arg(lim) AS INTEGER));

-- name: PruneMessageAttempts :execrows
DELETE FROM message_attempts WHERE id IN (
    SELECT a.id FROM message_attempts a WHERE a.started_at < sqlc.arg(before) LIMIT CAST(sqlc.arg(lim) AS INTEGER));

-- The owner's side (Settings, Messages, the message log, a booking's page).

-- name: GetMessageSettings :one
SELECT * FROM message_settings WHERE id = 1;

-- name: UpdateMessageTransport :exec
UPDATE message_settings SET smtp_host = ?, smtp_port = ?, smtp_security = ?, smtp_username = ?,
    smtp_password_sealed = ?, from_name = ?, from_address = ?, reply_to = ?, updated_at = ?
WHERE id = 1;

-- name: UpdateMessageOptions :exec
UPDATE message_settings SET owner_address = ?, reminder_offsets = ?, updated_at = ? WHERE id = 1;

-- name: ListMessageKinds :many
SELECT kind, enabled, owner_copy FROM message_kinds ORDER BY rowid;

-- name: UpdateMessageKind :execrows
UPDATE message_kinds SET enabled = ?, owner_copy = ? WHERE kind = ?;

-- name: GetMessageTemplate :one
SELECT * FROM message_templates WHERE kind = ? AND language = ?;

-- name: UpsertMessageTemplate :exec
INSERT INTO message_templates (kind, language, subject, body, updated_at) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (kind, language) DO UPDATE SET subject = excluded.subject, body = excluded.body,
    updated_at = excluded.updated_at;

-- name: DeleteMessageTemplate :exec
DELETE FROM message_templates WHERE kind = ? AND language = ?;

-- name: ListMessages :many
SELECT id, message_key, kind, recipient, channel, to_address, booking_id, payment_request_id, provider_id, offset_min, state,
    note, send_at, next_attempt_at, attempts, series_base, last_attempt_at, last_code, subject, delivery_status, delivery_note, created_at, updated_at
FROM messages
WHERE (CAST(sqlc.arg(state) AS TEXT) = '' OR state = sqlc.arg(state))
  AND (CAST(sqlc.arg(kind) AS TEXT) = '' OR kind = sqlc.arg(kind))
  AND (CAST(sqlc.arg(search) AS TEXT) = '' OR to_address LIKE '%' || sqlc.arg(search) || '%'
       OR message_key = sqlc.arg(search))
ORDER BY send_at DESC, id DESC
LIMIT CAST(sqlc.arg(lim) AS INTEGER) OFFSET CAST(sqlc.arg(off) AS INTEGER);

-- name: CountMessages :one
SELECT count(*) FROM messages
WHERE (CAST(sqlc.arg(state) AS TEXT) = '' OR state = sqlc.arg(state))
  AND (CAST(sqlc.arg(kind) AS TEXT) = '' OR kind = sqlc.arg(kind))
  AND (CAST(sqlc.arg(search) AS TEXT) = '' OR to_address LIKE '%' || sqlc.arg(search) || '%'
       OR message_key = sqlc.arg(search));

-- name: BookingMessages :many
SELECT id, message_key, kind, recipient, channel, to_address, booking_id, payment_request_id, provider_id, offset_min, state,
    note, send_at, next_attempt_at, attempts, series_base, last_attempt_at, last_code, subject, delivery_status, delivery_note, created_at, updated_at
FROM messages WHERE booking_id = ? ORDER BY send_at, id;

-- name: ListMessageAttempts :many
SELECT * FROM message_attempts WHERE message_id = ? ORDER BY attempt, id;

-- name: RestartMessage :execrows
UPDATE messages
SET state = 'pending', next_attempt_at = sqlc.arg(now), series_base = attempts, restarted_at = sqlc.arg(now),
    note = '', updated_at = sqlc.arg(now)
WHERE id = sqlc.arg(id) AND state IN ('failed', 'sent');

-- name: InsertOptout :exec
INSERT INTO message_optouts (client_id, created_at) VALUES (?, ?) ON CONFLICT (client_id) DO NOTHING;

-- name: DeleteOptout :exec
DELETE FROM message_optouts WHERE client_id = ?;

-- name: ClientExists :one
SELECT count(*) > 0 FROM clients WHERE id = ?;

-- Texts (SMS): the provider's settings, the owner's short texts, a client's preferred channel.

-- name: MessageTextSettings :one
SELECT * FROM message_text_settings WHERE id = 1;

-- name: UpdateMessageTextSettings :exec
UPDATE message_text_settings SET sms_provider = ?, twilio_account_sid = ?, twilio_auth_token_sealed = ?, twilio_from = ?,
    gateway_url = ?, gateway_method = ?, gateway_auth_name = ?, gateway_auth_value_sealed = ?, gateway_content_type = ?,
    gateway_body = ?, updated_at = ?
WHERE id = 1;

-- name: GetMessageTextTemplate :one
SELECT * FROM message_text_templates WHERE kind = ? AND language = ?;

-- name: UpsertMessageTextTemplate :exec
INSERT INTO message_text_templates (kind, language, body, updated_at) VALUES (?, ?, ?, ?)
ON CONFLICT (kind, language) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at;

-- name: DeleteMessageTextTemplate :exec
DELETE FROM message_text_templates WHERE kind = ? AND language = ?;

-- name: ClientMessageChannel :one
SELECT channel FROM client_message_prefs WHERE client_id = ?;

-- name: SetClientMessageChannel :exec
INSERT INTO client_message_prefs (client_id, channel, updated_at) VALUES (?, ?, ?)
ON CONFLICT (client_id) DO UPDATE SET channel = excluded.channel, updated_at = excluded.updated_at;

-- name: DeleteClientMessageChannel :exec
DELETE FROM client_message_prefs WHERE client_id = ?;

-- name: ReminderHorizon :one
SELECT through_at FROM reminder_horizon WHERE id = 1;

-- name: SetReminderHorizon :exec
UPDATE reminder_horizon SET through_at = ? WHERE id = 1;

-- name: RemindableBookings :many
-- The live bookings whose messages are planned (message_bookings) starting in (after, through]:
-- the ones a reminder of some offset comes due for as the horizon moves. Read through the
-- per-location index, one range per location.
SELECT b.id, b.client_id, b.location_id, b.start_at FROM bookings b
WHERE b.location_id IN (SELECT l.id FROM locations l)
  AND b.start_at > sqlc.arg(after) AND b.start_at <= sqlc.arg(through)
  AND b.status_id IN (1, 2)
  AND EXISTS (SELECT 1 FROM message_bookings mb WHERE mb.booking_id = b.id)
ORDER BY b.start_at, b.id;
