package booking

import (
	"context"
	"time"

	"frontdesk/db"
)

// Rights says what a customer may still do with a booking: nil allows the change, otherwise it
// is the error Update or Cancel would give for a customer flow — a *RestrictedError naming the
// merchant's rule, or an *InvalidError for a booking that is cancelled. The booking site asks
// before it offers a button, so a refusal is explained up front and not only after a click;
// Update and Cancel check the same rules again when the change is made.
type Rights struct {
	Reschedule error
	Cancel     error
}

// CustomerRights returns the Rights of booking b at now.
func CustomerRights(ctx context.Context, q *db.Queries, now time.Time, b db.Booking) (Rights, error) {
	if b.StatusID == StatusCancelled {
		done := invalid("booking", "a cancelled booking cannot be changed")
		return Rights{Reschedule: done, Cancel: done}, nil
	}
	var r Rights
	if err := editPolicy(ctx, q, now, b, true); err != nil {
		if _, ok := err.(*RestrictedError); !ok {
			return Rights{}, err
		}
		r.Reschedule = err
	}
	pol, err := q.SchedulePolicy(ctx)
	if err != nil {
		return Rights{}, err
	}
	if err := cancelPolicy(pol, b, now); err != nil {
		if _, ok := err.(*RestrictedError); !ok {
			return Rights{}, err
		}
		r.Cancel = err
	}
	return r, nil
}
