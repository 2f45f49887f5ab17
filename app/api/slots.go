package api

import (
	"errors"
	"net/http"
	"sync"

	"frontdesk/app/booking"
	"frontdesk/app/resource"
)

// maxRangeDays is the longest range of local dates one available_slots or bookings query may
// cover (inclusive).
const maxRangeDays = 31

// slotsQuery is a validated GET /v3/available_slots request.
type slotsQuery struct {
	locationID, serviceID, providerID int64
	first, last                       booking.Date
	includeFull                       bool // classes: list full sessions too (an addition)
}

// listAvailableSlots answers with the slots the engine offers for the customer flow: services
// and providers with online booking switched off, inactive ones and inactive locations offer
// nothing. Without service_id the slots are generic free time one slot step long (no buffers)
// for every provider of the location.
func (a *API) listAvailableSlots(w http.ResponseWriter, r *http.Request) {
	sq, err := parseSlotsQuery(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	l, err := booking.LoadScheduleCached(bookingCtx(r), a.db, booking.ScheduleQuery{
		LocationID: sq.locationID, ServiceID: sq.serviceID, ProviderID: sq.providerID,
		First: sq.first, Last: sq.last, OnlineOnly: true,
	})
	if err != nil {
		var nf *booking.NotFoundError
		switch {
		case errors.As(err, &nf) && nf.Resource == "location":
			err = newError(http.StatusNotFound, "location_not_found", "")
		case errors.As(err, &nf):
			err = notFound(nf.Resource)
		}
		a.writeError(w, r, err)
		return
	}
	if l.Schedule.Service.IsClass() {
		a.writeSessionSlots(w, sq, l)
		return
	}
	slots := booking.Slots(l.Schedule, sq.first, sq.last, a.now())
	meta := resource.SlotsMetadata{
		LocationID: sq.locationID, Date: sq.first.String(), EndDate: sq.last.String(),
		Duration: int64(l.Schedule.Service.Duration.Minutes()), SlotsCount: len(slots),
	}
	if sq.serviceID != 0 {
		meta.ServiceID = &sq.serviceID
	}
	// The body is written without reflection (see resource.SlotsJSON), into a recycled buffer:
	// a day of ten providers is some 47 KB.
	buf := slotBodies.Get().(*[]byte)
	defer slotBodies.Put(buf)
	body := resource.NewSlotsJSON(*buf, len(slots))
	var date booking.Date
	var dateText string
	for _, s := range slots {
		if s.Date != date || dateText == "" {
			date, dateText = s.Date, s.Date.String()
		}
		body.Add(s.ProviderID, s.ProviderName, dateText, s.Start, s.End)
	}
	out := append(body.Finish(meta), '\n') // ending as writeJSON's answers do
	writeRawJSON(w, http.StatusOK, out)
	if cap(out) <= maxSlotBody {
		*buf = out[:0]
	}
}

// writeSessionSlots answers for a class: its sessions with seats left (docs/classes.md), each a
// slot with session_id, capacity and seats_left; full sessions only with include_full=true.
func (a *API) writeSessionSlots(w http.ResponseWriter, sq slotsQuery, l booking.Loaded) {
	slots := booking.SessionSlots(l.Schedule, sq.first, sq.last, a.now(), sq.includeFull)
	meta := resource.SlotsMetadata{
		LocationID: sq.locationID, Date: sq.first.String(), EndDate: sq.last.String(), ServiceID: &sq.serviceID,
		Duration: int64(l.Schedule.Service.Duration.Minutes()), SlotsCount: len(slots),
	}
	body := resource.NewSlotsJSON(nil, len(slots))
	for _, s := range slots {
		body.AddSession(s.ProviderID, s.ProviderName, s.Date.String(), s.Start, s.End, s.SessionID, s.Capacity, s.SeatsLeft)
	}
	writeRawJSON(w, http.StatusOK, append(body.Finish(meta), '\n'))
}

// slotBodies recycles the buffers of available_slots answers up to maxSlotBody; a month of a
// large location is bigger and left to the garbage collector.
var slotBodies = sync.Pool{New: func() any { return new([]byte) }}

const maxSlotBody = 256 << 10

func parseSlotsQuery(r *http.Request) (slotsQuery, error) {
	var sq slotsQuery
	var ok bool
	var err error
	if sq.locationID, ok, err = queryID(r, "location_id"); err != nil {
		return sq, err
	} else if !ok {
		return sq, badRequest("missing_location_id")
	}
	if sq.serviceID, _, err = queryID(r, "service_id"); err != nil {
		return sq, err
	}
	if sq.providerID, _, err = queryID(r, "provider_id"); err != nil {
		return sq, err
	}
	first, ok, err := queryBookingDate(r, "start_date")
	if err != nil {
		return sq, err
	} else if !ok {
		return sq, badRequest("missing_start_date")
	}
	last, ok, err := queryBookingDate(r, "end_date")
	if err != nil {
		return sq, err
	} else if !ok {
		last = first
	}
	switch {
	case last.Before(first):
		return sq, badRequest("end_date_before_start_date")
	case first.AddDays(maxRangeDays - 1).Before(last):
		return sq, badRequest("date_range_exceeds_31_days")
	}
	sq.first, sq.last = first, last
	if sq.includeFull, _, err = queryBool(r, "include_full"); err != nil {
		return sq, err
	}
	return sq, nil
}

// queryBookingDate reads an optional YYYY-MM-DD query parameter; present but invalid → 400
// "invalid_<name>".
func queryBookingDate(r *http.Request, name string) (booking.Date, bool, error) {
	s, err := queryValue(r, name)
	if err != nil || s == "" {
		return booking.Date{}, false, err
	}
	d, err := booking.ParseDate(s)
	if err != nil {
		return booking.Date{}, false, badRequest("invalid_" + name)
	}
	return d, true, nil
}
