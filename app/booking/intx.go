package booking

import (
	"context"
	"fmt"
	"time"

	"frontdesk/app/webhook"
	"frontdesk/db"
)

// The functions below write bookings inside a transaction the caller already holds (the q of
// its db.InTx), for changes that must commit together with something else: a payment request
// reserves its bookings, and releases or confirms them, in the same transaction as the request
// itself (app/payments). They apply exactly the rules of Create and Cancel and record the same
// events; only the transaction belongs to the caller.

// CreateInTx is Create inside the caller's transaction q: the same checks (for nb.Source), the
// same overlap check and trigger, the same booking.created event. It returns the new booking's
// id; the caller reads the booking after its commit if it needs the view.
func CreateInTx(ctx context.Context, q *db.Queries, now time.Time, nb NewBooking) (int64, error) {
	if err := validSource(nb.Source); err != nil {
		return 0, err
	}
	if err := validStatus(nb.StatusID); err != nil {
		return 0, err
	}
	if err := validExtras(nb.Notes, nb.TimeResourceID); err != nil {
		return 0, err
	}
	if err := checkClient(ctx, q, nb.ClientID); err != nil {
		return 0, err
	}
	pl, err := place(ctx, inTx(q), now, nb.placement(), nb.Source, 0)
	if err != nil {
		return 0, seatedOr(ctx, q, nb, err)
	}
	status, err := q.BookingStatusByID(ctx, nb.StatusID)
	if err != nil {
		return 0, fmt.Errorf("booking status %d: %w", nb.StatusID, err)
	}
	b, err := book(ctx, q, now, nb, pl, status)
	return b.ID, err
}

// ReleaseInTx cancels booking id inside the caller's transaction q, as the system rather than a
// customer: no cancel policy applies (the business's own hold on the time is being given back).
// A booking that is already cancelled is left alone without an event.
func ReleaseInTx(ctx context.Context, q *db.Queries, now time.Time, id int64) error {
	return setStatusInTx(ctx, q, now, id, StatusCancelled)
}

// ConfirmInTx turns a reserved booking into a confirmed one inside the caller's transaction q
// and records booking.updated. A booking that is no longer reserved (the owner changed or
// cancelled it meanwhile) is left as it is.
func ConfirmInTx(ctx context.Context, q *db.Queries, now time.Time, id int64) error {
	return setStatusInTx(ctx, q, now, id, StatusConfirmed)
}

func setStatusInTx(ctx context.Context, q *db.Queries, now time.Time, id, statusID int64) error {
	view, err := getView(ctx, q, id)
	if err != nil {
		return err
	}
	row := view.Booking
	switch {
	case row.StatusID == StatusCancelled:
		return nil
	case statusID == StatusConfirmed && row.StatusID != StatusReserved:
		return nil
	}
	status, err := q.BookingStatusByID(ctx, statusID)
	if err != nil {
		return fmt.Errorf("booking status %d: %w", statusID, err)
	}
	zone, err := LoadZone(view.LocationTimezone)
	if err != nil {
		return err
	}
	if statusID == StatusCancelled {
		return cancelRow(ctx, q, now, row, status, zone, true) // the business gives the time back
	}
	next := rowParams(row)
	next.StatusID, next.UpdatedAt = statusID, db.Millis(now)
	if err := q.UpdateBookingRow(ctx, next); err != nil {
		return writeError(err)
	}
	row.StatusID, row.UpdatedAt = statusID, db.Millis(now)
	return enqueue(ctx, q, now, webhook.BookingUpdated, row, status, zone)
}
