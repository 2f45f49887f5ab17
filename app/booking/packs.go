package booking

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"frontdesk/app/activity"
	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// A session pack (docs/classes.md) is N sessions of one service (session_count N > 1) that a
// client paid for at once (payments credits them), or the sessions of a service a membership
// credits for a paid period (docs/payments.md "Memberships"). A booking of that service for the client
// uses a pack when one is usable — same client and service, not expired at the booking's
// start, a session left — and records it in pack_id; the booking's price is then 0 (the pack
// paid), its list price the service's. Without a usable pack the booking is an ordinary one at
// the service's price.
//
// The check runs inside the write transaction (choosePack), and the bookings_pack_* triggers
// refuse any write that would use another client's pack, an expired one, or one session too
// many (db/migrations/00250_classes.sql).

// choosePack returns the pack a new booking of service svc for client at start uses: want nil
// picks the usable pack expiring first (then the oldest), none when there is none; a want of 0
// uses none; another id must name a usable pack of the client and service.
func choosePack(ctx context.Context, q *db.Queries, svc ServiceInfo, clientID int64, start time.Time, want *int64) (sql.NullInt64, error) {
	switch {
	case want != nil && *want == 0:
		return sql.NullInt64{}, nil
	case want != nil:
		return chosenPack(ctx, q, svc, clientID, start, *want)
	}
	// Services sold one session at a time are also paid by packs a membership credits
	// (app/payments memberships.go), so every booking with a client looks.
	if clientID == 0 {
		return sql.NullInt64{}, nil
	}
	packs, err := q.UsablePacks(ctx, db.UsablePacksParams{ClientID: clientID, ServiceID: svc.ID, StartAt: sql.NullInt64{Int64: db.Millis(start), Valid: true}})
	if err != nil {
		return sql.NullInt64{}, fmt.Errorf("packs: %w", err)
	}
	for _, p := range packs {
		if p.Used < p.SessionsTotal {
			return sql.NullInt64{Int64: p.ID, Valid: true}, nil
		}
	}
	return sql.NullInt64{}, nil
}

func chosenPack(ctx context.Context, q *db.Queries, svc ServiceInfo, clientID int64, start time.Time, id int64) (sql.NullInt64, error) {
	p, err := q.PackUsage(ctx, id)
	switch {
	case db.IsNotFound(err):
		return sql.NullInt64{}, invalid("pack_id", "no such pack").with(i18n.M("classes.pack.error.unusable"))
	case err != nil:
		return sql.NullInt64{}, fmt.Errorf("pack %d: %w", id, err)
	case p.ClientID != clientID:
		return sql.NullInt64{}, invalid("pack_id", "the pack belongs to another client").with(i18n.M("classes.pack.error.unusable"))
	case p.ServiceID != svc.ID:
		return sql.NullInt64{}, invalid("pack_id", "the pack is for another service").with(i18n.M("classes.pack.error.unusable"))
	case p.ExpiresAt.Valid && p.ExpiresAt.Int64 <= db.Millis(start):
		return sql.NullInt64{}, invalid("pack_id", "the pack expires at %s, before this booking", db.Time(p.ExpiresAt.Int64).Format(time.RFC3339)).with(i18n.M("classes.pack.error.expired"))
	case p.Used >= p.SessionsTotal:
		return sql.NullInt64{}, invalid("pack_id", "all %d sessions of the pack are used", p.SessionsTotal).with(i18n.M("classes.pack.error.used_up"))
	}
	return sql.NullInt64{Int64: id, Valid: true}, nil
}

// packWriteError translates the pack triggers' refusals.
func packWriteError(err error) error {
	switch {
	case db.IsConstraint(err, "pack_mismatch"):
		return invalid("pack_id", "the pack is for another client or service").with(i18n.M("classes.pack.error.unusable"))
	case db.IsConstraint(err, "pack_expired"):
		return invalid("pack_id", "the pack expires before this booking").with(i18n.M("classes.pack.error.expired"))
	case db.IsConstraint(err, "pack_used_up"):
		return invalid("pack_id", "all sessions of the pack are used").with(i18n.M("classes.pack.error.used_up"))
	}
	return nil
}

// PackCredit is a pack being credited to a client.
type PackCredit struct {
	ClientID, ServiceID int64
	PriceCents          int64         // what the client paid for it
	SaleID              sql.NullInt64 // the sale that paid (none: recorded by the owner)
}

// creditPack is CreditPack inside the write transaction q.
func creditPack(ctx context.Context, q *db.Queries, now time.Time, c PackCredit) (db.ClientPack, error) {
	svc, err := q.ScheduleService(ctx, c.ServiceID)
	if err != nil {
		return db.ClientPack{}, notFoundAs(err, "service")
	}
	if svc.SessionCount < 2 {
		return db.ClientPack{}, invalid("service_id", "%s is not sold in packs", svc.Name).with(i18n.M("classes.pack.error.not_a_pack", "service", svc.Name))
	}
	if _, err := q.BookingClient(ctx, c.ClientID); err != nil {
		return db.ClientPack{}, notFoundAs(err, "client")
	}
	settings, err := GetClassSettings(ctx, q)
	if err != nil {
		return db.ClientPack{}, err
	}
	var expires sql.NullInt64
	if settings.PackExpiryDays > 0 {
		expires = sql.NullInt64{Int64: db.Millis(now.AddDate(0, 0, settings.PackExpiryDays)), Valid: true}
	}
	ms := db.Millis(now)
	p, err := q.InsertPack(ctx, db.InsertPackParams{
		ClientID: c.ClientID, ServiceID: c.ServiceID, SessionsTotal: svc.SessionCount, PriceCents: c.PriceCents,
		SaleID: c.SaleID, ExpiresAt: expires, CreatedAt: ms, UpdatedAt: ms,
	})
	if err != nil {
		return p, err
	}
	// On the client's history: the pack, its service and sessions, its price and sale.
	return p, activity.Record(ctx, q, now, activity.Entry{Action: "client.pack_credited", Entity: "client", EntityID: c.ClientID,
		Changes: activity.Changes{}.Set("pack_id", nil, p.ID).Set("service", nil, svc.Name).Set("sessions_total", nil, p.SessionsTotal).
			Set("price_cents", nil, p.PriceCents).Set("sale_id", nil, p.SaleID).Set("expires_at", nil, stampMs(p.ExpiresAt))})
}

// stampMs is a nullable instant as a time for an activity entry (nil when NULL).
func stampMs(v sql.NullInt64) any {
	if !v.Valid {
		return nil
	}
	return db.Time(v.Int64)
}

// CreditPack credits a pack of service c.ServiceID (a pack service: session_count > 1) to the
// client: as many sessions as the service's session_count, expiring PackExpiryDays after now
// (ClassSettings; never when 0). It returns the new pack. It owns its transaction — the owner
// recording a pack sold outside a cart (at the desk, as a gift) — or joins the caller's
// (db.WithTx): a paid cart credits its packs with the sale. Errors: *InvalidError when the
// service is not sold in packs; *NotFoundError.
func CreditPack(ctx context.Context, d *db.DB, now time.Time, c PackCredit) (db.ClientPack, error) {
	var p db.ClientPack
	err := d.InTx(ctx, func(q *db.Queries) error {
		var err error
		p, err = creditPack(ctx, q, now, c)
		return err
	})
	return p, err
}
