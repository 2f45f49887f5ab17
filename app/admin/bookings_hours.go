package admin

import (
	"context"
	"net/http"
	"slices"
	"time"

	"frontdesk/app/booking"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Booking outside a provider's hours (docs/contract.md "Bookings outside hours"). The owner may
// book or move a booking where the staff rules would not put it — a shift's edge, a break, time
// off, a closed day — but only knowingly: the first submit is refused with a warning and a box
// to tick; the confirmed write carries a booking.Override, recorded with the booking.

// outsideHoursField is the confirmation checkbox the warning adds to the booking forms.
const outsideHoursField = "outside_hours"

// staffRuleOverride checks start against the staff rules. Within them it returns nil, true.
// Outside them it returns the override to record when the owner has ticked the confirmation,
// or sets the warning on f (as the checkbox's error) and returns false.
func (a *Admin) staffRuleOverride(r *http.Request, f *ui.Form, locationID, serviceID, providerID int64, start time.Time) (*booking.Override, bool) {
	ctx := r.Context()
	reason, err := booking.ExplainAt(ctx, a.db, locationID, serviceID, providerID, start, a.now())
	if err != nil || !slices.Contains(booking.StaffRuleCodes, reason.Code) {
		return nil, true // other problems are the write's to report
	}
	msg := translate(r, staffRuleKeys[reason.Code].Key, "provider", a.providerName(ctx, providerID))
	if !f.Checked(outsideHoursField, "1") {
		f.SetError(outsideHoursField, msg+" "+translate(r, "bookings.outside_hours.ask"))
		return nil, false
	}
	me, _ := ownerFrom(ctx)
	return &booking.Override{Code: reason.Code, Message: msg, OwnerEmail: me.Email}, true
}

// staffRuleKeys word each staff rule for the warning.
var staffRuleKeys = map[booking.ReasonCode]i18n.Msg{
	booking.ReasonClosed:       i18n.M("bookings.outside_hours.closed"),
	booking.ReasonOutsideHours: i18n.M("bookings.outside_hours.outside_hours"),
	booking.ReasonNotWorking:   i18n.M("bookings.outside_hours.not_working"),
	booking.ReasonBreak:        i18n.M("bookings.outside_hours.break"),
	booking.ReasonTimeOff:      i18n.M("bookings.outside_hours.time_off"),
}

func (a *Admin) providerName(ctx context.Context, id int64) string {
	p, err := a.db.R.GetProvider(ctx, id)
	if err != nil {
		return "—"
	}
	return p.PublicName
}

// bookingOverrides reads the overrides recorded for a booking, for its page.
func (a *Admin) bookingOverrides(r *http.Request, bookingID int64) ([]ui.BookingOverride, error) {
	rows, err := a.db.R.ListBookingOverrides(r.Context(), bookingID)
	var out []ui.BookingOverride
	for _, o := range rows {
		out = append(out, ui.BookingOverride{Message: o.Message, Owner: o.OwnerEmail, At: db.Time(o.CreatedAt)})
	}
	return out, err
}
