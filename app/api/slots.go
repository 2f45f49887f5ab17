package api

import (
	"context"
	"net/http"

	"frontdesk/app/booking"
	"frontdesk/app/fail"
	"frontdesk/app/resource"
)

// maxRangeDays is the longest range of local dates one available_slots query may cover
// (inclusive): every date is computed. A bookings list has no such limit; its page is bounded
// instead (per_page), and its count is read on an index.
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
	// service_ids (an addition): the starts of a visit of those services in order (visits.go).
	if services, err := queryIDs(r, "service_ids"); err != nil {
		a.writeError(w, r, err)
		return
	} else if len(services) > 0 {
		a.listVisitSlots(w, r, sq, services)
		return
	}
	// The version read is a few index probes: with the request's cancellable context
	// database/sql and the driver would each start a goroutine to watch it (as in keyauth).
	ctx := context.WithoutCancel(bookingCtx(r))
	v, err := booking.CurrentSchedule(ctx, a.db, booking.ScheduleQuery{
		LocationID: sq.locationID, ServiceID: sq.serviceID, ProviderID: sq.providerID,
		First: sq.first, Last: sq.last, OnlineOnly: true,
	})
	if err != nil {
		a.writeError(w, r, slotsError(err))
		return
	}
	if v.Class() {
		l, err := v.Load(r.Context(), a.db)
		if err != nil {
			a.writeError(w, r, slotsError(err))
			return
		}
		a.writeSessionSlots(w, sq, l)
		return
	}
	// The slots are kept by schedule version and cut for the clock (slotcache.go).
	ans, ok := a.slots.get(v)
	if !ok {
		l, err := v.Load(r.Context(), a.db)
		if err != nil {
			a.writeError(w, r, slotsError(err))
			return
		}
		ans = newSlotAnswer(sq, l)
		a.slots.put(v, ans)
	}
	writeRawJSON(w, http.StatusOK, ans.body(a.now()))
}

// slotsError turns the schedule's not-found errors into the answers of available_slots.
// A missing location is the reference's location_not_found; the rest is writeError's table.
func slotsError(err error) error {
	if fail.Is(err, fail.CodeNotFound, "location") {
		return newError(http.StatusNotFound, "location_not_found", "")
	}
	return err
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
