package admin

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/input"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// The booking forms: create (often reached from a free time of the day view, with everything
// but the client filled in), the booking's own page that reschedules it, and cancel with a
// confirmation. Refusals of app/booking come back on the form, the input kept: a conflict says
// which booking is in the way.

// newBookingFields are what the create form carries, also through its client search (a GET of
// this same page).
var newBookingFields = []string{"location", "service", "provider", "client", "client_q", "date", "time", "offset", "status", "notes"}

func (a *Admin) newBooking(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	q := r.URL.Query()
	f := ui.NewForm(nil)
	for _, name := range newBookingFields {
		f.Set(name, q.Get(name))
	}
	normalizeClock(ctx, f, "time") // a link's time, on the business's clock
	if f.Get("status") == "" {
		f.Set("status", "1")
	}
	if f.Get("location") == "" || f.Get("date") == "" {
		locs, err := a.db.R.AdminBookingLocations(ctx)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		if loc, ok := pickLocation(locs, queryID(q, "location")); ok {
			f.Set("location", idText(loc.ID))
			if zone, err := booking.LoadZone(loc.Timezone); err == nil && f.Get("date") == "" {
				f.Set("date", booking.DateOf(a.now().In(zone)).String())
			}
		}
	}
	var offsets []ui.Option
	if f.Get("time") != "" {
		if loc, err := a.db.R.ScheduleLocation(ctx, formID(f, "location")); err == nil {
			if zone, err := booking.LoadZone(loc.Timezone); err == nil {
				check := ui.NewForm(f.Values) // errors are for submitted forms, not for a prefill
				_, offsets, _ = bookingStart(ctx, check, zone)
			}
		}
	}
	a.showNewBooking(w, r, http.StatusOK, f, offsets)
}

