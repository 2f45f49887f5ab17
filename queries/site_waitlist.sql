-- name: InsertSiteWaitlistLink :exec
-- The booking site's waitlist links (app/site waitlist.go).
INSERT INTO site_waitlist_links (entry_id, token_hash, nonce_hash, created_at) VALUES (?, ?, ?, ?);

-- name: SiteWaitlistLink :one
-- The entry a link leads to, with the end of its session (a link works until a day after).
SELECT l.entry_id, s.end_at
FROM site_waitlist_links l
JOIN waitlist_entries e ON e.id = l.entry_id
JOIN class_sessions s ON s.id = e.session_id
WHERE l.token_hash = ?;

-- name: SiteWaitlistByNonce :one
SELECT entry_id FROM site_waitlist_links WHERE nonce_hash = ?;

-- name: SiteWaitlistSession :one
-- A waitlist link's session as its page shows it.
SELECT s.start_at, s.end_at, s.location_id, sv.name AS service_name, p.public_name AS provider_name,
    l.name AS location_name, l.timezone, l.address_json
FROM class_sessions s
JOIN services sv ON sv.id = s.service_id
JOIN providers p ON p.id = s.provider_id
JOIN locations l ON l.id = s.location_id
WHERE s.id = ?;
