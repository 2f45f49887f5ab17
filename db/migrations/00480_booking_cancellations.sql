-- Who cancelled a booking, when, and whether it was late, for the reports (docs/reports.md):
-- set by the one place a booking is cancelled (app/booking cancelRow), never changed after.
--
-- cancelled_by: 'client' — through a customer's surface (the booking site, the API, MCP: the
-- flows the cancel policy applies to); 'business' — by the team in the admin (a booking, or a
-- class session cancelled with its seats); 'unpaid' — the business's own hold given back when a
-- payment request expired or was cancelled. cancelled_late: the cancel came inside the
-- policy's lock window (company.edit_lock_min before the start; with none, at or after the
-- start) — the rule that also decides whether a pack's session is used up.
--
-- Bookings cancelled before this migration get cancelled_at from updated_at (a cancelled
-- booking is final) and cancelled_by from the activity trail's entry for the cancel where one
-- is kept ('unpaid' when the booking's payment request expired or was cancelled); NULL where the trail no longer says (reported as "not recorded").

-- +goose Up
ALTER TABLE bookings ADD COLUMN cancelled_at INTEGER;
ALTER TABLE bookings ADD COLUMN cancelled_by TEXT
    CHECK (cancelled_by IS NULL OR cancelled_by = 'client' OR cancelled_by = 'business' OR cancelled_by = 'unpaid');
ALTER TABLE bookings ADD COLUMN cancelled_late BOOLEAN NOT NULL DEFAULT 0 CHECK (cancelled_late BETWEEN 0 AND 1);

UPDATE bookings SET cancelled_at = updated_at,
    cancelled_late = (updated_at >= start_at - 60000 * (SELECT COALESCE(MAX(edit_lock_min), 0) FROM company)),
    cancelled_by = CASE
        WHEN (SELECT pr.status FROM payment_requests pr WHERE pr.id = bookings.payment_request_id)
            IN ('expired', 'cancelled') THEN 'unpaid'
        ELSE (SELECT CASE a.actor_kind
            WHEN 'owner' THEN 'business' WHEN 'cli' THEN 'business' WHEN 'system' THEN 'unpaid'
            ELSE 'client' END
        FROM activity a
        WHERE a.entity = 'booking' AND a.entity_id = bookings.id AND a.action = 'booking.cancelled'
        ORDER BY a.at DESC LIMIT 1) END
WHERE status_id = 5;

-- +goose Down
ALTER TABLE bookings DROP COLUMN cancelled_late;
ALTER TABLE bookings DROP COLUMN cancelled_by;
ALTER TABLE bookings DROP COLUMN cancelled_at;
