package admin

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Moving a booking by picking a free time: the booking's page links here; the page lists the
// free times of the booking's service on a chosen day (one provider or any), found by the same
// slot engine the booking site offers times with, the booking itself left out of the way.
// Choosing one moves the booking there. A time outside the rules is still set on the booking's
// own form, with its explicit override (bookings_hours.go).

func (a *Admin) showMoveBooking(w http.ResponseWriter, r *http.Request) {
	b, ok := a.loadBooking(w, r)
	if !ok {
		return
	}
	a.renderMove(w, r, http.StatusOK, b, r.URL.Query(), ui.NewForm(nil))
}

// renderMove answers the move page of booking b for the day and provider q asks for; f is the
// move form (its Message says why a choice was refused).
func (a *Admin) renderMove(w http.ResponseWriter, r *http.Request, status int, b booking.View, q url.Values, f *ui.Form) {
	ctx := r.Context()
	if b.Booking.StatusID == booking.StatusCancelled {
		a.flash(ctx, ui.FlashInfo, translate(r, "bookings.move.cancelled"))
		seeOther(w, r, ui.BookingURL(b.Booking.ID))
		return
	}
	zone := bookingZone(b)
	filter := ui.NewForm(nil)
	date := booking.DateOf(localTime(b.Booking.StartAt, zone))
	if s := q.Get("date"); s != "" {
		if d, err := booking.ParseDate(s); err == nil && d.Year >= 1970 && d.Year <= 9000 {
			date = d
		} else {
			filter.SetError("date", translate(r, "bookings.date.error"))
		}
	}
	filter.Set("date", date.String())
	providers, err := a.bookingProviders(ctx, b.Booking.LocationID, 0)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	provider := queryID(q, "provider")
	if !slices.ContainsFunc(providers, func(p db.AdminBookingProvidersRow) bool { return p.ID == provider && p.Active }) {
		provider = 0
	}
	if provider != 0 {
		filter.Set("provider", idText(provider))
	}
	p := i18n.From(ctx)
	v := ui.BookingMoveView{
		ID: b.Booking.ID, Summary: a.summary(ctx, b), Filter: filter, Form: f, Zone: zone.String(),
		Providers: providerOptions(r, providers, translate(r, "bookings.move.any_provider"), 0, false),
		DayLabel:  p.DateLong(booking.DayStart(zone, date)),
	}
	slots, note, err := a.moveSlots(r, b, date, provider)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v.Note = note
	seen := map[int64]bool{}
	for _, s := range slots {
		ms := s.Start.UnixMilli()
		if provider == 0 && seen[ms] { // any provider: each time once, with the first free
			continue
		}
		seen[ms] = true
		at := p.TimeOnce(s.Start.In(zone))
		v.Times = append(v.Times, ui.MoveTime{Value: idText(s.ProviderID) + ":" + strconv.FormatInt(ms, 10), Time: at, Label: at + " · " + s.ProviderName})
	}
	a.render(w, r, status, ui.BookingMovePage(a.page(r, translate(r, "bookings.move.title", "id", idText(b.Booking.ID))), v))
}

// moveSlots are the free starts of booking b's service at its location on date (provider 0:
// any), the booking itself not counted as busy. The owner is not held to the clients' notice
// and advance window; everything else applies, as on the day view (freeSlots). note says why
// there is nothing to choose from.
func (a *Admin) moveSlots(r *http.Request, b booking.View, date booking.Date, provider int64) ([]booking.Slot, string, error) {
	ctx := r.Context()
	if _, err := a.db.R.SchedulePolicy(ctx); db.IsNotFound(err) {
		return nil, translate(r, "day.need_policies"), nil
	} else if err != nil {
		return nil, "", err
	}
	l, err := booking.LoadScheduleCached(ctx, a.db, booking.ScheduleQuery{
		LocationID: b.Booking.LocationID, ServiceID: b.Booking.ServiceID, ProviderID: provider,
		First: date, Last: date, IgnoreBookingID: b.Booking.ID,
	})
	if err != nil {
		return nil, "", err
	}
	switch {
	case l.Schedule.Service.IsClass(): // a seat moves between sessions on the session's page
		return nil, translate(r, "bookings.move.class"), nil
	case !l.Location.Active:
		return nil, translate(r, "day.location_inactive"), nil
	case !l.Service.Active:
		return nil, translate(r, "day.service_inactive", "service", l.Service.Name), nil
	}
	s := l.Schedule
	s.Policy.MinNotice, s.Policy.MaxAdvance = 0, 0
	return booking.Slots(s, date, date, a.now()), "", nil
}

