-- Gift cards (app/payments/giftcards*.go; db/migrations/00570_gift_cards.sql). The balance moves
-- only through InsertGiftCardMovement, whose triggers keep it equal to the ledger's sum.

-- name: GetGiftCardSettings :one
SELECT * FROM gift_card_settings WHERE id = 1;

-- name: UpdateGiftCardSettings :exec
UPDATE gift_card_settings SET expiry_months = ?, sell_online = ?, updated_at = ? WHERE id = 1;

-- name: InsertGiftCard :one
INSERT INTO gift_cards (code, value_cents, status, source, buyer_name, buyer_email, recipient_name, recipient_email,
    message, send_to, cart_id, created_at, updated_at)
VALUES (?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING *;

-- name: GetGiftCard :one
SELECT * FROM gift_cards WHERE id = ?;

-- name: GiftCardByCode :one
SELECT * FROM gift_cards WHERE code = ?;

-- name: PendingGiftCardsOfCart :many
SELECT * FROM gift_cards WHERE cart_id = ? AND status = 'pending' ORDER BY id;

-- name: ActivateGiftCard :execrows
UPDATE gift_cards SET status = 'active', sale_id = ?, issued_at = ?, expires_at = ?, updated_at = ?
WHERE id = ? AND status = 'pending';

-- name: VoidGiftCard :execrows
UPDATE gift_cards SET status = 'void', updated_at = ? WHERE id = ? AND status <> 'void';

-- name: InsertGiftCardMovement :one
INSERT INTO gift_card_movements (gift_card_id, kind, amount_cents, balance_after, payment_request_id, sale_id, created_at)
VALUES (sqlc.arg(gift_card_id), sqlc.arg(kind), sqlc.arg(amount_cents),
    (SELECT balance_cents FROM gift_cards WHERE id = sqlc.arg(gift_card_id)) + sqlc.arg(amount_cents),
    sqlc.arg(payment_request_id), sqlc.arg(sale_id), sqlc.arg(created_at))
RETURNING *;

-- name: GiftCardMovements :many
SELECT * FROM gift_card_movements WHERE gift_card_id = ? ORDER BY id;

-- name: ListGiftCards :many
SELECT * FROM gift_cards
WHERE (CAST(sqlc.arg(status) AS TEXT) = '' OR status = sqlc.arg(status))
ORDER BY id DESC
LIMIT CAST(sqlc.arg(limit) AS INTEGER) OFFSET CAST(sqlc.arg(offset) AS INTEGER);

-- name: CountGiftCards :one
SELECT count(*) FROM gift_cards WHERE (CAST(sqlc.arg(status) AS TEXT) = '' OR status = sqlc.arg(status));

-- name: InsertGiftCardHold :one
INSERT INTO gift_card_holds (gift_card_id, payment_request_id, amount_cents, status, created_at, updated_at)
VALUES (?, ?, ?, 'held', ?, ?)
RETURNING *;

-- name: HeldGiftCards :many
SELECT h.*, g.code FROM gift_card_holds h JOIN gift_cards g ON g.id = h.gift_card_id
WHERE h.payment_request_id = ? AND h.status = 'held' ORDER BY h.id;

-- name: EndGiftCardHold :execrows
UPDATE gift_card_holds SET status = ?, sale_id = ?, updated_at = ? WHERE id = ? AND status = 'held';

-- name: GiftCardsOfSale :many
SELECT g.code, m.amount_cents FROM gift_card_movements m JOIN gift_cards g ON g.id = m.gift_card_id
WHERE m.sale_id = ? AND m.kind = 'redeem'
UNION ALL
SELECT g.code, -h.amount_cents FROM gift_card_holds h JOIN gift_cards g ON g.id = h.gift_card_id
WHERE h.sale_id = ? AND h.status = 'captured';

-- The business's name for a card's and a membership's public pages.
-- name: PublicBusinessName :one
SELECT name FROM company LIMIT 1;

-- name: MessageGiftCard :one
-- What the gift card email says: the card as it is now.
SELECT id, code, status, value_cents, balance_cents, expires_at, buyer_name, buyer_email, recipient_name,
    recipient_email, message, send_to
FROM gift_cards WHERE id = ?;

-- name: InsertGiftCardMessage :exec
INSERT INTO messages (message_key, kind, recipient, channel, detail_json, state, send_at, next_attempt_at,
    created_at, updated_at, gift_card_id)
VALUES (?, 'gift_card', 'client', 'email', '{}', 'pending', ?, ?, ?, ?, ?);
