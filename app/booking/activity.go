package booking

import (
	"context"
	"time"

	"frontdesk/app/activity"
	"frontdesk/db"
)

// unrecorded are booking columns the trail leaves out: every write moves them, or they follow
// from others (the block from the times and the service's buffers).
var unrecorded = []string{"id", "created_at", "updated_at", "block_start_at", "block_end_at", "change_count"}

// recordActivity writes the trail's entry for a booking going from before (zero for a new one)
// to after, in the transaction of that change.
func recordActivity(ctx context.Context, q *db.Queries, now time.Time, before, after db.Booking) error {
	var ch activity.Changes
	if before.ID == 0 {
		ch = activity.Created(after, unrecorded...) // nothing to compare a new booking with
	} else {
		ch = activity.Diff(before, after, unrecorded...)
	}
	return activity.Record(ctx, q, now, activity.Entry{Action: bookingAction(before, after), EntityID: after.ID, Changes: ch})
}

// drafted is the trail entry of a new booking, encoded before its write transaction from the
// row book would insert (draftCreated): the single writer then only inserts it, when the row
// it inserts is that one.
type drafted struct {
	row     db.Booking // as insertBooking returns it, but for its id
	changes []byte
}

// draftCreated encodes the trail entry of row, a new booking's as insertBooking will return it.
func draftCreated(row db.Booking) (drafted, error) {
	changes, err := activity.Encode(activity.Created(row, unrecorded...))
	return drafted{row: row, changes: changes}, err
}

// recordCreated writes the trail's entry for new booking b: draft's encoding when it was
// drafted from b's very row (no pack took its price, say), else b's own.
func recordCreated(ctx context.Context, q *db.Queries, now time.Time, b db.Booking, draft drafted) error {
	row := b
	row.ID = 0
	if draft.changes == nil || row != draft.row {
		return recordActivity(ctx, q, now, db.Booking{}, b)
	}
	return activity.Record(ctx, q, now, activity.Entry{Action: bookingAction(db.Booking{}, b), EntityID: b.ID, Encoded: draft.changes})
}

// bookingAction names a booking's change for the trail: made, cancelled, moved (its time,
// provider, place or service), marked attended, no-show or confirmed, or otherwise updated.
func bookingAction(before, after db.Booking) string {
	switch {
	case before.ID == 0:
		return "booking.created"
	case after.StatusID == StatusCancelled && before.StatusID != StatusCancelled:
		return "booking.cancelled"
	case before.StartAt != after.StartAt || before.EndAt != after.EndAt || before.ProviderID != after.ProviderID ||
		before.LocationID != after.LocationID || before.ServiceID != after.ServiceID:
		return "booking.moved"
	case before.StatusID != after.StatusID && after.StatusID == StatusAttended:
		return "booking.attended"
	case before.StatusID != after.StatusID && after.StatusID == StatusNoShow:
		return "booking.no_show"
	case before.StatusID != after.StatusID && after.StatusID == StatusConfirmed:
		return "booking.confirmed"
	}
	return "booking.updated"
}
