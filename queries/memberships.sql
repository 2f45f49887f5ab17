-- Memberships (app/payments/memberships*.go; db/migrations/00571_memberships.sql).

-- name: InsertMembershipPlan :one
INSERT INTO membership_plans (name, price_cents, discount_bp, rollover, active, created_at, updated_at)
VALUES (?, ?, ?, ?, 1, ?, ?)
RETURNING *;

-- name: UpdateMembershipPlan :exec
UPDATE membership_plans SET name = ?, price_cents = ?, discount_bp = ?, rollover = ?, active = ?, updated_at = ? WHERE id = ?;

-- name: GetMembershipPlan :one
SELECT * FROM membership_plans WHERE id = ?;

-- name: ListMembershipPlans :many
SELECT * FROM membership_plans WHERE (sqlc.arg(active_only) = 0 OR active = 1) ORDER BY name, id;

-- name: InsertMembershipPlanService :exec
INSERT INTO membership_plan_services (plan_id, service_id, sessions) VALUES (?, ?, ?);

-- name: DeleteMembershipPlanServices :exec
DELETE FROM membership_plan_services WHERE plan_id = ?;

-- name: MembershipPlanServices :many
SELECT ps.service_id, ps.sessions, s.name AS service_name
FROM membership_plan_services ps JOIN services s ON s.id = ps.service_id
WHERE ps.plan_id = ? ORDER BY s.name, ps.service_id;

-- name: InsertMembership :one
INSERT INTO memberships (uuid, plan_id, client_id, status, provider, created_at, updated_at)
VALUES (?, ?, ?, 'pending', ?, ?, ?)
RETURNING *;

-- name: GetMembership :one
SELECT * FROM memberships WHERE id = ?;

-- name: MembershipByUUID :one
SELECT * FROM memberships WHERE uuid = ?;

-- name: MembershipBySubscription :one
SELECT * FROM memberships WHERE subscription_ref = ?;

-- name: SetMembershipCheckout :exec
UPDATE memberships SET checkout_session_id = ?, updated_at = ? WHERE id = ?;

-- name: LinkMembershipSubscription :exec
UPDATE memberships SET subscription_ref = COALESCE(subscription_ref, sqlc.arg(subscription_ref)),
    customer_ref = COALESCE(customer_ref, sqlc.arg(customer_ref)), updated_at = sqlc.arg(updated_at)
WHERE id = sqlc.arg(id);

-- name: SetMembershipStatus :exec
UPDATE memberships SET status = ?, paused_by = ?, updated_at = ? WHERE id = ?;

-- name: SetMembershipPeriodEnd :exec
UPDATE memberships SET current_period_end = MAX(COALESCE(current_period_end, 0), sqlc.arg(period_end)), updated_at = sqlc.arg(updated_at)
WHERE id = sqlc.arg(id);

-- name: InsertMembershipPeriod :one
INSERT INTO membership_periods (membership_id, period_start, period_end, invoice_ref, amount_cents, currency, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (membership_id, period_start) DO NOTHING
RETURNING id;

-- name: MembershipPeriods :many
SELECT * FROM membership_periods WHERE membership_id = ? ORDER BY period_start DESC;

-- name: InsertMembershipPack :one
INSERT INTO client_packs (client_id, service_id, sessions_total, price_cents, expires_at, membership_period_id, created_at, updated_at)
VALUES (?, ?, ?, 0, ?, ?, ?, ?)
RETURNING id;

-- name: ListMemberships :many
SELECT m.*, p.name AS plan_name, c.first_name, c.last_name
FROM memberships m JOIN membership_plans p ON p.id = m.plan_id JOIN clients c ON c.id = m.client_id
ORDER BY m.id DESC
LIMIT CAST(sqlc.arg(limit) AS INTEGER) OFFSET CAST(sqlc.arg(offset) AS INTEGER);

-- name: MembershipClient :one
SELECT id, email FROM clients WHERE id = ?;

-- name: MembershipCurrency :one
SELECT currency FROM company LIMIT 1;

-- name: ListMembershipServices :many
SELECT id, name FROM services WHERE active = 1 ORDER BY name, id;

-- name: SetMembershipPeriodSale :exec
UPDATE membership_periods SET sale_id = ? WHERE id = ?;

-- name: InsertMembershipPlanDiscount :exec
INSERT INTO membership_plan_discounts (plan_id, service_id) VALUES (?, ?);

-- name: DeleteMembershipPlanDiscounts :exec
DELETE FROM membership_plan_discounts WHERE plan_id = ?;

-- name: MembershipPlanDiscountServices :many
SELECT service_id FROM membership_plan_discounts WHERE plan_id = ? ORDER BY service_id;

-- name: MemberDiscount :one
-- The largest discount an active membership of client_id gives on service_id (basis points),
-- and its plan.
SELECT p.id AS plan_id, p.discount_bp
FROM memberships m
JOIN membership_plans p ON p.id = m.plan_id
JOIN membership_plan_discounts d ON d.plan_id = p.id AND d.service_id = sqlc.arg(service_id)
WHERE m.client_id = sqlc.arg(client_id) AND m.status = 'active' AND p.discount_bp > 0
ORDER BY p.discount_bp DESC, p.id LIMIT 1;

-- name: APIMemberships :many
-- Memberships for /v3 and MCP, newest first: all, or one client's (client_id 0: all).
SELECT m.id, m.client_id, m.status, m.paused_by, m.current_period_end, m.created_at, m.updated_at,
    p.id AS plan_id, p.name AS plan_name, p.price_cents, p.discount_bp
FROM memberships m JOIN membership_plans p ON p.id = m.plan_id
WHERE (CAST(sqlc.arg(client_id) AS INTEGER) = 0 OR m.client_id = sqlc.arg(client_id))
ORDER BY m.id DESC
LIMIT CAST(sqlc.arg(limit) AS INTEGER) OFFSET CAST(sqlc.arg(offset) AS INTEGER);

-- name: CountAPIMemberships :one
SELECT count(*) FROM memberships WHERE (CAST(sqlc.arg(client_id) AS INTEGER) = 0 OR client_id = sqlc.arg(client_id));

-- name: MessageMembership :one
-- What a membership message says: the membership, its plan and its client, as they are now.
SELECT m.id, m.uuid, m.status, m.current_period_end, p.name AS plan_name, p.price_cents,
    c.id AS client_id, c.first_name, COALESCE(c.last_name, '') AS last_name, COALESCE(c.email, '') AS email, COALESCE(c.phone, '') AS phone
FROM memberships m JOIN membership_plans p ON p.id = m.plan_id JOIN clients c ON c.id = m.client_id
WHERE m.id = ?;

-- name: InsertMembershipMessage :exec
INSERT INTO messages (message_key, kind, recipient, channel, detail_json, state, send_at, next_attempt_at,
    created_at, updated_at, membership_id)
VALUES (?, ?, 'client', 'email', ?, 'pending', ?, ?, ?, ?, ?);

-- name: MembershipOtherPeriods :one
SELECT count(*) FROM membership_periods WHERE membership_id = ? AND period_start <> ?;
