-- Replies that act, delivery statuses and WhatsApp (docs/messages.md, "Replies").

-- The booking the last text to number was about: the client's message on a text channel most
-- recently attempted.
-- name: LastTextBookingTo :one
SELECT m.booking_id, m.channel FROM messages m
WHERE m.channel <> 'email' AND m.to_address = sqlc.arg(phone) AND m.booking_id IS NOT NULL
    AND m.recipient = 'client' AND m.last_attempt_at IS NOT NULL
ORDER BY m.last_attempt_at DESC, m.id DESC LIMIT 1;

-- name: TextBookingByProviderID :one
-- The booking a text to phone was about, by the provider's id of it (a WhatsApp reply's
-- context.id): a button acts on the message whose button was pressed.
SELECT m.booking_id FROM message_attempts a JOIN messages m ON m.id = a.message_id
WHERE a.message_id_header = sqlc.arg(provider_id) AND a.channel <> 'email' AND a.to_address = sqlc.arg(phone)
    AND m.booking_id IS NOT NULL AND m.recipient = 'client'
ORDER BY a.id DESC LIMIT 1;

-- name: InboundByProviderID :one
SELECT * FROM inbound_messages WHERE channel = ? AND provider_id = ?;

-- name: InsertInbound :one
INSERT INTO inbound_messages (channel, provider_id, from_phone, body, client_id, booking_id, action, outcome, note,
    reply, received_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING id;

-- name: ListInbound :many
SELECT i.*, CAST(coalesce(c.first_name || ' ' || c.last_name, '') AS TEXT) AS client_name
FROM inbound_messages i LEFT JOIN clients c ON c.id = i.client_id
ORDER BY i.received_at DESC, i.id DESC
LIMIT CAST(sqlc.arg(limit) AS INTEGER) OFFSET CAST(sqlc.arg(offset) AS INTEGER);

-- name: CountInbound :one
SELECT count(*) FROM inbound_messages;

-- name: SetBookingClientConfirmed :exec
UPDATE bookings SET client_confirmed_at = sqlc.arg(at), updated_at = sqlc.arg(at) WHERE id = sqlc.arg(id);

-- name: InsertTextOptout :exec
INSERT INTO text_optouts (phone, channel, created_at) VALUES (?, ?, ?) ON CONFLICT (phone) DO NOTHING;

-- name: TextOptedOut :one
SELECT count(*) > 0 FROM text_optouts WHERE phone = ?;

-- The message a provider's status callback is about, by the provider's id of the text.
-- name: MessageByProviderID :one
SELECT m.id, m.delivery_status FROM message_attempts a JOIN messages m ON m.id = a.message_id
WHERE a.message_id_header = sqlc.arg(provider_id) AND a.channel <> 'email'
ORDER BY a.id DESC LIMIT 1;

-- name: UpdateMessageDelivery :exec
UPDATE messages SET delivery_status = ?, delivery_note = ?, delivery_at = ? WHERE id = ?;

-- name: MessageWhatsAppSettings :one
SELECT * FROM message_whatsapp_settings WHERE id = 1;

-- name: UpdateMessageWhatsAppSettings :exec
UPDATE message_whatsapp_settings SET enabled = ?, phone_number_id = ?, access_token_sealed = ?, app_secret_sealed = ?,
    verify_token = ?, updated_at = ?
WHERE id = 1;

-- name: GetWhatsAppTemplate :one
SELECT * FROM message_whatsapp_templates WHERE kind = ? AND language = ?;

-- name: ListWhatsAppTemplates :many
SELECT * FROM message_whatsapp_templates ORDER BY kind, language;

-- name: UpsertWhatsAppTemplate :exec
INSERT INTO message_whatsapp_templates (kind, language, template_name, template_lang, params, buttons, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (kind, language) DO UPDATE SET template_name = excluded.template_name,
    template_lang = excluded.template_lang, params = excluded.params, buttons = excluded.buttons,
    updated_at = excluded.updated_at;

-- name: DeleteWhatsAppTemplate :exec
DELETE FROM message_whatsapp_templates WHERE kind = ? AND language = ?;

-- name: InsertReplyMessage :exec
-- The answer to received message inbound_id, to its sender on its channel (recipient client),
-- or its copy to the owner by email (recipient owner, no address: the owner's is read when it
-- goes), due at once.
INSERT INTO messages (message_key, kind, recipient, channel, to_address, state, send_at, next_attempt_at,
    created_at, updated_at, inbound_id)
VALUES (sqlc.arg(message_key), 'reply', sqlc.arg(recipient), sqlc.arg(channel), sqlc.arg(phone), 'pending', sqlc.arg(now), sqlc.arg(now),
    sqlc.arg(now), sqlc.arg(now), sqlc.arg(inbound_id));

-- name: ReplyCopies :one
-- Whether every message a client sends is copied to the owner by email.
SELECT copy_replies FROM message_settings WHERE id = 1;

-- name: SetReplyCopies :exec
UPDATE message_settings SET copy_replies = sqlc.arg(copy_replies), updated_at = sqlc.arg(updated_at) WHERE id = 1;

-- name: MessageInbound :one
-- The received message a reply message answers, and its sender's client, if any.
SELECT i.channel, i.from_phone, i.body, i.reply, i.action, i.outcome, i.received_at,
    coalesce(c.first_name, '') AS first_name, coalesce(c.last_name, '') AS last_name
FROM inbound_messages i LEFT JOIN clients c ON c.id = i.client_id
WHERE i.id = ?;
