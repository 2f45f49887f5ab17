package messages

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"frontdesk/db"
)

// Reminders are written into the outbox a day before they are due rather than when their
// booking is made (docs/messages.md, "When reminders are planned"). The reminder horizon
// (reminder_horizon.through_at) says how far that has gone: every reminder whose moment,
// start − offset, is at or before it has its row; a booking's write plans only those
// (planReminders), and advanceReminders writes the rest as the horizon moves. A booking made
// weeks ahead thus costs no reminder rows inside the single writer, and its reminders follow
// the message settings as they are a day before.

// reminderLookahead is how far ahead of now the horizon is kept: a day, longer than any quiet
// hours a text reminder is moved ahead of (policy.go), so a reminder's row exists before it is
// due however they move it.
const reminderLookahead = 24 * time.Hour

// reminderStep is how far behind now + reminderLookahead the horizon may fall before a claim
// round moves it (ReminderPlanner): one write a minute at most.
const reminderStep = time.Minute

// horizon returns the reminder horizon as q's transaction sees it, first moving it to now +
// reminderLookahead when it lies behind now (the first plan on a new database, or after the
// appliance was stopped), so that every reminder a booking's write leaves unwritten is still
// ahead.
func horizon(ctx context.Context, q *db.Queries, now time.Time, p plan) (time.Time, error) {
	through, err := q.ReminderHorizon(ctx)
	if err != nil {
		return time.Time{}, fmt.Errorf("reminder horizon: %w", err)
	}
	if through >= db.Millis(now) {
		return db.Time(through), nil
	}
	return advanceReminders(ctx, q, now, p, through)
}

// PlanDueReminders moves the reminder horizon to now + reminderLookahead, writing the row of
// every reminder whose moment it passes, and returns the new horizon.
func PlanDueReminders(ctx context.Context, q *db.Queries, now time.Time) (time.Time, error) {
	p, err := loadPlan(ctx, q)
	if err != nil {
		return time.Time{}, err
	}
	through, err := q.ReminderHorizon(ctx)
	if err != nil {
		return time.Time{}, fmt.Errorf("reminder horizon: %w", err)
	}
	return advanceReminders(ctx, q, now, p, through)
}

// advanceReminders moves the horizon from from (ms) to now + reminderLookahead: each live
// booking with planned messages whose reminder moment lies in between, and which has not
// started yet, gets that reminder planned, for each of its recipients who has none pending.
// A moment already past (the appliance was stopped over it) is planned due at once, as the
// row written at booking time would have been.
func advanceReminders(ctx context.Context, q *db.Queries, now time.Time, p plan, from int64) (time.Time, error) {
	to := now.Add(reminderLookahead)
	if db.Millis(to) <= from {
		return db.Time(from), nil
	}
	if p.enabled[Reminder] {
		for _, off := range p.offsets {
			rows, err := q.RemindableBookings(ctx, db.RemindableBookingsParams{
				After: max(from+off.Milliseconds(), db.Millis(now)), Through: db.Millis(to.Add(off)),
			})
			if err != nil {
				return time.Time{}, fmt.Errorf("reminders: %w", err)
			}
			for _, b := range rows {
				w := writer{ctx: ctx, q: q, now: now, plan: p, bookingID: b.ID, clientID: b.ClientID, locationID: b.LocationID}
				if err := w.remind(db.Time(b.StartAt), off); err != nil {
					return time.Time{}, err
				}
			}
		}
	}
	if err := q.SetReminderHorizon(ctx, db.Millis(to)); err != nil {
		return time.Time{}, fmt.Errorf("reminder horizon: %w", err)
	}
	return to, nil
}

// remind plans the reminder off ahead of start for each recipient who has none pending (one
// planned when the booking was written, or moved with it, stays as it is).
func (w *writer) remind(start time.Time, off time.Duration) error {
	pending, err := w.q.PendingBookingReminders(w.ctx, sql64(w.bookingID))
	if err != nil {
		return err
	}
	for _, recipient := range w.recipients(Reminder) {
		if hasPending(pending, recipient, off) {
			continue
		}
		if err := w.insert(Reminder, recipient, off, start.Add(-off), detail{}, StatePending, ""); err != nil {
			return err
		}
	}
	return nil
}

// hasPending reports whether pending, a booking's pending reminders, holds recipient's of off.
func hasPending(pending []db.PendingBookingRemindersRow, recipient string, off time.Duration) bool {
	return slices.ContainsFunc(pending, func(r db.PendingBookingRemindersRow) bool {
		return r.Recipient == recipient && r.OffsetMin.Int64 == int64(off/time.Minute)
	})
}

// ReminderPlanner moves the reminder horizon from the dispatcher's claim rounds. It remembers
// where it last left it, so a round that finds it less than reminderStep behind costs no read.
// What it remembers is only a hint: a round whose transaction is rolled back leaves it ahead of
// the table, and the horizon then moves a step later, still a day before any reminder is due.
type ReminderPlanner struct{ through atomic.Int64 }

// Plan moves the horizon inside q's transaction when it has fallen a step behind.
func (r *ReminderPlanner) Plan(ctx context.Context, q *db.Queries, now time.Time) error {
	if db.Millis(now.Add(reminderLookahead-reminderStep)) < r.through.Load() {
		return nil
	}
	through, err := PlanDueReminders(ctx, q, now)
	if err != nil {
		return err
	}
	r.through.Store(db.Millis(through))
	return nil
}
