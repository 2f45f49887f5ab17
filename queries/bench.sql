-- name: BenchBookingBlocks :many
-- Every provider's busy time, in the order the bench's overlap sweep needs: after a booking
-- race, `frontdesk bench` proves that no provider was double-booked, independently of the
-- overlap trigger. A class session is one block however many seats it has (its attendees'
-- bookings share it; docs/classes.md).
SELECT x.provider_id, x.block_start_at, x.block_end_at FROM (
    SELECT b.provider_id, b.block_start_at, b.block_end_at FROM bookings b
    WHERE b.status_id <> 5 AND b.session_id IS NULL
    UNION ALL
    SELECT s.provider_id, s.block_start_at, s.block_end_at FROM class_sessions s
    WHERE s.status = 'scheduled'
) x
ORDER BY x.provider_id, x.block_start_at;

-- name: BenchCopyBookings :execrows
-- Copies up to max_rows of a location's bookings, shifted later by shift_ms, in one statement:
-- list_bookings_100k doubles a location's bookings this way until it holds 100 000. A shift of
-- at least their whole span keeps every provider free of overlaps; the trigger still checks
-- every row.
INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at,
    block_start_at, block_end_at, price_cents, list_price_cents, source, created_at, updated_at)
SELECT src.location_id, src.service_id, src.provider_id, src.client_id, src.status_id,
    src.start_at + sqlc.arg(shift_ms), src.end_at + sqlc.arg(shift_ms),
    src.block_start_at + sqlc.arg(shift_ms), src.block_end_at + sqlc.arg(shift_ms),
    src.price_cents, src.list_price_cents, src.source, src.created_at, src.updated_at
FROM bookings AS src
WHERE src.location_id = sqlc.arg(location_id)
ORDER BY src.id
LIMIT CAST(sqlc.arg(max_rows) AS INTEGER);

-- name: BenchLocationSpan :one
-- The first block start and the last block end of a location's bookings, and how many it has.
SELECT CAST(count(*) AS INTEGER) AS bookings,
    CAST(coalesce(min(block_start_at), 0) AS INTEGER) AS first_start_at,
    CAST(coalesce(max(block_end_at), 0) AS INTEGER) AS last_end_at
FROM bookings
WHERE location_id = sqlc.arg(location_id);

-- name: BenchLastMessageID :one
-- day_in_the_life's customer messages are those written after this id.
SELECT CAST(coalesce(max(id), 0) AS INTEGER) AS id FROM messages;

-- name: BenchSkipPendingMessages :execrows
-- Skips every planned message: before day_in_the_life, what earlier scenarios planned (so the
-- day measures its own mail, not a backlog); after it, what is left (so later scenarios send
-- nothing).
UPDATE messages SET state = 'skipped', note = sqlc.arg(note), next_attempt_at = NULL, updated_at = sqlc.arg(now)
WHERE state = 'pending';

-- name: BenchGiveClientsAddresses :execrows
-- Gives every client without an email address one at example.com, so their messages are sent.
UPDATE clients SET email = 'client-' || id || '@example.com' WHERE coalesce(email, '') = '';

-- name: BenchMailServer :one
SELECT smtp_host, smtp_port, smtp_security, from_address FROM message_settings WHERE id = 1;

-- name: BenchSetMailServer :exec
UPDATE message_settings SET smtp_host = sqlc.arg(smtp_host), smtp_port = sqlc.arg(smtp_port),
    smtp_security = sqlc.arg(smtp_security), from_address = sqlc.arg(from_address), updated_at = sqlc.arg(now)
WHERE id = 1;

-- name: BenchPendingMessages :one
-- How many of the messages written after after_id and due by until are still waiting.
SELECT CAST(count(*) AS INTEGER) AS n FROM messages
WHERE id > sqlc.arg(after_id) AND send_at <= sqlc.arg(until) AND state = 'pending';

-- name: BenchMessageOutcomes :many
-- What became of the messages written after after_id and due by until, with each one's time
-- from being planned to its last record (for a sent one: accepted by the mail server).
SELECT state, CAST(updated_at - created_at AS INTEGER) AS lag_ms FROM messages
WHERE id > sqlc.arg(after_id) AND send_at <= sqlc.arg(until) AND state <> 'pending';

-- name: BenchMessageFirstAttempts :many
-- The first attempt of each message written after after_id and due by until: its time from
-- being planned (its booking's commit) to the attempt's start, and how long the attempt took.
SELECT CAST(a.started_at - m.created_at AS INTEGER) AS lag_ms, a.duration_ms FROM messages m
JOIN message_attempts a ON a.message_id = m.id AND a.attempt = 1
WHERE m.id > sqlc.arg(after_id) AND m.send_at <= sqlc.arg(until);
