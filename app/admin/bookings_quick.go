package admin

import (
	"context"
	"database/sql"
	"net/http"
	"net/url"
	"slices"

	"frontdesk/app/booking"
	"frontdesk/app/clients"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Booking a caller from an empty time of a calendar view, in three steps: the time (a link of
// the day, week or agenda view, which fills in location, provider, date and time), the client
// (found as their name, phone or email is typed — or typed in as a new client), and Book. A
// returning client's usual service comes first and is chosen. Without JavaScript the search
// is a GET form that reloads the page; with htmx the list of clients found is swapped in as
// the text is typed (quickClients answers with that fragment alone). A new client and their
// booking are written in one transaction: a refusal of either leaves nothing.

// quickFields are what the quick form carries from step to step (GET links and forms).
var quickFields = []string{"location", "service", "provider", "client", "date", "time", "offset"}

// quickShown are the quick form's fields an error can sit beside; others go on top.
var quickShown = map[string]bool{"service": true, "provider": true, "date": true, "time": true, "offset": true,
	"notes": true, "first_name": true, "last_name": true, "email": true, "phone": true}

// quickClientsShown is how many clients the search lists.
const quickClientsShown = 10

func (a *Admin) showQuickBooking(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	q := r.URL.Query()
	f := ui.NewForm(nil)
	for _, name := range append(slices.Clone(quickFields), "client_q") {
		f.Set(name, q.Get(name))
	}
	normalizeClock(ctx, f, "time")
	var offsets []ui.Option
	if f.Get("time") != "" {
		if loc, err := a.db.R.ScheduleLocation(ctx, formID(f, "location")); err == nil {
			if zone, err := booking.LoadZone(loc.Timezone); err == nil {
				_, offsets, _ = bookingStart(ctx, ui.NewForm(f.Values), zone) // a prefill is not an error
			}
		}
	}
	var found []ui.QuickClient
	text := searchText(f.Get("client_q"))
	if formID(f, "client") == 0 && text != "" {
		matches, err := a.quickMatches(ctx, text)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		if len(matches) == 1 { // the only one found is the one
			f.Set("client", idText(matches[0].ID))
		} else {
			found = quickClientLinks(f, matches)
		}
	}
	if id := formID(f, "client"); id != 0 {
		usual, err := a.db.R.AdminClientUsualService(ctx, id)
		switch {
		case err == nil:
			f.Set("service", idText(usual))
		case !db.IsNotFound(err):
			a.renderError(w, r, err)
			return
		}
	}
	a.renderQuickBooking(w, r, http.StatusOK, f, offsets, found)
}

// quickClients is the htmx fragment of the search: the clients the text finds, each a link to
// the quick form with that client chosen.
func (a *Admin) quickClients(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	q := r.URL.Query()
	f := ui.NewForm(nil)
	for _, name := range quickFields {
		f.Set(name, q.Get(name))
	}
	text := searchText(q.Get("client_q"))
	v := ui.QuickClientsView{Searched: text != ""}
	if text != "" {
		matches, err := a.quickMatches(ctx, text)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		v.Clients = quickClientLinks(f, matches)
	}
	a.render(w, r, http.StatusOK, ui.QuickClients(v))
}

// quickMatches are the active clients text finds (name, phone, email: findClients).
func (a *Admin) quickMatches(ctx context.Context, text string) ([]clientMatch, error) {
	found, _, err := a.findClients(ctx, text, sql.NullBool{Bool: true, Valid: true}, quickClientsShown, 0)
	return found, err
}

// quickClientLinks are the clients found as links to the quick form with each one chosen and
// everything else kept.
func quickClientLinks(f *ui.Form, found []clientMatch) []ui.QuickClient {
	out := make([]ui.QuickClient, 0, len(found))
	for _, c := range found {
		q := url.Values{}
		for _, name := range quickFields {
			if v := f.Get(name); v != "" {
				q.Set(name, v)
			}
		}
		q.Set("client", idText(c.ID))
		out = append(out, ui.QuickClient{Label: clientLabel(c), URL: "/bookings/quick?" + q.Encode()})
	}
	return out
}

func (a *Admin) renderQuickBooking(w http.ResponseWriter, r *http.Request, status int, f *ui.Form, offsets []ui.Option, found []ui.QuickClient) {
	ctx := r.Context()
	locs, err := a.db.R.AdminBookingLocations(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	loc, ok := pickLocation(locs, formID(f, "location"))
	if !ok && f.Message == "" {
		f.Message = translate(r, "day.no_locations")
	}
	if ok {
		f.Set("location", idText(loc.ID))
	}
	if ok && f.Get("date") == "" {
		if zone, err := booking.LoadZone(loc.Timezone); err == nil {
			f.Set("date", booking.DateOf(a.now().In(zone)).String())
		}
	}
	services, err := a.db.R.AdminBookingServices(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	providers, err := a.bookingProviders(ctx, loc.ID, formID(f, "provider"))
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.QuickBookingView{
		BookingFormView: ui.BookingFormView{
			Form: f, Zone: loc.Timezone, Offsets: offsets,
			Providers: providerOptions(r, providers, translate(r, "bookings.choose_provider"), formID(f, "provider"), false),
		},
		Location: loc.Name, Found: found, Searched: searchText(f.Get("client_q")) != "",
	}
	clientID := formID(f, "client")
	usual := int64(0)
	if clientID != 0 {
		rows, err := a.db.R.AdminClientNames(ctx, []int64{clientID})
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		for _, c := range rows {
			v.Client = clientLabel(clientMatch{ID: c.ID, FirstName: c.FirstName, LastName: c.LastName, Email: c.Email, Phone: c.Phone, Active: c.Active})
		}
		if v.Client == "" {
			f.Set("client", "")
		}
		q := url.Values{}
		for _, name := range quickFields {
			if name != "client" && f.Get(name) != "" {
				q.Set(name, f.Get(name))
			}
		}
		v.ChangeClientURL = "/bookings/quick?" + q.Encode()
		if u, err := a.db.R.AdminClientUsualService(ctx, clientID); err == nil {
			usual = u
		} else if !db.IsNotFound(err) {
			a.renderError(w, r, err)
			return
		}
	}
	// The client's usual service first, then the rest in name order.
	services = slices.DeleteFunc(services, func(s db.AdminBookingServicesRow) bool {
		return !s.Active && s.ID != formID(f, "service")
	})
	slices.SortStableFunc(services, func(x, y db.AdminBookingServicesRow) int {
		switch {
		case x.ID == usual && y.ID != usual:
			return -1
		case y.ID == usual && x.ID != usual:
			return 1
		}
		return 0
	})
	v.Services = append([]ui.Option{{Value: "", Label: translate(r, "bookings.choose_service")}}, serviceOptions(r, services, "")...)
	for i := range v.Services {
		if usual != 0 && v.Services[i].Value == idText(usual) {
			v.Services[i].Label += " · " + translate(r, "quick.usual")
		}
	}
	v.Search = url.Values{}
	for _, name := range quickFields {
		if name != "client" && f.Get(name) != "" {
			v.Search.Set(name, f.Get(name))
		}
	}
	a.render(w, r, status, ui.QuickBookingPage(a.page(r, translate(r, "quick.title")), v))
}

// createQuickBooking books the caller: the chosen client, or the new client typed in, created
// in the booking's own transaction.
func (a *Admin) createQuickBooking(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	ctx := r.Context()
	now := a.now()
	nb := booking.NewBooking{Source: booking.SourceAdmin, StatusID: booking.StatusConfirmed, Notes: bookingNotes(f)}
	for name, dst := range map[string]*int64{"location": &nb.LocationID, "service": &nb.ServiceID, "provider": &nb.ProviderID} {
		if *dst = formID(f, name); *dst == 0 {
			f.SetError(name, chooseText(r, name))
		}
	}
	nb.ClientID = formID(f, "client")
	var in clients.Input
	if nb.ClientID == 0 {
		in = clients.Input{FirstName: clients.Value(f.Get("first_name")), LastName: clients.Value(f.Get("last_name")),
			Email: clients.Value(f.Get("email")), Phone: clients.Value(f.Get("phone"))}
		nb.NewClient = true
		if f.Get("first_name") == "" && f.Get("last_name") == "" && f.Get("email") == "" && f.Get("phone") == "" {
			f.Message = translate(r, "quick.need_client")
		} else if err := clients.Validate(ctx, a.db.R, now, in, clients.Options{RequireMandatory: true}); err != nil && !quickClientRefused(ctx, f, err) {
			a.renderError(w, r, err)
			return
		}
	}
	var offsets []ui.Option
	if nb.Start, offsets, err = a.formStart(r, f, nb.LocationID); err != nil {
		a.renderError(w, r, err)
		return
	}
	if err := a.needPolicies(ctx, f); err != nil {
		a.renderError(w, r, err)
		return
	}
	refused := func() { a.renderQuickBooking(w, r, http.StatusUnprocessableEntity, quickErrorsOnTop(f), offsets, nil) }
	if !f.OK() {
		refused()
		return
	}
	override, ok := a.staffRuleOverride(r, f, nb.LocationID, nb.ServiceID, nb.ProviderID, nb.Start)
	if !ok {
		refused()
		return
	}
	nb.Override = override
	note := ""
	if override == nil {
		note = a.offerNote(ctx, nb)
	}
	cq := conflictQuery{providerID: nb.ProviderID, serviceID: nb.ServiceID, start: nb.Start}
	prepared, err := booking.Prepare(ctx, a.db, now, nb)
	var v booking.View
	if err == nil {
		err = a.db.InTx(ctx, func(q *db.Queries) error {
			jctx := db.WithTx(ctx, q) // the client and the booking commit together, or neither
			if nb.NewClient {
				c, err := clients.Create(jctx, a.db, now, in, clients.Options{RequireMandatory: true})
				if err != nil {
					return err
				}
				prepared.ClientID = c.ID
			}
			var err error
			v, err = booking.Book(jctx, a.db, now, prepared)
			return err
		})
	}
	if err != nil {
		if quickClientRefused(ctx, f, err) || a.bookingRefused(ctx, f, err, cq, quickShown) {
			refused()
			return
		}
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

// quickClientRefused puts app/clients' refusal of the new client on f: beside the four fields
// the quick form has, on top for any other (a mandatory custom attribute: the full client form
// takes it).
func quickClientRefused(ctx context.Context, f *ui.Form, err error) bool {
	g := ui.NewForm(nil)
	if !clientRefused(ctx, g, err) {
		return false
	}
	for _, name := range g.ErrorFields() {
		if quickShown[name] {
			f.SetError(name, g.Error(name))
		} else if f.Message == "" {
			f.Message = g.Error(name) + " " + i18n.T(ctx, "quick.full_form")
		}
	}
	if g.Message != "" && f.Message == "" {
		f.Message = g.Message
	}
	return true
}

// quickErrorsOnTop moves errors of fields the quick form does not show (the location) to its
// message.
func quickErrorsOnTop(f *ui.Form) *ui.Form {
	for _, name := range f.ErrorFields() {
		if !quickShown[name] && f.Message == "" {
			f.Message = f.Error(name)
		}
	}
	return f
}
