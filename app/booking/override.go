package booking

import (
	"context"
	"time"

	"frontdesk/db"
)

// Override is an owner's knowing decision to book outside the staff rules (docs/contract.md
// "Bookings outside hours"): the admin warns first, and only a confirmed write carries one. It
// is recorded in the booking's own transaction, so a booking never exists without the record
// of how it came to be where the rules would not put it.
type Override struct {
	Code       ReasonCode // the rule overridden: one of StaffRuleCodes
	Message    string     // the warning as the owner read it
	OwnerEmail string
}

// StaffRuleCodes are the reasons that an owner may override: the provider does not work then.
// Conflicts (another booking) and the customer policies are not among them: the first would
// double-book, the others do not bind the owner anyway.
var StaffRuleCodes = []ReasonCode{ReasonClosed, ReasonOutsideHours, ReasonNotWorking, ReasonBreak, ReasonTimeOff}

func recordOverride(ctx context.Context, q *db.Queries, bookingID int64, o *Override, now time.Time) error {
	if o == nil {
		return nil
	}
	return q.CreateBookingOverride(ctx, db.CreateBookingOverrideParams{
		BookingID: bookingID, ReasonCode: string(o.Code), Message: o.Message, OwnerEmail: o.OwnerEmail, CreatedAt: db.Millis(now),
	})
}
