package api

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/fail"
	"frontdesk/app/payments"
	"frontdesk/app/resource"
)

// Visits (docs/visits.md; docs/api.md, "Visits"): several services booked as one, an addition
// to Connect v3. The reference books one service per booking; a visit is that many ordinary
// bookings written together, so every booking endpoint and webhook sees them as usual.

// maxVisitServices bounds service_ids and services (booking.BookVisit checks its own bound).
const maxVisitServices = 8

// listVisitSlots answers available_slots with service_ids: the starts of the visit of those
// services in order, each segment's provider the one named by provider_ids at the same place
// (0 or absent: anyone), add-ons none (POST /v3/visits books them).
func (a *API) listVisitSlots(w http.ResponseWriter, r *http.Request, sq slotsQuery, services []int64) {
	providers, err := queryIDList(r, "provider_ids")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if len(services) > maxVisitServices || len(providers) > len(services) {
		a.writeError(w, r, badRequest("too_many_service_ids"))
		return
	}
	segs := make([]booking.VisitSegment, len(services))
	for i, id := range services {
		segs[i].ServiceID = id
		if i < len(providers) {
			segs[i].ProviderID = providers[i]
		}
	}
	slots, err := booking.VisitSlots(bookingCtx(r), a.db, a.now(), sq.locationID, segs, sq.first, sq.last, booking.SourceConnect)
	if err != nil {
		a.writeError(w, r, slotsError(err))
		return
	}
	zone, err := a.locationZone(r, sq.locationID)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	out := resource.VisitSlots{Data: resource.VisitSlotsData{
		Slots:    make([]resource.VisitSlot, 0, len(slots)),
		Metadata: resource.VisitSlotsMetadata{LocationID: sq.locationID, Date: sq.first.String(), EndDate: sq.last.String(), ServiceIDs: services, SlotsCount: len(slots)},
	}}
	if len(slots) > 0 {
		out.Data.Metadata.Duration = int64(slots[0].End.Sub(slots[0].Start).Minutes())
	}
	for _, s := range slots {
		first := s.Parts[0]
		start, end := s.Start.In(zone), s.End.In(zone)
		v := resource.VisitSlot{
			Slot:  resource.NewSlot(first.ProviderID, first.ProviderName, booking.DateOf(start).String(), start, end),
			Price: resource.Money(s.PriceCents),
		}
		for _, p := range s.Parts {
			v.Segments = append(v.Segments, resource.NewVisitSegment(p.ServiceID, p.ProviderID, p.ProviderName, p.AddOn, p.Part > 0, p.Start, p.End, zone))
		}
		out.Data.Slots = append(out.Data.Slots, v)
	}
	writeJSON(w, http.StatusOK, out)
}

// queryIDList reads a comma-separated list of ids where 0 is allowed (anyone).
func queryIDList(r *http.Request, name string) ([]int64, error) {
	s, err := queryValue(r, name)
	if err != nil || s == "" {
		return nil, err
	}
	var out []int64
	for _, x := range strings.Split(s, ",") {
		v, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		if err != nil || v < 0 || len(out) >= maxVisitServices {
			return nil, badRequest("invalid_" + name)
		}
		out = append(out, v)
	}
	return out, nil
}

func (a *API) locationZone(r *http.Request, id int64) (*time.Location, error) {
	loc, err := a.db.R.ScheduleLocation(r.Context(), id)
	if err != nil {
		return nil, slotsError(fail.NotFound("location"))
	}
	return booking.LoadZone(loc.Timezone)
}

// visitBody is the body of POST /v3/visits.
type visitBody struct {
	LocationID Opt[int64]  `json:"location_id"`
	ClientID   Opt[int64]  `json:"client_id"`
	StatusID   Opt[int64]  `json:"status_id"`
	StartTime  Opt[string] `json:"start_time"`
	Notes      Opt[string] `json:"notes"`
	PayOnline  Opt[bool]   `json:"pay_online"`
	Services   []struct {
		ServiceID  int64   `json:"service_id"`
		ProviderID int64   `json:"provider_id"`
		AddOnIDs   []int64 `json:"add_on_ids"`
	} `json:"services"`
}

