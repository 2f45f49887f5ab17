package admin

import (
	"context"
	"errors"
	"fmt"
	"time"

	"frontdesk/app/booking"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// What app/booking refuses, in words on the form: field errors beside their fields, a
// conflict as the booking in the way; and the note for a booking clients could not have made.

// conflictQuery is where a refused booking wanted to be.
type conflictQuery struct {
	providerID, serviceID, ignoreID int64
	start, end                      time.Time // end zero: start + the service's duration
}

// bookingFields maps app/booking's field names to the form's.
var bookingFields = map[string]string{
	"location_id": "location", "service_id": "service", "provider_id": "provider", "client_id": "client",
	"start_time": "time", "end_time": "time", "status_id": "status", "notes": "notes",
}

// bookingRefused puts a refusal of app/booking on f and reports whether err was one. Field
// errors for fields the form does not show (shown non-nil and without them) become the form's
// message.
func (a *Admin) bookingRefused(ctx context.Context, f *ui.Form, err error, cq conflictQuery, shown map[string]bool) bool {
	var nf *booking.NotFoundError
	var ie *booking.InvalidError
	var re *booking.RestrictedError
	fieldError := func(field, msg string) {
		if field == "" || (shown != nil && !shown[field]) {
			f.Message = msg
			return
		}
		f.SetError(field, msg)
	}
	switch {
	case err == nil:
		return false
	case errors.Is(err, booking.ErrSlotUnavailable):
		f.Message = a.conflictMessage(ctx, cq)
	case errors.Is(err, booking.ErrClassFull):
		f.Message = i18n.T(ctx, "classes.error.full")
	case errors.As(err, &ie) && ie.Msg.Key != "": // classes and packs speak the owner's language
		fieldError(bookingFields[ie.Field], i18n.From(ctx).Msg(ie.Msg))
	case errors.As(err, &nf) && nf.Resource != "booking":
		fieldError(nf.Resource, "This "+nf.Resource+" does not exist (any more).")
	case errors.As(err, &ie):
		fieldError(bookingFields[ie.Field], asSentence(ie.Message))
	case errors.As(err, &re):
		f.Message = "The booking policy does not allow this (" + re.Rule + ")."
	case errors.Is(err, booking.ErrConcurrentChange):
		f.Message = "This booking was changed by someone else while you were saving it. Check it and try again."
	default:
		return false
	}
	return true
}

// conflictMessage names the booking in the way, read after the refusal (so it may be gone
// already: then it says the time was taken).
func (a *Admin) conflictMessage(ctx context.Context, cq conflictQuery) string {
	const taken = "That time is no longer free: choose another time or another provider."
	svc, err := a.db.R.ScheduleService(ctx, cq.serviceID)
	if err != nil {
		return taken
	}
	end := cq.end
	if end.IsZero() {
		end = cq.start.Add(time.Duration(svc.DurationMin) * time.Minute)
	}
	blockStart := cq.start.Add(-time.Duration(svc.BufferBeforeMin) * time.Minute)
	blockEnd := end.Add(time.Duration(svc.BufferAfterMin) * time.Minute)
	rows, err := a.db.R.AdminBookingConflict(ctx, db.AdminBookingConflictParams{
		ProviderID: cq.providerID, BlockStart: db.Millis(blockStart), BlockEnd: db.Millis(blockEnd), IgnoreID: cq.ignoreID,
	})
	if err != nil || len(rows) == 0 {
		return taken
	}
	prov, err := a.db.R.BookingProvider(ctx, cq.providerID)
	if err != nil {
		return taken
	}
	c := rows[0]
	zone, _ := booking.LoadZone(c.LocationTimezone)
	s, e := localTime(c.StartAt, zone), localTime(c.EndAt, zone)
	when := s.Format("15:04") + "–" + e.Format("15:04")
	if booking.DateOf(s) != booking.DateOf(cq.start.In(s.Location())) {
		when = s.Format("Mon 2 Jan") + " " + when
	}
	msg := fmt.Sprintf("%s already has a booking at %s (%s, %s).", prov.PublicName, when, clientName(c.ClientFirstName, c.ClientLastName), c.LocationName)
	if !(cq.start.Before(db.Time(c.EndAt)) && db.Time(c.StartAt).Before(end)) {
		msg += " The times do not overlap, but the buffers kept free around bookings do."
	}
	return msg + " " + taken
}

// offerNote says when the owner books a time clients could not have booked because of the
// calendar (hours, breaks, time off, the slot grid): the owner may, but should notice. The
// clients' notice and advance window, and times taken by other bookings (refused anyway), are
// not worth a note.
func (a *Admin) offerNote(ctx context.Context, nb booking.NewBooking) string {
	if nb.Start.IsZero() {
		return ""
	}
	reason, err := booking.ExplainAt(ctx, a.db, nb.LocationID, nb.ServiceID, nb.ProviderID, nb.Start, a.now())
	if err != nil {
		return "" // the booking itself reports what is wrong
	}
	switch reason.Code {
	case booking.ReasonOK, booking.ReasonBooked, booking.ReasonBuffer, booking.ReasonNotice, booking.ReasonBeyondAdvance,
		booking.ReasonNotOnline, booking.ReasonLocationInactive, booking.ReasonServiceInactive, booking.ReasonProviderInactive:
		return ""
	}
	title := reasonTitles[reason.Code]
	if title == "" {
		title = string(reason.Code)
	}
	return "Clients could not have booked this time (" + title + "): " + asSentence(reason.Message)
}
