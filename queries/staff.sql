-- Staff accounts (the table owners holds every one), their single-use links and the team
-- settings (app/staff; docs/roles.md).

-- name: CountActiveOwners :one
SELECT count(*) FROM owners WHERE role = 'owner' AND disabled_at IS NULL;

-- name: CreateStaffAccount :one
INSERT INTO owners (email, password_hash, name, role, provider_id, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *;

-- name: UpdateStaffRole :execrows
UPDATE owners SET role = ?, provider_id = ?, updated_at = ? WHERE id = ?;

-- name: SetStaffDisabled :execrows
UPDATE owners SET disabled_at = ?, updated_at = ? WHERE id = ?;

-- name: UpdateStaffName :execrows
UPDATE owners SET name = ?, updated_at = ? WHERE id = ?;

-- name: CreateStaffLink :one
INSERT INTO staff_links (token_hash, purpose, email, role, provider_id, owner_id, invited_by, created_at, expires_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id;

-- name: GetStaffLinkByHash :one
SELECT * FROM staff_links WHERE token_hash = ?;

-- name: UseStaffLink :execrows
UPDATE staff_links SET used_at = ?, owner_id = ? WHERE id = ? AND used_at IS NULL;

-- name: ListOpenInvitations :many
SELECT * FROM staff_links
WHERE purpose = 'invite' AND used_at IS NULL AND expires_at > ?
ORDER BY created_at DESC;

-- name: GetStaffLink :one
SELECT * FROM staff_links WHERE id = ?;

-- A newer link for the same address and purpose replaces the open ones.
-- name: ExpireStaffLinks :exec
UPDATE staff_links SET expires_at = ? WHERE email = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?;

-- name: GetTeamSettings :one
SELECT * FROM team_settings WHERE id = 1;

-- name: UpdateTeamSettings :exec
UPDATE team_settings SET providers_edit_own_hours = ?, updated_at = ? WHERE id = 1;

-- A provider account sees a client only through a booking with its provider.
-- name: ProviderHasClient :one
SELECT EXISTS (SELECT 1 FROM bookings WHERE provider_id = ? AND client_id = ?);

-- name: ProviderClients :many
SELECT c.id, c.first_name, c.last_name, c.phone FROM clients c
WHERE c.id IN (SELECT client_id FROM bookings WHERE provider_id = sqlc.arg(provider_id))
  AND (CAST(sqlc.arg(search) AS TEXT) = ''
       OR c.first_name || ' ' || coalesce(c.last_name, '') LIKE '%' || CAST(sqlc.arg(search) AS TEXT) || '%'
       OR coalesce(c.phone, '') LIKE '%' || CAST(sqlc.arg(search) AS TEXT) || '%')
ORDER BY c.first_name, c.last_name, c.id
LIMIT 200;
