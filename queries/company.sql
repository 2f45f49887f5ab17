-- name: GetCompany :one
SELECT * FROM company LIMIT 1;

-- name: CountCompanies :one
SELECT count(*) FROM company;

-- name: CreateCompany :one
INSERT INTO company (name, currency, slot_step_min, min_notice_min, max_advance_days, can_edit, can_cancel,
    edit_lock_min, max_changes, online_payments, payment_expiry_min, language, clock, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING *;

-- name: UpdateCompany :exec
UPDATE company SET name = ?, currency = ?, slot_step_min = ?, min_notice_min = ?, max_advance_days = ?,
    can_edit = ?, can_cancel = ?, edit_lock_min = ?, max_changes = ?, online_payments = ?,
    payment_expiry_min = ?, language = ?, clock = ?, updated_at = ?
WHERE id = ?;

-- name: CompanyLocale :one
-- What formatting texts for the business needs (app/locale).
SELECT language, clock, currency FROM company LIMIT 1;
