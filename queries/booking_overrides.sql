-- Owner overrides of the staff rules (app/booking/override.go, migration 00357).

-- name: CreateBookingOverride :exec
INSERT INTO booking_overrides (booking_id, reason_code, message, owner_email, created_at) VALUES (?, ?, ?, ?, ?);

-- name: ListBookingOverrides :many
SELECT reason_code, message, owner_email, created_at FROM booking_overrides WHERE booking_id = ? ORDER BY created_at, id;
