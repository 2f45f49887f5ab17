package api

import (
	"context"
	"net/http"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/fail"
	"frontdesk/app/money"
	"frontdesk/app/resource"
	"frontdesk/db"
)

// The booking rules live in app/booking; these handlers decode, call it with the customer-flow
// source and answer. See docs/api.md, "Bookings and slots", for the choices made where the
// reference is silent.

func (a *API) listBookings(w http.ResponseWriter, r *http.Request) {
	p, err := queryPaging(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	f, err := parseBookingFilter(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	ctx := bookingCtx(r)
	views, total, err := booking.List(ctx, a.db, f, p.Limit(), p.Offset())
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if len(views) == 0 {
		// Every view carries the company id; an empty page still needs the business to exist.
		if _, err := a.companyID(ctx); err != nil {
			a.writeError(w, r, err)
			return
		}
	}
	out := resource.List[resource.Booking]{Data: make([]resource.Booking, 0, len(views)), Pagination: p.Pagination(total)}
	for _, v := range views {
		b, err := newBookingResource(v)
		if err != nil {
			a.writeError(w, r, err)
			return
		}
		out.Data = append(out.Data, b)
	}
	// Written without reflection (resource.AppendBookingList): a page is some 20 KB.
	body := resource.AppendBookingList(make([]byte, 0, 256+768*len(out.Data)), out)
	writeRawJSON(w, http.StatusOK, append(body, '\n')) // ending as writeJSON's do
}

// parseBookingFilter reads the reference's filters; at least one of client, location, service
// or provider is required (dates alone are not enough). The provider is service_provider_id or
// its alias provider_id.
func parseBookingFilter(r *http.Request) (booking.Filter, error) {
	var f booking.Filter
	for _, p := range []struct {
		name string
		dst  *int64
	}{
		{"client_id", &f.ClientID}, {"location_id", &f.LocationID}, {"service_id", &f.ServiceID},
		{"service_provider_id", &f.ProviderID}, {"status_id", &f.StatusID},
	} {
		v, _, err := queryID(r, p.name)
		if err != nil {
			return f, err
		}
		*p.dst = v
	}
	// provider_id is an alias of service_provider_id (the name GET /v3/available_slots uses):
	// either may be given, or both with the same value.
	alias, ok, err := queryID(r, "provider_id")
	if err != nil {
		return f, err
	}
	if ok {
		if f.ProviderID != 0 && f.ProviderID != alias {
			return f, badRequest("conflicting_provider_id")
		}
		f.ProviderID = alias
	}
	if f.StatusID > booking.StatusCancelled {
		return f, badRequest("invalid_status_id")
	}
	scheduled, ok, err := queryBool(r, "scheduled")
	if err != nil {
		return f, err
	}
	if ok {
		f.Scheduled = &scheduled
	}
	for _, p := range []struct {
		name string
		dst  **booking.Date
	}{{"start_date", &f.From}, {"end_date", &f.To}} {
		d, ok, err := queryBookingDate(r, p.name)
		if err != nil {
			return f, err
		}
		if ok {
			*p.dst = &d
		}
	}
	// Any range may be asked for (a six-week month view, a year, every date there is): the page
	// is bounded (per_page), and the pages and their count are read on the (entity, start)
	// indexes (booking.List), so a long range costs what an open one does.
	if f.From != nil && f.To != nil && f.To.Before(*f.From) {
		return f, badRequest("end_date_before_start_date")
	}
	if f.ClientID == 0 && f.LocationID == 0 && f.ServiceID == 0 && f.ProviderID == 0 {
		return f, newError(http.StatusBadRequest, "required", "params")
	}
	return f, nil
}

func (a *API) getBooking(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "booking")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	v, err := booking.Get(r.Context(), a.db.R, id)
	if err != nil {
		a.writeError(w, r, bookingError(err))
		return
	}
	a.writeBooking(w, r, http.StatusOK, v)
}

// bookingBody is the body of POST and PATCH /v3/bookings. Every field remembers whether it was
// sent, for PATCH's merge; unknown fields are ignored.
type bookingBody struct {
	StartTime      Opt[string] `json:"start_time"`
	EndTime        Opt[string] `json:"end_time"`
	ServiceID      Opt[int64]  `json:"service_id"`
	ProviderID     Opt[int64]  `json:"provider_id"`
	ClientID       Opt[int64]  `json:"client_id"`
	LocationID     Opt[int64]  `json:"location_id"`
	StatusID       Opt[int64]  `json:"status_id"`
	Price          Opt[string] `json:"price"`
	Notes          Opt[string] `json:"notes"`
	TimeResourceID Opt[int64]  `json:"time_resource_id"`
	// PackID (an addition): absent uses the client's pack when the service is sold in packs,
	// null uses none, an id that pack (docs/classes.md).
	PackID Opt[int64] `json:"pack_id"`
}

func (a *API) createBooking(w http.ResponseWriter, r *http.Request) {
	var body bookingBody
	if err := readBookingBody(r, &body); err != nil {
		a.writeError(w, r, err)
		return
	}
	nb, err := body.newBooking(r.Context())
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	v, err := booking.Create(bookingCtx(r), a.db, a.now(), nb)
	if err != nil {
		a.writeError(w, r, bookingError(utcHint(err, body.StartTime, nb.StartWall)))
		return
	}
	a.writeBooking(w, r, http.StatusCreated, v)
}

func (b bookingBody) newBooking(ctx context.Context) (booking.NewBooking, error) {
	nb := booking.NewBooking{Source: booking.SourceConnect}
	for _, f := range []struct {
		name string
		v    Opt[int64]
		dst  *int64
	}{
		{"service_id", b.ServiceID, &nb.ServiceID}, {"provider_id", b.ProviderID, &nb.ProviderID},
		{"client_id", b.ClientID, &nb.ClientID}, {"location_id", b.LocationID, &nb.LocationID},
		{"status_id", b.StatusID, &nb.StatusID},
	} {
		if f.v.Ptr() == nil {
			return nb, unprocessable(f.name, "is required")
		}
		if err := positiveBookingRef(f.name, f.v.V); err != nil {
			return nb, err
		}
		*f.dst = f.v.V
	}
	if b.StartTime.Ptr() == nil {
		return nb, unprocessable("start_time", "is required")
	}
	var err error
	if nb.Start, err = parseBookingTime("start_time", b.StartTime.V); err != nil {
		return nb, err
	}
	nb.StartWall = wallClock(ctx, b.StartTime.V)
	if b.EndTime.Ptr() != nil {
		if nb.End, err = parseBookingTime("end_time", b.EndTime.V); err != nil {
			return nb, err
		}
		nb.EndWall = wallClock(ctx, b.EndTime.V)
	}
	if b.Price.Ptr() != nil {
		cents, err := money.Parse(b.Price.V)
		if err != nil {
			return nb, unprocessable("price", err.Error())
		}
		c := int64(cents)
		nb.Price = &c
	}
	nb.Notes = b.Notes.Ptr()
	nb.TimeResourceID = b.TimeResourceID.Ptr()
	if b.PackID.Set {
		none := int64(0)
		nb.PackID = &none
		if !b.PackID.Null {
			if err := positiveBookingRef("pack_id", b.PackID.V); err != nil {
				return nb, err
			}
			nb.PackID = b.PackID.Ptr()
		}
	}
	return nb, nil
}

func (a *API) updateBooking(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "booking")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	var body bookingBody
	if err := readBookingBody(r, &body); err != nil {
		a.writeError(w, r, err)
		return
	}
	ch, err := body.change(r.Context())
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	sc, err := scope(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	// With a scope, the occurrences of the booking's series change with it (series.go).
	vs, err := booking.UpdateOccurrences(bookingCtx(r), a.db, a.now(), id, ch, sc, booking.SourceConnect)
	if se, ok := err.(*booking.SeriesUnavailableError); ok {
		writeSeriesConflict(w, se)
		return
	}
	if err != nil {
		a.writeError(w, r, bookingError(utcHint(err, body.StartTime, ch.StartWall)))
		return
	}
	v, err := booking.Get(r.Context(), a.db.R, id)
	if len(vs) == 1 && vs[0].Booking.ID == id {
		v, err = vs[0], nil
	}
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.writeBooking(w, r, http.StatusOK, v)
}

func (b bookingBody) change(ctx context.Context) (booking.Change, error) {
	var ch booking.Change
	for _, f := range []struct {
		name string
		v    Opt[int64]
		dst  **int64
	}{
		{"service_id", b.ServiceID, &ch.ServiceID}, {"provider_id", b.ProviderID, &ch.ProviderID},
		{"client_id", b.ClientID, &ch.ClientID}, {"location_id", b.LocationID, &ch.LocationID},
		{"status_id", b.StatusID, &ch.StatusID},
	} {
		if !f.v.Set {
			continue
		}
		if f.v.Null {
			return ch, unprocessable(f.name, "cannot be null")
		}
		if err := positiveBookingRef(f.name, f.v.V); err != nil {
			return ch, err
		}
		*f.dst = f.v.Ptr()
	}
	for _, f := range []struct {
		name string
		v    Opt[string]
		dst  **time.Time
		wall *bool
	}{{"start_time", b.StartTime, &ch.Start, &ch.StartWall}, {"end_time", b.EndTime, &ch.End, &ch.EndWall}} {
		if !f.v.Set {
			continue
		}
		if f.v.Null {
			return ch, unprocessable(f.name, "cannot be null")
		}
		t, err := parseBookingTime(f.name, f.v.V)
		if err != nil {
			return ch, err
		}
		*f.dst, *f.wall = &t, wallClock(ctx, f.v.V)
	}
	if b.Price.Set {
		if b.Price.Null {
			return ch, unprocessable("price", "cannot be null")
		}
		cents, err := money.Parse(b.Price.V)
		if err != nil {
			return ch, unprocessable("price", err.Error())
		}
		c := int64(cents)
		ch.Price = &c
	}
	ch.Notes = booking.Optional[string]{Set: b.Notes.Set, Value: b.Notes.Ptr()}
	ch.TimeResourceID = booking.Optional[int64]{Set: b.TimeResourceID.Set, Value: b.TimeResourceID.Ptr()}
	return ch, nil
}

// cancelBooking answers 204 also for a booking that is already cancelled, so a retried cancel
// never fails.
func (a *API) cancelBooking(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "booking")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if err := readIgnoredBody(r); err != nil {
		a.writeError(w, r, err)
		return
	}
	sc, err := scope(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if _, err := booking.CancelOccurrences(r.Context(), a.db, a.now(), id, sc, booking.CancelOptions{Source: booking.SourceConnect}); err != nil {
		a.writeError(w, r, bookingError(err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (a *API) writeBooking(w http.ResponseWriter, r *http.Request, status int, v booking.View) {
	b, err := newBookingResource(v)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeRawJSON(w, status, append(b.AppendJSON(make([]byte, 0, 1024)), '\n'))
}

func newBookingResource(v booking.View) (resource.Booking, error) {
	if v.CompanyID == 0 {
		return resource.Booking{}, notFound("resource") // no business yet: what a missing company row always answered
	}
	zone, err := booking.LoadZone(v.LocationTimezone)
	if err != nil {
		return resource.Booking{}, err
	}
	return resource.NewBooking(v, v.CompanyID, zone), nil
}

// bookingCtx hands the booking package the catalog version authenticate read with the key, so
// its catalog cache needs no statement of its own (db.WithCatalogVersion).
func bookingCtx(r *http.Request) context.Context {
	if v, ok := catalogVersion(r.Context()); ok {
		return db.WithCatalogVersion(r.Context(), v)
	}
	return r.Context()
}

func (a *API) companyID(ctx context.Context) (int64, error) {
	p, err := a.db.R.SchedulePolicy(ctx)
	return p.ID, err
}

// readBookingBody reads and decodes a JSON object body.
func readBookingBody(r *http.Request, dst any) error {
	raw, err := readBody(r)
	if err != nil {
		return err
	}
	return decodeObject(raw, dst)
}

// parseBookingTime reads an ISO 8601 date-time that carries its offset ("Z" or ±hh:mm): a booking
// time without one would have to be guessed, and the guess is wrong twice a year.
func parseBookingTime(field, s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, unprocessable(field, "must be an ISO 8601 date-time with an offset, e.g. 2026-03-10T10:00:00-03:00")
	}
	return t, nil
}

func positiveBookingRef(field string, v int64) error {
	if v < 1 {
		return unprocessable(field, "must be a positive integer")
	}
	return nil
}

// bookingError is writeError's table but for a record the body refers to: one that does not
// exist is a validation failure of the body (422 "client_id: no such client"), not a missing
// resource at the URL, which only the booking and the waitlist entry are.
func bookingError(err error) error {
	if fail.CodeOf(err) != fail.CodeNotFound {
		return err
	}
	switch res := fail.ReasonOf(err); res {
	case "booking", "waitlist_entry":
		return err
	default:
		return unprocessable(res+"_id", "no such "+res)
	}
}