func (a *API) createVisit(w http.ResponseWriter, r *http.Request) {
	var body visitBody
	if err := readBookingBody(r, &body); err != nil {
		a.writeError(w, r, err)
		return
	}
	nv := booking.NewVisit{Source: booking.SourceConnect, StatusID: booking.StatusConfirmed, Notes: body.Notes.Ptr()}
	for _, f := range []struct {
		name string
		v    Opt[int64]
		dst  *int64
	}{{"location_id", body.LocationID, &nv.LocationID}, {"client_id", body.ClientID, &nv.ClientID}} {
		if f.v.Ptr() == nil {
			a.writeError(w, r, unprocessable(f.name, "is required"))
			return
		}
		if err := positiveBookingRef(f.name, f.v.V); err != nil {
			a.writeError(w, r, err)
			return
		}
		*f.dst = f.v.V
	}
	if body.StatusID.Ptr() != nil {
		nv.StatusID = body.StatusID.V
	}
	if body.StartTime.Ptr() == nil {
		a.writeError(w, r, unprocessable("start_time", "is required"))
		return
	}
	var err error
	if nv.Start, err = parseBookingTime("start_time", body.StartTime.V); err != nil {
		a.writeError(w, r, err)
		return
	}
	if len(body.Services) == 0 || len(body.Services) > maxVisitServices {
		a.writeError(w, r, unprocessable("services", "give 1 to 8 services"))
		return
	}
	for _, s := range body.Services {
		if s.ServiceID < 1 || s.ProviderID < 0 {
			a.writeError(w, r, unprocessable("services", "each needs a service_id, and a provider_id or 0 for anyone"))
			return
		}
		nv.Segments = append(nv.Segments, booking.VisitSegment{ServiceID: s.ServiceID, ProviderID: s.ProviderID, AddOns: s.AddOnIDs})
	}
	if body.PayOnline.Ptr() != nil && body.PayOnline.V {
		// Every booking reserved for one payment request covering the visit's total.
		if body.StatusID.Ptr() != nil {
			a.writeError(w, r, unprocessable("status_id", "is reserved (2) for a visit paid online: leave it out"))
			return
		}
		pr, v, err := payments.ReserveVisit(bookingCtx(r), a.db, a.now(), nv, a.links.String(), 0)
		if err != nil {
			a.writeError(w, r, visitError(err))
			return
		}
		a.writeVisitWith(w, r, http.StatusCreated, v, &resource.VisitPayment{ID: pr.ID, Amount: resource.Money(pr.AmountCents), CheckoutURL: pr.CheckoutURL})
		return
	}
	v, err := booking.BookVisit(bookingCtx(r), a.db, a.now(), nv)
	if err != nil {
		a.writeError(w, r, visitError(err))
		return
	}
	a.writeVisit(w, r, http.StatusCreated, v)
}

func (a *API) getVisit(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "visit")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	v, err := booking.GetVisit(r.Context(), a.db.R, id)
	if err != nil {
		a.writeError(w, r, visitError(err))
		return
	}
	a.writeVisit(w, r, http.StatusOK, v)
}

// moveVisit is PATCH /v3/visits/{id} with a new start_time: every booking moves with it.
func (a *API) moveVisit(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "visit")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	var body struct {
		StartTime Opt[string] `json:"start_time"`
	}
	if err := readBookingBody(r, &body); err != nil {
		a.writeError(w, r, err)
		return
	}
	if body.StartTime.Ptr() == nil {
		a.writeError(w, r, unprocessable("start_time", "is required"))
		return
	}
	start, err := parseBookingTime("start_time", body.StartTime.V)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	v, err := booking.MoveVisit(bookingCtx(r), a.db, a.now(), id, start, booking.SourceConnect)
	if err != nil {
		a.writeError(w, r, visitError(err))
		return
	}
	a.writeVisit(w, r, http.StatusOK, v)
}

// cancelVisit answers 204, also for a visit already cancelled.
func (a *API) cancelVisit(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "visit")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if err := readIgnoredBody(r); err != nil {
		a.writeError(w, r, err)
		return
	}
	if err := booking.CancelVisit(r.Context(), a.db, a.now(), id, booking.SourceConnect); err != nil {
		a.writeError(w, r, visitError(err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// visitError is bookingError, with the visit at the URL a missing resource.
func visitError(err error) error {
	if fail.Is(err, fail.CodeNotFound, "visit") {
		return err
	}
	return bookingError(err)
}

func (a *API) writeVisit(w http.ResponseWriter, r *http.Request, status int, v booking.Visit) {
	a.writeVisitWith(w, r, status, v, nil)
}

// writeVisitWith writes visit v with its payment request, when it has one.
func (a *API) writeVisitWith(w http.ResponseWriter, r *http.Request, status int, v booking.Visit, pay *resource.VisitPayment) {
	out := resource.Visit{ID: v.ID, LocationID: v.LocationID, ClientID: v.ClientID, Price: resource.Money(v.PriceCents),
		Bookings: make([]resource.Booking, 0, len(v.Bookings)), PaymentRequest: pay}
	for _, b := range v.Bookings {
		res, err := newBookingResource(b)
		if err != nil {
			a.writeError(w, r, err)
			return
		}
		out.Bookings = append(out.Bookings, res)
	}
	if len(v.Bookings) > 0 {
		zone, err := booking.LoadZone(v.Bookings[0].LocationTimezone)
		if err != nil {
			a.writeError(w, r, err)
			return
		}
		if !v.Start.IsZero() {
			out.StartTime, out.EndTime = v.Start.In(zone).Format(time.RFC3339), v.End.In(zone).Format(time.RFC3339)
		}
	}
	writeJSON(w, status, out)
}