// moveBooking moves the booking to the free time chosen. A choice that is not free (taken
// since the page was drawn, or never offered) changes nothing and says why in the explainer's
// words.
func (a *Admin) moveBooking(w http.ResponseWriter, r *http.Request) {
	b, ok := a.loadBooking(w, r)
	if !ok {
		return
	}
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	ctx := r.Context()
	q := url.Values{"date": {f.Get("date")}, "provider": {f.Get("provider")}}
	provider, start, ok := parseMoveChoice(f.Get("choice"))
	if !ok {
		f.Message = translate(r, "bookings.move.choose")
		a.renderMove(w, r, http.StatusUnprocessableEntity, b, q, f)
		return
	}
	zone := bookingZone(b)
	start = start.In(zone)
	slots, note, err := a.moveSlots(r, b, booking.DateOf(start), provider)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	free := slices.ContainsFunc(slots, func(s booking.Slot) bool { return s.ProviderID == provider && s.Start.Equal(start) })
	if !free {
		f.Message = note
		if f.Message == "" {
			f.Message = a.whyNotFree(r, b, provider, start)
		}
		a.renderMove(w, r, http.StatusUnprocessableEntity, b, q, f)
		return
	}
	_, err = booking.Update(ctx, a.db, a.now(), b.Booking.ID, booking.Change{Start: &start, ProviderID: &provider}, booking.SourceAdmin)
	length := time.Duration(b.Booking.EndAt-b.Booking.StartAt) * time.Millisecond
	cq := conflictQuery{providerID: provider, serviceID: b.Booking.ServiceID, ignoreID: b.Booking.ID, start: start, end: start.Add(length)}
	if a.bookingRefused(ctx, f, err, cq, map[string]bool{}) {
		a.renderMove(w, r, http.StatusUnprocessableEntity, b, q, f)
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(ctx, ui.FlashSuccess, translate(r, "bookings.move.done", "when", i18n.From(ctx).DateTimeOnce(start)))
	seeOther(w, r, ui.BookingURL(b.Booking.ID))
}

// whyNotFree words why provider cannot take booking b at start, as the explainer does; a time
// the explainer finds free (the booking's own time) is "no longer free".
func (a *Admin) whyNotFree(r *http.Request, b booking.View, provider int64, start time.Time) string {
	ctx := r.Context()
	reason, err := booking.ExplainAt(ctx, a.db, b.Booking.LocationID, b.Booking.ServiceID, provider, start, a.now())
	if err != nil || reason.Code == booking.ReasonOK {
		return translate(r, "bookings.move.not_free")
	}
	if reason.Code == booking.ReasonBooked || reason.Code == booking.ReasonBuffer {
		length := time.Duration(b.Booking.EndAt-b.Booking.StartAt) * time.Millisecond
		return a.conflictMessage(ctx, conflictQuery{providerID: provider, serviceID: b.Booking.ServiceID, ignoreID: b.Booking.ID, start: start, end: start.Add(length)})
	}
	return reasonTitle(ctx, reason.Code) + ": " + i18n.From(ctx).Msg(reason.Msg)
}

// parseMoveChoice reads a choice "provider:unix-ms".
func parseMoveChoice(s string) (int64, time.Time, bool) {
	p, ms, ok := strings.Cut(s, ":")
	if !ok {
		return 0, time.Time{}, false
	}
	provider, err := strconv.ParseInt(p, 10, 64)
	if err != nil || provider <= 0 {
		return 0, time.Time{}, false
	}
	at, err := strconv.ParseInt(ms, 10, 64)
	if err != nil || at <= 0 || at > 253402300799000 { // up to year 9999
		return 0, time.Time{}, false
	}
	return provider, time.UnixMilli(at), true
}

// checkMove answers a booking block dropped on another time or provider of the day view
// (static/app.js) with a fragment: the move the drop asks for and a button that confirms it
// (the move form's own POST, which checks again), or why it cannot be done — the same check
// and the same words as the move form. Nothing is written here.
func (a *Admin) checkMove(w http.ResponseWriter, r *http.Request) {
	b, ok := a.loadBooking(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	v := ui.MoveCheckView{ActionURL: ui.BookingMoveURL(b.Booking.ID)}
	q := r.URL.Query()
	provider, start, ok := parseMoveChoice(q.Get("choice"))
	if !q.Has("choice") { // dropped on a day of the week view: the same time of day that day
		provider, start, ok = sameTimeOn(b, queryID(q, "provider"), q.Get("date"))
	}
	switch {
	case b.Booking.StatusID == booking.StatusCancelled:
		v.Refusal = translate(r, "bookings.move.cancelled")
	case !ok:
		v.Refusal = translate(r, "bookings.move.choose")
	default:
		zone := bookingZone(b)
		start = start.In(zone)
		slots, note, err := a.moveSlots(r, b, booking.DateOf(start), provider)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		if slices.ContainsFunc(slots, func(s booking.Slot) bool { return s.ProviderID == provider && s.Start.Equal(start) }) {
			v.Choice, v.Date, v.Provider = idText(provider)+":"+strconv.FormatInt(start.UnixMilli(), 10), booking.DateOf(start).String(), idText(provider)
			v.Question = translate(r, "bookings.drag.ask", "provider", a.providerName(ctx, provider),
				"when", i18n.From(ctx).DateTimeOnce(start))
		} else if v.Refusal = note; v.Refusal == "" {
			v.Refusal = a.whyNotFree(r, b, provider, start)
		}
	}
	a.render(w, r, http.StatusOK, ui.MoveCheck(v))
}

// sameTimeOn is booking b's wall-clock start on date with provider (the earlier reading when
// the clocks show it twice); ok is false for a bad provider or date, or a time the clocks skip
// that day.
func sameTimeOn(b booking.View, provider int64, date string) (int64, time.Time, bool) {
	d, err := booking.ParseDate(date)
	if provider == 0 || err != nil || d.Year < 1970 || d.Year > 9000 {
		return 0, time.Time{}, false
	}
	zone := bookingZone(b)
	local := localTime(b.Booking.StartAt, zone)
	at := wallInstants(zone, d, local.Hour()*60+local.Minute())
	if len(at) == 0 {
		return 0, time.Time{}, false
	}
	return provider, at[0], true
}