func (a *Admin) showNewBooking(w http.ResponseWriter, r *http.Request, status int, f *ui.Form, offsets []ui.Option) {
	ctx := r.Context()
	locs, err := a.db.R.AdminBookingLocations(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	services, err := a.db.R.AdminBookingServices(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	locationID := formID(f, "location")
	providers, err := a.bookingProviders(ctx, locationID, formID(f, "provider"))
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.BookingFormView{
		Form:      f,
		Locations: append([]ui.Option{{Value: "", Label: translate(r, "bookings.choose_location")}}, locationOptions(r, locs, "")...),
		Services:  append([]ui.Option{{Value: "", Label: translate(r, "bookings.choose_service")}}, serviceOptions(r, services, "")...),
		Providers: providerOptions(r, providers, translate(r, "bookings.choose_provider"), formID(f, "provider"), false),
		Statuses:  bookingStatusOptions(r),
		Offsets:   offsets,
	}
	for _, l := range locs {
		if l.ID == locationID {
			v.Zone = l.Timezone
		}
	}
	if v.Clients, v.ClientNote, err = a.clientOptions(ctx, f); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.render(w, r, status, ui.NewBookingPage(a.page(r, translate(r, "bookings.tab.new")), v))
}

// clientOptions are the choices of the client select: the chosen client and the active
// clients the search text finds (the only one found is chosen).
func (a *Admin) clientOptions(ctx context.Context, f *ui.Form) ([]ui.Option, string, error) {
	out := []ui.Option{{Value: "", Label: i18n.T(ctx, "bookings.choose_client")}}
	chosen := formID(f, "client")
	if chosen != 0 {
		rows, err := a.db.R.AdminClientNames(ctx, []int64{chosen})
		if err != nil {
			return nil, "", err
		}
		for _, c := range rows {
			out = append(out, ui.Option{Value: idText(c.ID), Label: clientLabel(clientMatch{ID: c.ID, FirstName: c.FirstName, LastName: c.LastName, Email: c.Email, Phone: c.Phone, Active: c.Active})})
		}
	}
	text := searchText(f.Get("client_q"))
	if text == "" {
		if chosen == 0 {
			return out, i18n.T(ctx, "bookings.find_first"), nil
		}
		return out, "", nil
	}
	const shown = 20
	found, total, err := a.findClients(ctx, text, sql.NullBool{Bool: true, Valid: true}, shown, 0)
	if err != nil {
		return nil, "", err
	}
	for _, c := range found {
		if c.ID != chosen {
			out = append(out, ui.Option{Value: idText(c.ID), Label: clientLabel(c)})
		}
	}
	if chosen == 0 && total == 1 {
		f.Set("client", idText(found[0].ID))
	}
	switch {
	case total == 0:
		return out, i18n.T(ctx, "bookings.no_active_client", "text", text), nil
	case total > shown:
		return out, fmt.Sprintf("%d clients match; the first %d are listed. Type more to narrow it down.", total, shown), nil
	case total == 1:
		return out, i18n.T(ctx, "bookings.clients_match", "count", 1), nil
	}
	return out, i18n.T(ctx, "bookings.clients_match", "count", total), nil
}

func (a *Admin) createBooking(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	ctx := r.Context()
	nb := booking.NewBooking{Source: booking.SourceAdmin, StatusID: bookingStatus(f)}
	for name, dst := range map[string]*int64{"location": &nb.LocationID, "service": &nb.ServiceID, "provider": &nb.ProviderID, "client": &nb.ClientID} {
		if *dst = formID(f, name); *dst == 0 {
			f.SetError(name, chooseText(r, name))
		}
	}
	nb.Notes = bookingNotes(f)
	var offsets []ui.Option
	if nb.Start, offsets, err = a.formStart(r, f, nb.LocationID); err != nil {
		a.renderError(w, r, err)
		return
	}
	if err := a.needPolicies(ctx, f); err != nil {
		a.renderError(w, r, err)
		return
	}
	if !f.OK() {
		a.showNewBooking(w, r, http.StatusUnprocessableEntity, f, offsets)
		return
	}
	override, ok := a.staffRuleOverride(r, f, nb.LocationID, nb.ServiceID, nb.ProviderID, nb.Start)
	if !ok {
		a.showNewBooking(w, r, http.StatusUnprocessableEntity, f, offsets)
		return
	}
	nb.Override = override
	if f.Get("repeat") != "" { // a series (bookings_series.go)
		a.createSeries(w, r, f, nb, offsets)
		return
	}
	note := ""
	if override == nil {
		note = a.offerNote(ctx, nb)
	}
	v, err := booking.Create(ctx, a.db, a.now(), nb)
	if a.bookingRefused(ctx, f, err, conflictQuery{providerID: nb.ProviderID, serviceID: nb.ServiceID, start: nb.Start}, nil) {
		a.showNewBooking(w, r, http.StatusUnprocessableEntity, f, offsets)
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	s := a.summary(ctx, v)
	a.flash(ctx, ui.FlashSuccess, translate(r, "bookings.created", "provider", v.ProviderName, "client", s.Client, "when", s.When))
	if note != "" {
		a.flash(ctx, ui.FlashInfo, note)
	}
	seeOther(w, r, s.DayURL)
}

// formStart reads a new booking's start from the form in the zone of location locationID,
// marking the location field when that location is unknown or has a zone this build does not
// know; the error is for the error page.
func (a *Admin) formStart(r *http.Request, f *ui.Form, locationID int64) (time.Time, []ui.Option, error) {
	loc, err := a.db.R.ScheduleLocation(r.Context(), locationID)
	if db.IsNotFound(err) {
		f.SetError("location", translate(r, "bookings.choose_location.error"))
		return time.Time{}, nil, nil
	}
	if err != nil {
		return time.Time{}, nil, err
	}
	zone, err := booking.LoadZone(loc.Timezone)
	if err != nil {
		f.SetError("location", translate(r, "bookings.unknown_zone"))
		return time.Time{}, nil, nil
	}
	start, offsets, _ := bookingStart(r.Context(), f, zone)
	return start, offsets, nil
}

// bookingStart reads the date and time fields as a wall time in zone. A time the clocks skip
// is refused; one they show twice needs the offset field to say which (the options returned
// are the two readings).
func bookingStart(ctx context.Context, f *ui.Form, zone *time.Location) (time.Time, []ui.Option, bool) {
	d, err := booking.ParseDate(f.Get("date"))
	if err != nil || d.Year < 1970 || d.Year > 9000 {
		f.SetError("date", i18n.T(ctx, "bookings.date.error"))
		return time.Time{}, nil, false
	}
	minute, ok := readClock(ctx, f, "time")
	if !ok {
		return time.Time{}, nil, false
	}
	at := wallInstants(zone, d, minute)
	switch len(at) {
	case 0:
		f.SetError("time", i18n.T(ctx, "bookings.time.skipped", "time", clockText(ctx, minute), "date", d.String(), "zone", zone.String()))
		return time.Time{}, nil, false
	case 1:
		return at[0], nil, true
	}
	var offsets []ui.Option
	var picked time.Time
	for i, t := range at {
		label := i18n.T(ctx, "bookings.time.first", "time", i18n.Clock(t), "offset", i18n.Offset(t))
		if i > 0 {
			label = i18n.T(ctx, "bookings.time.second", "time", i18n.Clock(t), "offset", i18n.Offset(t))
		}
		offsets = append(offsets, ui.Option{Value: t.Format("-07:00"), Label: label})
		if f.Get("offset") == t.Format("-07:00") {
			picked = t
		}
	}
	if picked.IsZero() {
		f.SetError("offset", i18n.T(ctx, "bookings.time.twice"))
		return time.Time{}, offsets, false
	}
	return picked, offsets, true
}

// needPolicies refuses the form while the business settings, which hold the booking policies
// app/booking reads, were never saved.
func (a *Admin) needPolicies(ctx context.Context, f *ui.Form) error {
	_, err := a.db.R.SchedulePolicy(ctx)
	if db.IsNotFound(err) {
		f.Message = i18n.T(ctx, "bookings.need_policies")
		return nil
	}
	return err
}

// formID reads an id field (canonical, input.ParseID); 0 when empty or not one.
func formID(f *ui.Form, name string) int64 {
	n, _ := input.ParseID(f.Get(name))
	return n
}

// bookingStatus reads the status field; anything but 1–4 is left to app/booking to refuse.
func bookingStatus(f *ui.Form) int64 {
	n, err := strconv.ParseInt(f.Get("status"), 10, 64)
	if err != nil {
		return booking.StatusConfirmed
	}
	return n
}

// bookingNotes reads the notes with browser line endings made plain; empty is none.
func bookingNotes(f *ui.Form) *string {
	s := strings.TrimSpace(strings.ReplaceAll(f.Raw("notes"), "\r\n", "\n"))
	if s == "" {
		return nil
	}
	return &s
}
