-- The waitlist for appointments (app/booking/apptwaitlist.go).

-- name: InsertAppointmentWait :one
INSERT INTO appointment_waits (client_id, location_id, service_id, provider_id, first_day, last_day,
    source, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING *;

-- name: GetAppointmentWait :one
SELECT * FROM appointment_waits WHERE id = ?;

-- name: ClientAppointmentWaits :many
-- A client's waits still waiting, oldest first (a second one for the same thing is refused).
SELECT * FROM appointment_waits WHERE client_id = ? AND status = 'waiting' ORDER BY created_at, id;

-- name: ListAppointmentWaits :many
-- Waits still waiting, oldest first, for the owner's list.
SELECT * FROM appointment_waits WHERE status = 'waiting' ORDER BY created_at, id
LIMIT CAST(sqlc.arg(limit) AS INTEGER);

-- name: LeaveAppointmentWait :execrows
UPDATE appointment_waits SET status = 'left', updated_at = ? WHERE id = ? AND status = 'waiting';

-- name: WaitsForFreedTime :many
-- The waits a freed time matches, in the order they joined: same location and service, the
-- provider or anyone, the time's local date within the range, and no open offer of that time.
SELECT w.* FROM appointment_waits w
WHERE w.status = 'waiting' AND w.location_id = sqlc.arg(location_id) AND w.service_id = sqlc.arg(service_id)
  AND (w.provider_id IS NULL OR w.provider_id = sqlc.arg(provider_id))
  AND w.first_day <= sqlc.arg(day) AND sqlc.arg(day) <= w.last_day
  AND NOT EXISTS (SELECT 1 FROM appointment_offers o WHERE o.wait_id = w.id AND o.status = 'open'
      AND o.provider_id = sqlc.arg(provider_id) AND o.start_at = sqlc.arg(start_at))
ORDER BY w.created_at, w.id
LIMIT CAST(sqlc.arg(limit) AS INTEGER);

-- name: InsertAppointmentOffer :one
INSERT INTO appointment_offers (wait_id, token_hash, location_id, service_id, provider_id, start_at, end_at,
    created_at, expires_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING *;

-- name: AppointmentOfferByToken :one
SELECT o.*, w.client_id, w.first_day, w.last_day, w.provider_id AS wait_provider_id, w.status AS wait_status
FROM appointment_offers o JOIN appointment_waits w ON w.id = o.wait_id
WHERE o.token_hash = ?;

-- name: ClaimAppointmentOffer :execrows
UPDATE appointment_offers SET status = 'claimed', booking_id = sqlc.arg(booking_id)
WHERE id = sqlc.arg(id) AND status = 'open' AND expires_at > sqlc.arg(now);

-- name: OffersGoneForTime :exec
-- The other offers of a time just claimed are gone.
UPDATE appointment_offers SET status = 'gone'
WHERE provider_id = ? AND start_at = ? AND status = 'open';

-- name: BookAppointmentWait :exec
UPDATE appointment_waits SET status = 'booked', booking_id = ?, updated_at = ? WHERE id = ? AND status = 'waiting';

-- name: OfferMessages :many
-- The claim-link messages of a wait's offers (the owner's and the tests' view).
SELECT m.id, m.offer_id, m.detail_json, m.state, m.channel FROM messages m
JOIN appointment_offers o ON o.id = m.offer_id WHERE o.wait_id = ? ORDER BY m.id;

-- name: MessageOffer :one
-- What a claim-link message says: the offer, the client and the names, as they are now.
SELECT o.id, o.status, o.start_at, o.end_at, o.expires_at, o.wait_id,
    c.id AS client_id, c.first_name, COALESCE(c.last_name, '') AS last_name, COALESCE(c.email, '') AS email, COALESCE(c.phone, '') AS phone,
    CAST(coalesce((SELECT mp.channel FROM client_message_prefs mp WHERE mp.client_id = c.id), 'email') AS TEXT) AS channel,
    s.name AS service_name, p.public_name AS provider_name, l.name AS location_name, l.timezone
FROM appointment_offers o
JOIN appointment_waits w ON w.id = o.wait_id
JOIN clients c ON c.id = w.client_id
JOIN services s ON s.id = o.service_id
JOIN providers p ON p.id = o.provider_id
JOIN locations l ON l.id = o.location_id
WHERE o.id = ?;

-- name: InsertOfferMessage :exec
INSERT INTO messages (message_key, kind, recipient, channel, detail_json, state, send_at, next_attempt_at,
    created_at, updated_at, offer_id)
VALUES (?, 'waitlist_offer', 'client', ?, ?, 'pending', ?, ?, ?, ?, ?);

-- name: AdminAppointmentWaits :many
-- Waits still waiting with the names the owner's list shows, oldest first.
SELECT w.id, w.client_id, w.first_day, w.last_day, w.source, w.created_at,
    c.first_name, c.last_name, s.name AS service_name, l.name AS location_name,
    CAST(coalesce(p.public_name, '') AS TEXT) AS provider_name
FROM appointment_waits w
JOIN clients c ON c.id = w.client_id
JOIN services s ON s.id = w.service_id
JOIN locations l ON l.id = w.location_id
LEFT JOIN providers p ON p.id = w.provider_id
WHERE w.status = 'waiting'
ORDER BY w.created_at, w.id
LIMIT CAST(sqlc.arg(limit) AS INTEGER);
-- name: ExpireAppointmentOffer :execrows
-- An open offer whose link is past its time is gone.
UPDATE appointment_offers SET status = 'gone'
WHERE id = sqlc.arg(id) AND status = 'open' AND expires_at <= sqlc.arg(now);
