package api

import (
	"net/http"

	"frontdesk/app/booking"
	"frontdesk/app/fail"
	"frontdesk/app/resource"
	"frontdesk/db"
)

// The waitlist for appointments (an addition; docs/visits.md, "Waitlist for appointments"):
// a client waits for a time to open for a service at a location, with a provider or anyone,
// on a range of days; a freed time sends the first few a claim link, and POST
// /v3/appointment_waitlist/claims books it for the first who claims.

type apptWaitBody struct {
	ClientID   Opt[int64]  `json:"client_id"`
	LocationID Opt[int64]  `json:"location_id"`
	ServiceID  Opt[int64]  `json:"service_id"`
	ProviderID Opt[int64]  `json:"provider_id"`
	FirstDate  Opt[string] `json:"first_date"`
	LastDate   Opt[string] `json:"last_date"`
}

// appointmentWait is a wait as /v3 shows it.
type appointmentWait struct {
	ID         int64  `json:"id"`
	ClientID   int64  `json:"client_id"`
	LocationID int64  `json:"location_id"`
	ServiceID  int64  `json:"service_id"`
	ProviderID *int64 `json:"provider_id"`
	FirstDate  string `json:"first_date"`
	LastDate   string `json:"last_date"`
	Status     string `json:"status"`
	BookingID  *int64 `json:"booking_id"`
	CreatedAt  string `json:"created_at"`
}

func newAppointmentWait(w db.AppointmentWait) appointmentWait {
	return appointmentWait{
		ID: w.ID, ClientID: w.ClientID, LocationID: w.LocationID, ServiceID: w.ServiceID,
		ProviderID: resource.NullInt(w.ProviderID), FirstDate: w.FirstDay, LastDate: w.LastDay, Status: w.Status,
		BookingID: resource.NullInt(w.BookingID), CreatedAt: resource.Timestamp(w.CreatedAt),
	}
}

func (b apptWaitBody) request() (booking.WaitRequest, error) {
	wr := booking.WaitRequest{Source: booking.SourceConnect}
	for _, f := range []struct {
		name string
		v    Opt[int64]
		dst  *int64
	}{{"client_id", b.ClientID, &wr.ClientID}, {"location_id", b.LocationID, &wr.LocationID}, {"service_id", b.ServiceID, &wr.ServiceID}} {
		if f.v.Ptr() == nil {
			return wr, unprocessable(f.name, "is required")
		}
		if err := positiveBookingRef(f.name, f.v.V); err != nil {
			return wr, err
		}
		*f.dst = f.v.V
	}
	if b.ProviderID.Ptr() != nil {
		if err := positiveBookingRef("provider_id", b.ProviderID.V); err != nil {
			return wr, err
		}
		wr.ProviderID = b.ProviderID.V
	}
	for _, f := range []struct {
		name string
		v    Opt[string]
		dst  *booking.Date
	}{{"first_date", b.FirstDate, &wr.First}, {"last_date", b.LastDate, &wr.Last}} {
		if f.v.Ptr() == nil {
			return wr, unprocessable(f.name, "is required")
		}
		d, err := booking.ParseDate(f.v.V)
		if err != nil {
			return wr, unprocessable(f.name, "want a date, YYYY-MM-DD")
		}
		*f.dst = d
	}
	return wr, nil
}

func (a *API) joinAppointmentWaitlist(w http.ResponseWriter, r *http.Request) {
	var body apptWaitBody
	if err := readBookingBody(r, &body); err != nil {
		a.writeError(w, r, err)
		return
	}
	wr, err := body.request()
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	wait, err := booking.JoinAppointmentWaitlist(bookingCtx(r), a.db, a.now(), wr)
	if err != nil {
		a.writeError(w, r, bookingError(err))
		return
	}
	writeJSON(w, http.StatusCreated, newAppointmentWait(wait))
}

func (a *API) getAppointmentWait(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "wait")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	wait, err := booking.GetAppointmentWait(r.Context(), a.db.R, id)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, newAppointmentWait(wait))
}

func (a *API) leaveAppointmentWaitlist(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "wait")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if err := readIgnoredBody(r); err != nil {
		a.writeError(w, r, err)
		return
	}
	wait, err := booking.LeaveAppointmentWaitlist(r.Context(), a.db, a.now(), id)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, newAppointmentWait(wait))
}

func (a *API) claimAppointmentOffer(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Token Opt[string] `json:"token"`
	}
	if err := readBookingBody(r, &body); err != nil {
		a.writeError(w, r, err)
		return
	}
	if body.Token.Ptr() == nil || body.Token.V == "" {
		a.writeError(w, r, unprocessable("token", "is required"))
		return
	}
	v, err := booking.ClaimOffer(bookingCtx(r), a.db, a.now(), body.Token.V, booking.SourceConnect)
	if gone, ok := err.(*booking.OfferGoneError); ok {
		a.writeOfferGone(w, r, gone)
		return
	}
	if fail.CodeOf(err) == fail.CodeNotFound && fail.ReasonOf(err) == "offer" {
		err = unprocessable("token", "no such offer")
	}
	if err != nil {
		a.writeError(w, r, bookingError(err))
		return
	}
	a.writeBooking(w, r, http.StatusCreated, v)
}

// writeOfferGone is 409 conflict/offer_gone with other free times for the same wait.
func (a *API) writeOfferGone(w http.ResponseWriter, r *http.Request, gone *booking.OfferGoneError) {
	type slot struct {
		ProviderID int64  `json:"provider_id"`
		Date       string `json:"date"`
		StartsAt   string `json:"starts_at"`
		EndsAt     string `json:"ends_at"`
	}
	out := make([]slot, len(gone.Alternatives))
	for i, s := range gone.Alternatives {
		out[i] = slot{ProviderID: s.ProviderID, Date: s.Date.String(),
			StartsAt: resource.LocalTime(db.Millis(s.Start), s.Start.Location()), EndsAt: resource.LocalTime(db.Millis(s.End), s.End.Location())}
	}
	detail := booking.ConflictOfferGone
	writeJSON(w, http.StatusConflict, struct {
		errorBody
		Alternatives []slot `json:"alternatives"`
	}{errorBody{Error: "conflict", Detail: &detail}, out})
}
