package export

import (
	"context"
	"database/sql"
	"time"

	"frontdesk/db"
)

// deliveriesList is a webhook endpoint's delivery log (every endpoint's without a WebhookID),
// newest first as on the endpoint's page. The last error is the latest recorded attempt's
// category and message, as the delivery's page shows it; the request and response bodies stay
// out of the file (they hold client data the owner can read on the delivery's page).
var deliveriesList = list{
	columns: 12,
	header: func(zone string) []string {
		return []string{"id", "created (" + zone + ")", "webhook id", "webhook url", "event id", "event type", "state",
			"attempts", "last attempt (" + zone + ")", "last status", "last error", "next attempt (" + zone + ")"}
	},
	query: func(_ context.Context, _ *db.DB, f Filter, zone *time.Location) (string, []any, error) {
		where, args := createdWhere("d.created_at", f, zone)
		if f.WebhookID != 0 {
			where += " AND d.webhook_id = ?"
			args = append(args, f.WebhookID)
		}
		if f.DeliveryState != "" {
			where += " AND d.state = ?"
			args = append(args, f.DeliveryState)
		}
		if f.DeliveryType != "" {
			where += " AND e.type = ?"
			args = append(args, f.DeliveryType)
		}
		if f.DeliveryEvent != "" {
			where += " AND d.event_id = ?"
			args = append(args, f.DeliveryEvent)
		}
		return `SELECT d.id, d.created_at, d.webhook_id, w.url, d.event_id, e.type, d.state, d.attempts, d.last_attempt_at,
	d.last_status,
	(SELECT CASE WHEN a.error_category IS NULL OR a.error_message = '' THEN coalesce(a.error_category, a.error_message)
		ELSE a.error_category || ': ' || a.error_message END FROM delivery_attempts a
		WHERE a.delivery_id = d.id ORDER BY a.attempt DESC LIMIT 1),
	d.next_attempt_at
FROM deliveries d
JOIN events e ON e.id = d.event_id
JOIN webhooks w ON w.id = d.webhook_id
WHERE ` + where + ` ORDER BY d.created_at DESC, d.id DESC`, args, nil
	},
	row: func(_ *Writer, zone *time.Location, v []sql.NullString) []string {
		return []string{v[0].String, at(v[1], zone), v[2].String, v[3].String, v[4].String, v[5].String, v[6].String,
			v[7].String, at(v[8], zone), v[9].String, v[10].String, at(v[11], zone)}
	},
}

func init() { lists["deliveries"] = deliveriesList }
