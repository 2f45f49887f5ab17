package calendar

import (
	"context"
	"database/sql"
	"time"

	"frontdesk/db"
)

// Bookings are written into the provider's own calendar when the owner picks one of its
// CalDAV calendars to push to (docs/calendars.md, "Bookings in your calendar"). Triggers
// (db/migrations/00590_calendar_push.sql) queue a booking in calendar_pushes in the transaction
// of its change; the worker in app/calendar/calsync writes it.

// PushStatus is what the admin shows of a provider's pushed bookings.
type PushStatus struct {
	// Pending counts the bookings whose latest change is not yet on the calendar.
	Pending int64
	// LastError is why the latest failed attempt failed; empty when nothing pending failed.
	LastError string
}

// Pushes reads providerID's push status.
func Pushes(ctx context.Context, q *db.Queries, providerID int64) (PushStatus, error) {
	r, err := q.CalendarPushStatus(ctx, providerID)
	return PushStatus{Pending: r.Pending, LastError: r.LastError}, err
}

// pushAgain queues every booking of the provider that is on a calendar of connection id, and
// every coming one, after the push calendar changed: each goes where it now belongs (or is
// deleted, when the owner chose none).
func pushAgain(ctx context.Context, q *db.Queries, providerID, id int64, pushTo bool, now time.Time) error {
	if err := q.CalendarPushAgain(ctx, db.CalendarPushAgainParams{ProviderID: providerID, ConnectionID: sql.NullInt64{Int64: id, Valid: true}}); err != nil {
		return err
	}
	if !pushTo {
		return nil
	}
	return q.CalendarPushComing(ctx, db.CalendarPushComingParams{ProviderID: providerID, Now: now.UnixMilli()})
}
