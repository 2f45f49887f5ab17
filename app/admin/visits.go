package admin

import (
	"errors"
	"net/http"
	"net/url"

	"frontdesk/app/booking"
	"frontdesk/app/catalog"
	"frontdesk/app/errpage"
	"frontdesk/app/payments"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Bookings → New visit: several services back to back for one client, booked all or nothing
// through booking.BookVisit, the function /v3, the booking site and MCP call (docs/visits.md).

func (a *Admin) newVisit(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := ui.NewForm(nil)
	for _, name := range []string{"location", "client", "client_q", "date", "time", "notes", "pay_online"} {
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
	pay, err := a.db.R.CartPaymentSettings(ctx)
	if err != nil && !db.IsNotFound(err) {
		a.renderError(w, r, err)
		return
	}
	v := ui.VisitFormView{
		Form:      f,
		PayOnline: err == nil && pay.OnlinePayments,
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
	// "The client pays online": every booking reserved for one payment request of the visit's
	// total (payments.ReserveVisit, as POST /v3/visits with pay_online).
	var v booking.Visit
	var pr db.PaymentRequest
	payOnline := f.Checked("pay_online", "1")
	if payOnline {
		pr, v, err = payments.ReserveVisit(ctx, a.db, a.now(), nv, a.links.String(), 0)
		var re *payments.RefusedError
		if errors.As(err, &re) && re.Code == payments.CodePaymentsDisabled {
			f.SetError("pay_online", translate(r, "visits.pay_online.disabled"))
			a.showNewVisit(w, r, http.StatusUnprocessableEntity, f, offsets)
			return
		}
	} else {
		v, err = booking.BookVisit(ctx, a.db, a.now(), nv)
	}
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
	if payOnline {
		a.flash(ctx, ui.FlashSuccess, translate(r, "visits.created_pay", "client", s.Client, "when", s.When,
			"amount", i18n.From(ctx).Money(pr.AmountCents), "url", pr.CheckoutURL))
	} else {
		a.flash(ctx, ui.FlashSuccess, translate(r, "visits.created", "count", len(v.Bookings), "client", s.Client, "when", s.When))
	}
	seeOther(w, r, s.DayURL)
}

// Catalog → a service → "In a visit": its processing time and add-ons.

func (a *Admin) showServiceVisit(w http.ResponseWriter, r *http.Request) {
	a.serviceVisit(w, r, http.StatusOK, nil)
}

func (a *Admin) serviceVisit(w http.ResponseWriter, r *http.Request, status int, f *ui.Form) {
	ctx := r.Context()
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	svc, err := a.db.R.GetService(ctx, id)
	if db.IsNotFound(err) {
		a.renderError(w, r, errpage.NotFound)
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	services, err := a.db.R.AdminBookingServices(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	var options []ui.Option
	for _, s := range services {
		if s.ID != id {
			options = append(options, ui.Option{Value: idText(s.ID), Label: s.Name})
		}
	}
	if f == nil {
		v := url.Values{"add_ons": {}}
		if p, err := a.db.R.GetServiceProcessing(ctx, id); err == nil {
			v.Set("after_min", idText(p.AfterMin))
			v.Set("processing_min", idText(p.ProcessingMin))
		} else if !db.IsNotFound(err) {
			a.renderError(w, r, err)
			return
		}
		ids, err := a.db.R.ServiceAddonIDs(ctx, id)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		for _, x := range ids {
			v.Add("add_ons", idText(x))
		}
		f = ui.NewForm(v)
	}
	a.render(w, r, status, ui.ServiceVisitPage(a.page(r, translate(r, "visits.rules.title", "service", svc.Service.Name)), id, svc.Service.Name, options, f))
}

func (a *Admin) saveServiceVisit(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	in := catalog.VisitRulesInput{AfterMin: f.Get("after_min"), ProcessingMin: f.Get("processing_min"), AddOns: r.PostForm["add_ons"]}
	if _, err := catalog.SetServiceVisitRules(r.Context(), a.db, id, in, a.now()); refused(r.Context(), f, err) {
		a.serviceVisit(w, r, invalid, f)
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "visits.rules.saved"))
	seeOther(w, r, "/catalog/services/"+idText(id))
}
