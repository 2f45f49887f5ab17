-- Two-factor sign-in (app/twofactor).

-- name: GetOwnerTOTP :one
SELECT * FROM owner_totp WHERE owner_id = ?;

-- Starting (or restarting) enrolment replaces an unconfirmed secret, never a confirmed one.
-- name: BeginOwnerTOTP :execrows
INSERT INTO owner_totp (owner_id, secret_sealed, confirmed_at, last_step, created_at) VALUES (?, ?, NULL, 0, ?)
ON CONFLICT (owner_id) DO UPDATE SET secret_sealed = excluded.secret_sealed, created_at = excluded.created_at
WHERE owner_totp.confirmed_at IS NULL;

-- name: ConfirmOwnerTOTP :execrows
UPDATE owner_totp SET confirmed_at = ?, last_step = ? WHERE owner_id = ? AND confirmed_at IS NULL;

-- Records the accepted step; refuses (0 rows) a step not after the last one.
-- name: AdvanceOwnerTOTP :execrows
UPDATE owner_totp SET last_step = sqlc.arg(step) WHERE owner_id = sqlc.arg(owner_id) AND last_step < sqlc.arg(step);

-- name: DeleteOwnerTOTP :exec
DELETE FROM owner_totp WHERE owner_id = ?;

-- name: DeleteRecoveryCodes :exec
DELETE FROM owner_recovery_codes WHERE owner_id = ?;

-- name: InsertRecoveryCode :exec
INSERT INTO owner_recovery_codes (owner_id, code_hash, created_at) VALUES (?, ?, ?);

-- name: UseRecoveryCode :execrows
UPDATE owner_recovery_codes SET used_at = sqlc.arg(used_at)
WHERE owner_id = sqlc.arg(owner_id) AND code_hash = sqlc.arg(code_hash) AND used_at IS NULL;

-- name: CountUnusedRecoveryCodes :one
SELECT count(*) FROM owner_recovery_codes WHERE owner_id = ? AND used_at IS NULL;

-- name: GetRequireTwoFactor :one
SELECT require_two_factor FROM security_settings WHERE id = 1;

-- name: SetRequireTwoFactor :exec
UPDATE security_settings SET require_two_factor = ?, updated_at = ? WHERE id = 1;
