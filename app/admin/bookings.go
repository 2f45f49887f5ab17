package admin

import (
	"context"
	"database/sql"
	"net/http"
	"slices"
	"time"

	"frontdesk/app/booking"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Bookings: the list with its filters (this file), the day view (dayview.go), the create,
// reschedule and cancel forms (bookings_form.go) and the explainer (explain.go). Bookings are
// read and written through app/booking as the owner (booking.SourceAdmin): the customer
// policies (notice, advance window, edit and cancel rules) bind the public API, not the owner,
// but no provider is ever double-booked and every change records its webhook event in the
// same transaction.

const bookingsPerPage = 50

func (a *Admin) listBookings(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	q := r.URL.Query()
	f := ui.NewForm(nil)
	v := ui.BookingsView{Filter: f, Statuses: append([]ui.Option{{Value: "", Label: translate(r, "bookings.any_status")}}, append(bookingStatusOptions(r), ui.Option{Value: "5", Label: bookingStatusName(r.Context(), booking.StatusCancelled)})...)}
	locs, err := a.db.R.AdminBookingLocations(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	providers, err := a.db.R.AdminBookingProviders(ctx, 0)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	own := scopedProvider(ctx)
	if own != 0 {
		providers = slices.DeleteFunc(providers, func(p db.AdminBookingProvidersRow) bool { return p.ID != own })
	}
	v.Locations = locationOptions(r, locs, translate(r, "bookings.all_locations"))
	v.Providers = providerOptions(r, providers, translate(r, "bookings.all_providers"), 0, true)

	var filter booking.Filter
	for name, dst := range map[string]*int64{"location": &filter.LocationID, "provider": &filter.ProviderID, "client": &filter.ClientID} {
		if *dst = queryID(q, name); *dst != 0 {
			f.Set(name, idText(*dst))
		}
	}
	if own != 0 {
		filter.ProviderID = own
	}
	if n := queryID(q, "status"); n <= booking.StatusCancelled {
		filter.StatusID = n
		if n != 0 {
			f.Set("status", idText(n))
		}
	}
	if len(q) == 0 { // first visit: from today on
		zone, err := a.businessZone(ctx)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		q.Set("from", booking.DateOf(a.now().In(zone)).String())
	}
	for name, dst := range map[string]**booking.Date{"from": &filter.From, "to": &filter.To} {
		s := q.Get(name)
		f.Set(name, s)
		if s == "" {
			continue
		}
		if d, err := booking.ParseDate(s); err == nil {
			*dst = &d
		} else {
			f.SetError(name, translate(r, "bookings.date.error"))
		}
	}
	if err := a.filterClient(r, f, &filter, &v); err != nil {
		a.renderError(w, r, err)
		return
	}

	page := pageNumber(q)
	views, total, err := booking.List(ctx, a.db, filter, bookingsPerPage, (page-1)*bookingsPerPage)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	names, err := a.clientNames(ctx, views)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	p := i18n.From(ctx)
	for _, b := range views {
		zone, err := booking.LoadZone(b.LocationTimezone)
		if err != nil {
			zone = nil
		}
		start, end := localTime(b.Booking.StartAt, zone), localTime(b.Booking.EndAt, zone)
		v.Rows = append(v.Rows, ui.BookingListRow{
			ID: b.Booking.ID, Date: p.Date(start), Time: p.TimeOnce(start) + "–" + p.TimeOnce(end),
			Location: b.LocationName, Provider: b.ProviderName, Service: b.ServiceName, Client: names[b.Booking.ClientID],
			Status: bookingStatusName(r.Context(), b.Booking.StatusID), Cancelled: b.Booking.StatusID == booking.StatusCancelled,
		})
	}
	v.Pager = listPager(r.URL, page, bookingsPerPage, total, translate(r, "pager.bookings", "count", total))
	v.Pager.CSV = csvLink(r.Context(), "/bookings/csv", q)
	a.render(w, r, http.StatusOK, ui.BookingsPage(a.page(r, translate(r, "bookings.tabs")), v))
}

// filterClient applies the client part of the list filter: a client id, or a search that
// names exactly one client (several: the page offers them to pick from).
func (a *Admin) filterClient(r *http.Request, f *ui.Form, filter *booking.Filter, v *ui.BookingsView) error {
	ctx := r.Context()
	if filter.ClientID != 0 {
		if ok, err := a.ownsClient(ctx, filter.ClientID); err != nil || !ok {
			filter.ClientID = -1 // another provider's client: nothing, and no name
			return err
		}
		rows, err := a.db.R.AdminClientNames(ctx, []int64{filter.ClientID})
		if err != nil {
			return err
		}
		v.Client = "client " + idText(filter.ClientID)
		if len(rows) == 1 {
			v.Client = clientName(rows[0].FirstName, rows[0].LastName)
		}
		clear := r.URL.Query()
		clear.Del("client")
		clear.Del("page")
		v.ClearClient = "/bookings?" + clear.Encode()
		return nil
	}
	text := searchText(r.URL.Query().Get("client_q"))
	f.Set("client_q", text)
	if text == "" {
		return nil
	}
	found, total, err := a.findClients(ctx, text, sql.NullBool{}, 20, 0)
	if err != nil {
		return err
	}
	switch {
	case total == 0:
		f.SetError("client_q", translate(r, "bookings.no_client_match"))
		filter.ClientID = -1 // nothing matches
	case total == 1:
		filter.ClientID = found[0].ID
		f.Set("client", idText(found[0].ID))
		v.Client = found[0].name()
		clear := r.URL.Query()
		clear.Del("client_q")
		v.ClearClient = "/bookings?" + clear.Encode()
	default:
		filter.ClientID = -1
		for _, c := range found {
			pick := r.URL.Query()
			pick.Del("client_q")
			pick.Del("page")
			pick.Set("client", idText(c.ID))
			v.ClientChoices = append(v.ClientChoices, ui.ChoiceLink{Label: clientLabel(c), URL: "/bookings?" + pick.Encode()})
		}
	}
	return nil
}

// clientNames maps the bookings' client ids to names.
func (a *Admin) clientNames(ctx context.Context, views []booking.View) (map[int64]string, error) {
	ids := make([]int64, 0, len(views))
	for _, b := range views {
		ids = append(ids, b.Booking.ClientID)
	}
	names := map[int64]string{}
	if len(ids) == 0 {
		return names, nil
	}
	rows, err := a.db.R.AdminClientNames(ctx, ids)
	for _, c := range rows {
		names[c.ID] = clientName(c.FirstName, c.LastName)
	}
	return names, err
}

// clientLabel tells clients with the same name apart.
func clientLabel(c clientMatch) string {
	label := c.name()
	for _, extra := range []sql.NullString{c.Email, c.Phone, c.Record} {
		if extra.Valid && extra.String != "" {
			label += " · " + extra.String
		}
	}
	if !c.Active {
		label += " (deactivated)"
	}
	return label
}

// localTime is a stored instant in zone (UTC when the zone is unknown).
func localTime(ms int64, zone *time.Location) time.Time {
	if zone == nil {
		zone = time.UTC
	}
	return db.Time(ms).In(zone)
}

func locationOptions(r *http.Request, locs []db.AdminBookingLocationsRow, all string) []ui.Option {
	var out []ui.Option
	if all != "" {
		out = append(out, ui.Option{Value: "", Label: all})
	}
	for _, l := range locs {
		label := l.Name
		if !l.Active {
			label += " " + translate(r, "common.inactive_suffix")
		}
		out = append(out, ui.Option{Value: idText(l.ID), Label: label})
	}
	return out
}

// serviceOptions lists the services; none, when not "", is the label of an option for no
// service (value 0).
func serviceOptions(r *http.Request, services []db.AdminBookingServicesRow, none string) []ui.Option {
	var out []ui.Option
	if none != "" {
		out = append(out, ui.Option{Value: "0", Label: none})
	}
	for _, s := range services {
		label := s.Name + " (" + translate(r, "duration.minutes", "count", s.DurationMin) + ")"
		if !s.Active {
			label += " " + translate(r, "common.inactive_suffix")
		}
		out = append(out, ui.Option{Value: idText(s.ID), Label: label})
	}
	return out
}

// bookingProviders are the providers who work at the location (every provider for 0) and the
// chosen one wherever they work, so a form always shows what is stored.
func (a *Admin) bookingProviders(ctx context.Context, locationID, chosen int64) ([]db.AdminBookingProvidersRow, error) {
	rows, err := a.db.R.AdminBookingProviders(ctx, locationID)
	if err != nil || chosen == 0 || slices.ContainsFunc(rows, func(p db.AdminBookingProvidersRow) bool { return p.ID == chosen }) {
		return rows, err
	}
	p, err := a.db.R.BookingProvider(ctx, chosen)
	if db.IsNotFound(err) {
		return rows, nil
	} else if err != nil {
		return nil, err
	}
	return append(rows, db.AdminBookingProvidersRow{ID: p.ID, PublicName: p.PublicName, Active: p.Active}), nil
}

// providerOptions lists the active providers and the inactive ones too when all is set or
// one is already chosen.
func providerOptions(r *http.Request, providers []db.AdminBookingProvidersRow, prompt string, chosen int64, all bool) []ui.Option {
	out := []ui.Option{{Value: "", Label: prompt}}
	for _, p := range providers {
		switch {
		case p.Active:
			out = append(out, ui.Option{Value: idText(p.ID), Label: p.PublicName})
		case all || p.ID == chosen:
			out = append(out, ui.Option{Value: idText(p.ID), Label: p.PublicName + " " + translate(r, "common.inactive_suffix")})
		}
	}
	return out
}
