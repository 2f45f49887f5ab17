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
				_, offsets, _ = bookingStart(check, zone)
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
		Locations: append([]ui.Option{{Value: "", Label: "Choose a location"}}, locationOptions(locs, "")...),
		Services:  append([]ui.Option{{Value: "", Label: "Choose a service"}}, serviceOptions(services, "")...),
		Providers: providerOptions(providers, "Choose a provider", formID(f, "provider"), false),
		Statuses:  bookingStatuses,
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
	a.render(w, r, status, ui.NewBookingPage(a.page(r, "New booking"), v))
}

// clientOptions are the choices of the client select: the chosen client and the active
// clients the search text finds (the only one found is chosen).
func (a *Admin) clientOptions(ctx context.Context, f *ui.Form) ([]ui.Option, string, error) {
	out := []ui.Option{{Value: "", Label: "Choose a client"}}
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
			return out, "Find the client first: type part of a name, email or phone and press Find.", nil
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
		return out, "No active client matches “" + text + "”.", nil
	case total > shown:
		return out, fmt.Sprintf("%d clients match; the first %d are listed. Type more to narrow it down.", total, shown), nil
	case total == 1:
		return out, "One client matches.", nil
	}
	return out, fmt.Sprintf("%d clients match.", total), nil
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
			f.SetError(name, "Choose a "+name+".")
		}
	}
	nb.Notes = bookingNotes(f)
	var offsets []ui.Option
	var zone *time.Location
	if loc, err := a.db.R.ScheduleLocation(ctx, nb.LocationID); err == nil {
		if zone, err = booking.LoadZone(loc.Timezone); err != nil {
			f.SetError("location", "This location's time zone is not known to this program.")
		}
	} else if db.IsNotFound(err) {
		f.SetError("location", "Choose a location.")
	} else {
		a.renderError(w, r, err)
		return
	}
	if zone != nil {
		nb.Start, offsets, _ = bookingStart(f, zone)
	}
	if err := a.needPolicies(ctx, f); err != nil {
		a.renderError(w, r, err)
		return
	}
	if !f.OK() {
		a.showNewBooking(w, r, http.StatusUnprocessableEntity, f, offsets)
		return
	}
	note := a.offerNote(ctx, nb)
	v, err := booking.Create(ctx, a.db, a.now(), nb)
	if a.bookingRefused(ctx, f, err, conflictQuery{providerID: nb.ProviderID, serviceID: nb.ServiceID, start: nb.Start}, nil) {
		a.showNewBooking(w, r, http.StatusUnprocessableEntity, f, offsets)
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	s := a.summary(ctx, v)
	a.flash(ctx, ui.FlashSuccess, "Booking created: "+v.ProviderName+" with "+s.Client+", "+s.When+".")
	if note != "" {
		a.flash(ctx, ui.FlashInfo, note)
	}
	seeOther(w, r, s.DayURL)
}

// bookingStart reads the date and time fields as a wall time in zone. A time the clocks skip
// is refused; one they show twice needs the offset field to say which (the options returned
// are the two readings).
func bookingStart(f *ui.Form, zone *time.Location) (time.Time, []ui.Option, bool) {
	d, err := booking.ParseDate(f.Get("date"))
	if err != nil || d.Year < 1970 || d.Year > 9000 {
		f.SetError("date", "Enter a date as YYYY-MM-DD.")
		return time.Time{}, nil, false
	}
	clock, err := time.Parse("15:04", f.Get("time"))
	if err != nil {
		f.SetError("time", "Enter a time as HH:MM, e.g. 09:30.")
		return time.Time{}, nil, false
	}
	at := wallInstants(zone, d, clock.Hour()*60+clock.Minute())
	switch len(at) {
	case 0:
		f.SetError("time", fmt.Sprintf("%s does not exist on %s in %s: the clocks skip it.", clock.Format("15:04"), d, zone))
		return time.Time{}, nil, false
	case 1:
		return at[0], nil, true
	}
	var offsets []ui.Option
	var picked time.Time
	for i, t := range at {
		label := t.Format("15:04 MST (UTC-07:00)") + [2]string{", the first time", ", the second time"}[min(i, 1)]
		offsets = append(offsets, ui.Option{Value: t.Format("-07:00"), Label: label})
		if f.Get("offset") == t.Format("-07:00") {
			picked = t
		}
	}
	if picked.IsZero() {
		f.SetError("offset", "This time happens twice on this date: choose which one.")
		return time.Time{}, offsets, false
	}
	return picked, offsets, true
}

// needPolicies refuses the form while the business settings, which hold the booking policies
// app/booking reads, were never saved.
func (a *Admin) needPolicies(ctx context.Context, f *ui.Form) error {
	_, err := a.db.R.SchedulePolicy(ctx)
	if db.IsNotFound(err) {
		f.Message = "Save the business settings first (Settings → Business): they hold the booking policies."
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
