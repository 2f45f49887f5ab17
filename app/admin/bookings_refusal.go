package admin

import (
	"context"
	"errors"
	"net/http"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/fail"
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
	fieldError := func(field, msg string) {
		if field == "" || (shown != nil && !shown[field]) {
			f.Message = msg
			return
		}
		f.SetError(field, msg)
	}
	p := i18n.From(ctx)
	fe, ok := fail.As(err)
	var res *booking.ResourceTakenError
	switch {
	case !ok:
		return false
	case errors.As(err, &res): // a room or piece of equipment, not a provider, is taken
		f.Message = p.T("bookings.resource_taken", "resource", res.Name)
	case fe.Code == fail.CodeConflict && fe.Reason == booking.ConflictSlotUnavailable:
		f.Message = a.conflictMessage(ctx, cq)
	case fe.Code == fail.CodeConflict && fe.Reason == booking.ConflictClassFull:
		f.Message = p.T("classes.error.full")
	case fe.Code == fail.CodeConflict && fe.Reason == booking.ConflictConcurrentUpdate:
		f.Message = p.T("bookings.concurrent")
	case fe.Code == fail.CodeNotFound && fe.Reason != "booking": // the booking itself: the 404 page
		fieldError(fe.Reason, notFoundText(ctx, fe.Reason))
	case fe.Code == fail.CodeInvalid && fe.Msg.Key != "":
		fieldError(bookingFields[fe.Field], p.Msg(fe.Msg))
	case fe.Code == fail.CodeInvalid:
		fieldError(bookingFields[fe.Field], asSentence(fe.Message))
	case fe.Code == fail.CodeForbidden:
		f.Message = p.Msg(fe.Msg)
	default:
		return false
	}
	return true
}

// conflictMessage names the booking in the way, read after the refusal (so it may be gone
// already: then it says the time was taken).
func (a *Admin) conflictMessage(ctx context.Context, cq conflictQuery) string {
	p := i18n.From(ctx)
	taken := p.T("bookings.taken")
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
	when := p.TimeOnce(s) + "–" + p.TimeOnce(e)
	if booking.DateOf(s) != booking.DateOf(cq.start.In(s.Location())) {
		when = p.DayShort(s) + " " + when
	}
	msg := p.T("bookings.conflict", "provider", prov.PublicName, "when", when, "client", clientName(c.ClientFirstName, c.ClientLastName), "location", c.LocationName)
	if !(cq.start.Before(db.Time(c.EndAt)) && db.Time(c.StartAt).Before(end)) {
		msg += " " + p.T("bookings.conflict.buffers")
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
	return i18n.T(ctx, "bookings.offer_note", "title", reasonTitle(ctx, reason.Code), "reason", reason.Msg)
}

// notFoundText says that a record a form names is gone.
func notFoundText(ctx context.Context, resource string) string {
	switch resource {
	case "location":
		return i18n.T(ctx, "bookings.not_found.location")
	case "service":
		return i18n.T(ctx, "bookings.not_found.service")
	case "provider":
		return i18n.T(ctx, "bookings.not_found.provider")
	case "client":
		return i18n.T(ctx, "bookings.not_found.client")
	}
	return i18n.T(ctx, "bookings.not_found.other")
}

// chooseText asks for a missing choice of the booking form.
func chooseText(r *http.Request, field string) string {
	switch field {
	case "location":
		return translate(r, "bookings.choose_location.error")
	case "service":
		return translate(r, "bookings.choose_service.error")
	case "provider":
		return translate(r, "bookings.choose_provider.error")
	}
	return translate(r, "bookings.choose_client.error")
}
