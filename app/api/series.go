package api

import (
	"net/http"

	"frontdesk/app/booking"
	"frontdesk/app/resource"
	"frontdesk/db"
)

// Series of bookings (an addition; docs/visits.md, "Series"): POST /v3/booking_series/check
// says which occurrences are free, POST /v3/booking_series books them. Changes and cancels of
// several occurrences are the booking operations with ?scope=following or ?scope=all.

// seriesBody is a booking's body plus how it repeats and what to do with occurrences not free.
type seriesBody struct {
	bookingBody
	Repeat *repeatBody `json:"repeat"`
	Mode   *string     `json:"mode"`
}

type repeatBody struct {
	Frequency   string `json:"frequency"`
	Interval    int    `json:"interval"`
	WeekOfMonth int    `json:"week_of_month"`
	Count       int    `json:"count"`
}

func (b seriesBody) request(r *http.Request, needMode bool) (booking.SeriesRequest, error) {
	nb, err := b.newBooking(r.Context())
	if err != nil {
		return booking.SeriesRequest{}, err
	}
	if b.Repeat == nil {
		return booking.SeriesRequest{}, unprocessable("repeat", "is required")
	}
	req := booking.SeriesRequest{NewBooking: nb, Repeat: booking.Repeat{
		Freq: b.Repeat.Frequency, IntervalWeeks: b.Repeat.Interval, WeekOfMonth: b.Repeat.WeekOfMonth, Count: b.Repeat.Count,
	}}
	if needMode {
		if b.Mode == nil {
			return req, unprocessable("mode", "is required")
		}
		req.Mode = *b.Mode
	}
	return req, nil
}

// seriesResponse is a series checked (no id, no bookings) or booked.
type seriesResponse struct {
	SeriesID    *int64               `json:"series_id"`
	Occurrences []occurrenceResponse `json:"occurrences"`
}

type occurrenceResponse struct {
	Date      string            `json:"date"`
	StartTime *string           `json:"start_time"`
	Status    string            `json:"status"` // free, booked, taken or unavailable
	Reason    *string           `json:"reason"`
	Booking   *resource.Booking `json:"booking"`
}

func (a *API) checkSeries(w http.ResponseWriter, r *http.Request) {
	var body seriesBody
	if err := readBookingBody(r, &body); err != nil {
		a.writeError(w, r, err)
		return
	}
	req, err := body.request(r, false)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	occ, err := booking.CheckSeries(bookingCtx(r), a.db, a.now(), req)
	if err != nil {
		a.writeError(w, r, bookingError(err))
		return
	}
	out, err := a.seriesResponse(r, 0, req.LocationID, occ)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (a *API) createSeries(w http.ResponseWriter, r *http.Request) {
	var body seriesBody
	if err := readBookingBody(r, &body); err != nil {
		a.writeError(w, r, err)
		return
	}
	req, err := body.request(r, true)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	res, err := booking.BookSeries(bookingCtx(r), a.db, a.now(), req)
	if se, ok := err.(*booking.SeriesUnavailableError); ok {
		writeSeriesConflict(w, se)
		return
	}
	if err != nil {
		a.writeError(w, r, bookingError(err))
		return
	}
	out, err := a.seriesResponse(r, res.SeriesID, req.LocationID, res.Occurrences)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, out)
}

// writeSeriesConflict is 409 conflict/series_unavailable with the dates not free.
func writeSeriesConflict(w http.ResponseWriter, se *booking.SeriesUnavailableError) {
	dates := make([]string, len(se.Dates))
	for i, d := range se.Dates {
		dates[i] = d.String()
	}
	detail := booking.ConflictSeriesUnavailable
	writeJSON(w, http.StatusConflict, struct {
		errorBody
		Dates []string `json:"unavailable_dates"`
	}{errorBody{Error: "conflict", Detail: &detail}, dates})
}

func (a *API) seriesResponse(r *http.Request, seriesID, locationID int64, occ []booking.Occurrence) (seriesResponse, error) {
	out := seriesResponse{Occurrences: make([]occurrenceResponse, len(occ))}
	if seriesID != 0 {
		out.SeriesID = &seriesID
	}
	loc, err := a.db.R.ScheduleLocation(r.Context(), locationID)
	if err != nil {
		return out, err
	}
	zone, err := booking.LoadZone(loc.Timezone)
	if err != nil {
		return out, err
	}
	for i, o := range occ {
		or := occurrenceResponse{Date: o.Date.String(), Status: "free"}
		if !o.Start.IsZero() {
			s := resource.LocalTime(db.Millis(o.Start), zone)
			or.StartTime = &s
		}
		switch {
		case o.Booking != nil:
			b, err := newBookingResource(*o.Booking)
			if err != nil {
				return out, err
			}
			or.Status, or.Booking = "booked", &b
		case o.Reason == booking.ReasonTaken:
			or.Status = "taken"
		case !o.Free:
			or.Status = "unavailable"
		}
		if o.Reason != "" && o.Booking == nil {
			reason := o.Reason
			or.Reason = &reason
		}
		out.Occurrences[i] = or
	}
	return out, nil
}

// scope reads ?scope= of a change or cancel: one (the default), following or all.
func scope(r *http.Request) (string, error) {
	s, err := queryValue(r, "scope")
	if err != nil {
		return "", err
	}
	switch s {
	case "", booking.ScopeOne, booking.ScopeFollowing, booking.ScopeAll:
		return s, nil
	}
	return "", unprocessable("scope", "want one, following or all")
}
