package admin

import (
	"errors"
	"net/http"

	"frontdesk/app/booking"
	"frontdesk/ui"
)

// Bookings → New visit: several services back to back for one client, booked all or nothing
// through booking.BookVisit, the function /v3, the booking site and MCP call (docs/visits.md).

func (a *Admin) newVisit(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := ui.NewForm(nil)
	for _, name := range []string{"location", "client", "client_q", "date", "time", "notes"} {
		f.Set(name, q.Get(name))
	}
	for i := 1; i <= ui.VisitSteps; i++ {
		f.Set(ui.VisitServiceField(i), q.Get(ui.VisitServiceField(i)))
		f.Set(ui.VisitProviderField(i), q.Get(ui.VisitProviderField(i)))
	}
	if f.Get("location") == "" {
		if locs, err := a.db.R.AdminBookingLocations(r.Context()); err == nil {
			if loc, ok := pickLocation(locs, 0); ok {
				f.Set("location", idText(loc.ID))
				if zone, err := booking.LoadZone(loc.Timezone); err == nil && f.Get("date") == "" {
					f.Set("date", booking.DateOf(a.now().In(zone)).String())
				}
			}
		}
	}
	a.showNewVisit(w, r, http.StatusOK, f, nil)
}

func (a *Admin) showNewVisit(w http.ResponseWriter, r *http.Request, status int, f *ui.Form, offsets []ui.Option) {
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
	providers, err := a.bookingProviders(ctx, locationID, 0)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.VisitFormView{
		Form:      f,
		Locations: append([]ui.Option{{Value: "", Label: translate(r, "bookings.choose_location")}}, locationOptions(r, locs, "")...),
		Services:  append([]ui.Option{{Value: "", Label: translate(r, "visits.no_service")}}, serviceOptions(r, services, "")...),
		Providers: providerOptions(r, providers, translate(r, "visits.anyone"), 0, false),
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
	a.render(w, r, status, ui.NewVisitPage(a.page(r, translate(r, "visits.new")), v))
}

func (a *Admin) createVisit(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	ctx := r.Context()
	nv := booking.NewVisit{Source: booking.SourceAdmin, StatusID: booking.StatusConfirmed, Notes: bookingNotes(f)}
	for name, dst := range map[string]*int64{"location": &nv.LocationID, "client": &nv.ClientID} {
		if *dst = formID(f, name); *dst == 0 {
			f.SetError(name, chooseText(r, name))
		}
	}
	for i := 1; i <= ui.VisitSteps; i++ {
		if id := formID(f, ui.VisitServiceField(i)); id != 0 {
			nv.Segments = append(nv.Segments, booking.VisitSegment{ServiceID: id, ProviderID: formID(f, ui.VisitProviderField(i))})
		}
	}
	if len(nv.Segments) == 0 {
		f.SetError(ui.VisitServiceField(1), chooseText(r, "service"))
	}
	var offsets []ui.Option
	if nv.Start, offsets, err = a.formStart(r, f, nv.LocationID); err != nil {
		a.renderError(w, r, err)
		return
	}
	if err := a.needPolicies(ctx, f); err != nil {
		a.renderError(w, r, err)
		return
	}
	if !f.OK() {
		a.showNewVisit(w, r, http.StatusUnprocessableEntity, f, offsets)
		return
	}
	v, err := booking.BookVisit(ctx, a.db, a.now(), nv)
	if errors.Is(err, booking.ErrSlotUnavailable) {
		var res *booking.ResourceTakenError
		f.Message = translate(r, "visits.taken")
		if errors.As(err, &res) {
			f.Message = translate(r, "bookings.resource_taken", "resource", res.Name)
		}
		a.showNewVisit(w, r, http.StatusUnprocessableEntity, f, offsets)
		return
	}
	if a.bookingRefused(ctx, f, err, conflictQuery{}, map[string]bool{}) {
		a.showNewVisit(w, r, http.StatusUnprocessableEntity, f, offsets)
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	s := a.summary(ctx, v.Bookings[0])
	a.flash(ctx, ui.FlashSuccess, translate(r, "visits.created", "count", len(v.Bookings), "client", s.Client, "when", s.When))
	seeOther(w, r, s.DayURL)
}
