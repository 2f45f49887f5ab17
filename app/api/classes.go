package api

import (
	"net/http"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/resource"
	"frontdesk/db"
)

// Classes and session packs (docs/classes.md), additions to Connect v3: a client's packs, and
// the waitlists of full class sessions. Seats and packs themselves ride on the booking
// operations (bookings.go) and the slots (slots.go).

// listClientPacks answers GET /v3/clients/{id}/packs: the client's packs, newest first.
func (a *API) listClientPacks(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "client")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	p, err := queryPaging(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	ctx := r.Context()
	if _, err := a.db.R.BookingClient(ctx, id); err != nil {
		if db.IsNotFound(err) {
			err = notFound("client")
		}
		a.writeError(w, r, err)
		return
	}
	total, err := a.db.R.CountClientPacks(ctx, id)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	rows, err := a.db.R.ClientPacks(ctx, db.ClientPacksParams{ClientID: id, Limit: p.Limit(), Offset: p.Offset()})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	now := a.now()
	out := resource.List[resource.Pack]{Data: make([]resource.Pack, 0, len(rows)), Pagination: p.Pagination(total)}
	for _, row := range rows {
		out.Data = append(out.Data, resource.NewPack(row.ClientPack, row.ServiceName, row.Used, now))
	}
	writeJSON(w, http.StatusOK, out)
}

// waitlistBody is the body of POST /v3/waitlist: the client, and the session by id or as a
// booking names it.
type waitlistBody struct {
	ClientID   Opt[int64]  `json:"client_id"`
	SessionID  Opt[int64]  `json:"session_id"`
	ServiceID  Opt[int64]  `json:"service_id"`
	ProviderID Opt[int64]  `json:"provider_id"`
	LocationID Opt[int64]  `json:"location_id"`
	StartTime  Opt[string] `json:"start_time"`
}

func (a *API) joinWaitlist(w http.ResponseWriter, r *http.Request) {
	var body waitlistBody
	if err := readBookingBody(r, &body); err != nil {
		a.writeError(w, r, err)
		return
	}
	jr, err := body.joinRequest()
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	v, err := booking.JoinWaitlist(bookingCtx(r), a.db, a.now(), jr)
	if err != nil {
		a.writeError(w, r, bookingError(err))
		return
	}
	a.writeWaitlistEntry(w, r, http.StatusCreated, v)
}

func (b waitlistBody) joinRequest() (booking.JoinRequest, error) {
	jr := booking.JoinRequest{Source: booking.SourceConnect}
	if b.ClientID.Ptr() == nil {
		return jr, unprocessable("client_id", "is required")
	}
	if err := positiveBookingRef("client_id", b.ClientID.V); err != nil {
		return jr, err
	}
	jr.ClientID = b.ClientID.V
	if b.SessionID.Ptr() != nil {
		if err := positiveBookingRef("session_id", b.SessionID.V); err != nil {
			return jr, err
		}
		jr.SessionID = b.SessionID.V
		return jr, nil
	}
	for _, f := range []struct {
		name string
		v    Opt[int64]
		dst  *int64
	}{{"service_id", b.ServiceID, &jr.ServiceID}, {"provider_id", b.ProviderID, &jr.ProviderID}, {"location_id", b.LocationID, &jr.LocationID}} {
		if f.v.Ptr() == nil {
			return jr, unprocessable(f.name, "is required without session_id")
		}
		if err := positiveBookingRef(f.name, f.v.V); err != nil {
			return jr, err
		}
		*f.dst = f.v.V
	}
	if b.StartTime.Ptr() == nil {
		return jr, unprocessable("start_time", "is required without session_id")
	}
	var err error
	jr.Start, err = parseBookingTime("start_time", b.StartTime.V)
	return jr, err
}

func (a *API) getWaitlistEntry(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "waitlist_entry")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	v, err := booking.GetWaitlistEntry(r.Context(), a.db.R, id)
	if err != nil {
		a.writeError(w, r, bookingError(err))
		return
	}
	a.writeWaitlistEntry(w, r, http.StatusOK, v)
}

// leaveWaitlist answers 204 also for an entry that no longer waits, so a retry never fails.
func (a *API) leaveWaitlist(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "waitlist_entry")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if err := booking.LeaveWaitlist(r.Context(), a.db, a.now(), id); err != nil {
		a.writeError(w, r, bookingError(err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (a *API) writeWaitlistEntry(w http.ResponseWriter, r *http.Request, status int, v booking.WaitlistView) {
	zone, err := a.sessionZone(r, v.Session.LocationID)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, status, resource.NewWaitlistEntry(v.Entry, v.Session, v.Position, zone))
}

func (a *API) sessionZone(r *http.Request, locationID int64) (*time.Location, error) {
	loc, err := a.db.R.ScheduleLocation(r.Context(), locationID)
	if err != nil {
		return nil, err
	}
	return booking.LoadZone(loc.Timezone)
}
