package admin

import (
	"context"
	"net/http"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/errpage"
	"frontdesk/app/staff"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// A stored booking's page: what it is, and a form that reschedules it (date, time, provider)
// and changes its status and notes; and cancelling it, after a confirmation.

// bookingChangeFields are the fields of the booking page's form.
var bookingChangeFields = map[string]bool{outsideHoursField: true, "date": true, "time": true, "offset": true, "provider": true, "status": true, "notes": true}

func (a *Admin) showBooking(w http.ResponseWriter, r *http.Request) {
	v, ok := a.loadBooking(w, r)
	if !ok {
		return
	}
	zone := bookingZone(v)
	start := localTime(v.Booking.StartAt, zone)
	f := ui.NewForm(nil)
	f.Set("date", booking.DateOf(start).String())
	f.Set("time", clockText(r.Context(), start.Hour()*60+start.Minute())) // as the owner types it
	f.Set("offset", start.Format("-07:00"))
	f.Set("provider", idText(v.Booking.ProviderID))
	f.Set("status", idText(v.Booking.StatusID))
	f.Set("notes", v.Booking.Notes.String)
	_, offsets, _ := bookingStart(r.Context(), ui.NewForm(f.Values), zone)
	a.showBookingPage(w, r, http.StatusOK, v, f, offsets)
}

func (a *Admin) showBookingPage(w http.ResponseWriter, r *http.Request, status int, b booking.View, f *ui.Form, offsets []ui.Option) {
	ctx := r.Context()
	providers, err := a.bookingProviders(ctx, b.Booking.LocationID, formID(f, "provider"))
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.BookingFormView{
		ID: b.Booking.ID, Summary: a.summary(ctx, b), Form: f, Statuses: bookingStatusOptions(r), Offsets: offsets,
		Providers: providerOptions(r, providers, translate(r, "bookings.choose_provider"), b.Booking.ProviderID, false),
		Zone:      b.LocationTimezone, AttendanceOnly: !can(ctx, staff.Book),
	}
	if v.AttendanceOnly {
		v.Statuses = attendanceOptions(r)
	}
	if v.Overrides, err = a.bookingOverrides(r, b.Booking.ID); err != nil {
		a.renderError(w, r, err)
		return
	}
	// Customer messages sent or planned for the booking (docs/messages.md).
	if v.Messages, err = a.bookingMessages(ctx, r, b.Booking.ID); err != nil {
		a.renderError(w, r, err)
		return
	}
	if v.Fees, err = a.bookingFees(r, b.Booking.ID); err != nil {
		a.renderError(w, r, err)
		return
	}
	if v.Activity, err = a.entityActivity(r, "booking", b.Booking.ID); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.render(w, r, status, ui.BookingPage(a.page(r, translate(r, "bookings.title", "id", idText(b.Booking.ID))), v))
}

func (a *Admin) updateBooking(w http.ResponseWriter, r *http.Request) {
	cur, ok := a.loadBooking(w, r)
	if !ok {
		return
	}
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	ctx := r.Context()
	start, offsets, _ := bookingStart(ctx, f, bookingZone(cur))
	provider := formID(f, "provider")
	if provider == 0 {
		f.SetError("provider", translate(r, "bookings.choose_provider.error"))
	}
	status := bookingStatus(f)
	if err := a.needPolicies(ctx, f); err != nil {
		a.renderError(w, r, err)
		return
	}
	if !f.OK() {
		a.showBookingPage(w, r, http.StatusUnprocessableEntity, cur, f, offsets)
		return
	}
	var override *booking.Override
	if moved := db.Millis(start) != cur.Booking.StartAt || provider != cur.Booking.ProviderID; moved {
		var ok bool
		if override, ok = a.staffRuleOverride(r, f, cur.Booking.LocationID, cur.Booking.ServiceID, provider, start); !ok {
			a.showBookingPage(w, r, http.StatusUnprocessableEntity, cur, f, offsets)
			return
		}
	}
	ch := booking.Change{Start: &start, ProviderID: &provider, StatusID: &status,
		Notes: booking.Optional[string]{Set: true, Value: bookingNotes(f)}, Override: override}
	_, err = booking.UpdateOccurrences(ctx, a.db, a.now(), cur.Booking.ID, ch, seriesScope(f.Get("scope")), booking.SourceAdmin)
	if se, ok := err.(*booking.SeriesUnavailableError); ok {
		f.SetError("scope", translate(r, "booking.series.unavailable", "dates", dateList(se.Dates)))
		a.showBookingPage(w, r, http.StatusUnprocessableEntity, cur, f, offsets)
		return
	}
	length := time.Duration(cur.Booking.EndAt-cur.Booking.StartAt) * time.Millisecond
	cq := conflictQuery{providerID: provider, serviceID: cur.Booking.ServiceID, ignoreID: cur.Booking.ID, start: start, end: start.Add(length)}
	if a.bookingRefused(ctx, f, err, cq, bookingChangeFields) {
		a.showBookingPage(w, r, http.StatusUnprocessableEntity, cur, f, offsets)
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(ctx, ui.FlashSuccess, translate(r, "bookings.saved"))
	seeOther(w, r, ui.BookingURL(cur.Booking.ID))
}

func (a *Admin) confirmCancelBooking(w http.ResponseWriter, r *http.Request) {
	v, ok := a.loadBooking(w, r)
	if !ok {
		return
	}
	if v.Booking.StatusID == booking.StatusCancelled {
		a.flash(r.Context(), ui.FlashInfo, translate(r, "bookings.already_cancelled"))
		seeOther(w, r, ui.BookingURL(v.Booking.ID))
		return
	}
	s := a.summary(r.Context(), v)
	if v.Booking.PackID.Valid { // paid with a session pack (docs/classes.md)
		back, err := booking.CancelReturnsSession(r.Context(), a.db.R, v.Booking, a.now())
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		s.Pack, s.ReturnSession = true, back
	}
	a.render(w, r, http.StatusOK, ui.CancelBookingPage(a.page(r, translate(r, "bookings.cancel.title")), s))
}

// cancelBooking cancels as the owner, whom the clients' cancellation policy does not bind.
// Cancelling a cancelled booking changes nothing and says so.
func (a *Admin) cancelBooking(w http.ResponseWriter, r *http.Request) {
	v, ok := a.loadBooking(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	o := booking.CancelOptions{Source: booking.SourceAdmin}
	if err := r.ParseForm(); err == nil && r.PostForm.Get("pack_choice") == "1" { // the owner's choice for a pack
		back := r.PostForm.Get("return_session") == "1"
		o.ReturnSession = &back
	}
	if _, err := booking.CancelOccurrences(ctx, a.db, a.now(), v.Booking.ID, seriesScope(r.PostForm.Get("scope")), o); err != nil {
		a.renderError(w, r, err)
		return
	}
	s := a.summary(ctx, v)
	a.flash(ctx, ui.FlashSuccess, translate(r, "bookings.cancelled", "provider", v.ProviderName, "client", s.Client, "when", s.When))
	seeOther(w, r, s.DayURL)
}

// attendanceOptions are the statuses marking attendance sets (markBooking).
func attendanceOptions(r *http.Request) []ui.Option {
	var out []ui.Option
	for _, id := range []int64{booking.StatusConfirmed, booking.StatusAttended, booking.StatusNoShow} {
		out = append(out, ui.Option{Value: idText(id), Label: bookingStatusName(r.Context(), id)})
	}
	return out
}

// markBooking marks a booking attended or no-show (or back to confirmed): all a provider
// account may change about its own bookings.
func (a *Admin) markBooking(w http.ResponseWriter, r *http.Request) {
	cur, ok := a.loadBooking(w, r)
	if !ok {
		return
	}
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	status := formID(f, "status")
	if status != booking.StatusConfirmed && status != booking.StatusAttended && status != booking.StatusNoShow {
		f.SetError("status", translate(r, "bookings.status.error"))
		a.showBookingPage(w, r, http.StatusUnprocessableEntity, cur, f, nil)
		return
	}
	ctx := r.Context()
	if _, err := booking.Update(ctx, a.db, a.now(), cur.Booking.ID, booking.Change{StatusID: &status}, booking.SourceAdmin); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(ctx, ui.FlashSuccess, translate(r, "bookings.saved"))
	seeOther(w, r, ui.BookingURL(cur.Booking.ID))
}

// loadBooking reads the booking the URL names, or answers with an error page. A provider
// account gets 404 for another provider's booking, as for one that does not exist.
func (a *Admin) loadBooking(w http.ResponseWriter, r *http.Request) (booking.View, bool) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return booking.View{}, false
	}
	v, err := booking.Get(r.Context(), a.db.R, id)
	if err != nil {
		a.renderError(w, r, err)
		return booking.View{}, false
	}
	if !ownsProviderID(r.Context(), v.Booking.ProviderID) {
		a.renderError(w, r, errpage.NotFound)
		return booking.View{}, false
	}
	return v, true
}

// bookingZone is the booking's location's zone (UTC if this program does not know it).
func bookingZone(v booking.View) *time.Location {
	zone, err := booking.LoadZone(v.LocationTimezone)
	if err != nil {
		return time.UTC
	}
	return zone
}

// summary describes booking v in words, its times in its location's zone.
func (a *Admin) summary(ctx context.Context, v booking.View) ui.BookingSummary {
	b := v.Booking
	zone := bookingZone(v)
	start, end := localTime(b.StartAt, zone), localTime(b.EndAt, zone)
	p := i18n.From(ctx)
	from, until := p.TimeOnce(start), p.TimeOnce(end)
	if booking.DateOf(end) != booking.DateOf(start) {
		until = p.DayShort(end) + " " + until
	}
	client := i18n.T(ctx, "bookings.client_number", "id", idText(b.ClientID))
	if rows, err := a.db.R.AdminClientNames(ctx, []int64{b.ClientID}); err == nil && len(rows) == 1 {
		client = clientName(rows[0].FirstName, rows[0].LastName)
	}
	confirmed := ""
	if b.ClientConfirmedAt.Valid {
		confirmed = p.DateTimeOnce(localTime(b.ClientConfirmedAt.Int64, zone))
	}
	return ui.BookingSummary{
		ClientConfirmed: confirmed,
		ID:              b.ID, When: p.DateLong(start) + ", " + from + "–" + until + " (" + zone.String() + ")",
		Location: v.LocationName, Provider: v.ProviderName, Service: v.ServiceName, Client: client, ClientID: b.ClientID,
		Status: bookingStatusName(ctx, b.StatusID), Cancelled: b.StatusID == booking.StatusCancelled,
		DayURL: dayURL(b.LocationID, booking.DateOf(start), b.ServiceID), SeriesScopes: seriesScopes(ctx, b),
	}
}

// seriesScopes are the choices of reach for a change or cancel of a date of a series, or nil
// for a booking outside one.
func seriesScopes(ctx context.Context, b db.Booking) []ui.Option {
	if !b.SeriesID.Valid {
		return nil
	}
	return []ui.Option{
		{Value: booking.ScopeOne, Label: i18n.T(ctx, "bookings.series_scope.one")},
		{Value: booking.ScopeFollowing, Label: i18n.T(ctx, "bookings.series_scope.following")},
		{Value: booking.ScopeAll, Label: i18n.T(ctx, "bookings.series_scope.all")},
	}
}

// seriesScope is the reach the form asks for: one of booking.Scope*, this date only when the
// field is absent or unknown.
func seriesScope(value string) string {
	switch value {
	case booking.ScopeFollowing, booking.ScopeAll:
		return value
	}
	return booking.ScopeOne
}
