package importer

import (
	"database/sql"
	"time"

	"frontdesk/app/booking"
	"frontdesk/db"
)

// seriesRule checks series i: the rule as app/booking/series.go stores it.
func (v *validator) seriesRule(i int) {
	s := v.f.Series[i]
	path := at("series", i)
	row := db.InsertBookingSeriesParams{Freq: s.Frequency, IntervalWeeks: s.Interval, Count: s.Count, FirstLocal: s.First,
		CreatedAt: v.created(at(path, "created"), s.Created)}
	if row.IntervalWeeks == 0 {
		row.IntervalWeeks = 1
	}
	switch s.Frequency {
	case "weekly":
		if s.WeekOfMonth != nil {
			v.ps.add(at(path, "week_of_month"), "is only for a monthly series")
		}
	case "monthly":
		switch {
		case s.WeekOfMonth == nil:
			v.ps.add(at(path, "week_of_month"), "is required for a monthly series (1–4, or -1 for the last)")
		case *s.WeekOfMonth == -1 || *s.WeekOfMonth >= 1 && *s.WeekOfMonth <= 4:
			row.WeekOfMonth = sql.NullInt64{Int64: *s.WeekOfMonth, Valid: true}
		default:
			v.ps.add(at(path, "week_of_month"), "%d: want 1–4, or -1 for the last", *s.WeekOfMonth)
		}
	default:
		v.ps.add(at(path, "frequency"), "%q: want weekly or monthly", s.Frequency)
	}
	if row.IntervalWeeks < 1 || row.IntervalWeeks > booking.MaxOccurrences {
		v.ps.add(at(path, "interval"), "%d: want 1–%d", s.Interval, booking.MaxOccurrences)
	}
	if s.Count < 1 || s.Count > booking.MaxOccurrences {
		v.ps.add(at(path, "count"), "%d: want 1–%d", s.Count, booking.MaxOccurrences)
	}
	if _, err := time.Parse("2006-01-02T15:04", s.First); err != nil {
		v.ps.add(at(path, "first"), "%q: want the first date's local date and time, as 2026-11-24T10:00", s.First)
	}
	v.p.series = append(v.p.series, seriesPlan{row: row})
}

// appointmentWait checks wait i of the waitlist for appointments.
func (v *validator) appointmentWait(i int) {
	w := v.f.AppointmentWaitlist[i]
	path := at("appointment_waitlist", i)
	wp := waitPlan{index: i, provider: -1, booking: -1}
	var ok [3]bool
	wp.client, ok[0] = v.ref(at(path, "client"), w.Client, v.clients, "clients")
	wp.location, ok[1] = v.ref(at(path, "location"), w.Location, v.locations, "locations")
	wp.service, ok[2] = v.ref(at(path, "service"), w.Service, v.services, "services")
	if w.Provider != "" {
		wp.provider, _ = v.ref(at(path, "provider"), w.Provider, v.providers, "providers")
	}
	first, err1 := booking.ParseDate(w.First)
	if err1 != nil {
		v.ps.add(at(path, "first_day"), "%q: want a date as 2026-11-24", w.First)
	}
	last, err2 := booking.ParseDate(w.Last)
	if err2 != nil {
		v.ps.add(at(path, "last_day"), "%q: want a date as 2026-11-24", w.Last)
	}
	if err1 == nil && err2 == nil && last.Before(first) {
		v.ps.add(at(path, "last_day"), "%s is before first_day %s", w.Last, w.First)
	}
	status := w.Status
	switch status {
	case "":
		status = booking.WaitWaiting
	case booking.WaitWaiting, booking.WaitBooked, booking.WaitLeft:
	default:
		v.ps.add(at(path, "status"), "%q: want waiting, booked or left", w.Status)
	}
	switch {
	case status == booking.WaitBooked && w.Booking == "":
		v.ps.add(at(path, "booking"), "is required for a booked wait")
	case status != booking.WaitBooked && w.Booking != "":
		v.ps.add(at(path, "booking"), "is only for a booked wait")
	case w.Booking != "":
		wp.booking, _ = v.ref(at(path, "booking"), w.Booking, v.bookings, "bookings")
	}
	source := w.Source
	switch source {
	case "":
		source = booking.SourceAdmin
	case booking.SourceConnect, booking.SourceAdmin, booking.SourceOnline, booking.SourceMCP:
	default:
		v.ps.add(at(path, "source"), "%q: want connect, admin, online or mcp", w.Source)
	}
	if !ok[0] || !ok[1] || !ok[2] {
		return
	}
	wp.row = db.ImportAppointmentWaitParams{FirstDay: w.First, LastDay: w.Last, Status: status, Source: source,
		CreatedAt: v.created(at(path, "created"), w.Created)}
	v.p.waits = append(v.p.waits, wp)
}

// visit checks visit i: its location, client and source.
func (v *validator) visit(i int) {
	x := v.f.Visits[i]
	path := at("visits", i)
	vp := visitPlan{}
	var okLoc, okClient bool
	vp.location, okLoc = v.ref(at(path, "location"), x.Location, v.locations, "locations")
	vp.client, okClient = v.ref(at(path, "client"), x.Client, v.clients, "clients")
	source := x.Source
	switch source {
	case "":
		source = booking.SourceAdmin
	case booking.SourceConnect, booking.SourceAdmin, booking.SourceOnline, booking.SourceMCP:
	default:
		v.ps.add(at(path, "source"), "%q: want connect, admin, online or mcp", x.Source)
	}
	if !okLoc || !okClient {
		return
	}
	vp.row = db.InsertVisitParams{Source: source, CreatedAt: v.created(at(path, "created"), x.Created)}
	v.p.visits = append(v.p.visits, vp)
}

// bookingVisit checks a booking's place in its visit; nil when it is wrong (reported).
func (v *validator) bookingVisit(path string, bv BookingVisit) *visitPart {
	idx, ok := v.ref(at(path, "visit"), bv.Visit, v.visits, "visits")
	bad := !ok
	if bv.Position < 0 || bv.Position >= 64 {
		v.ps.add(at(path, "position"), "%d: want 0–63", bv.Position)
		bad = true
	}
	if bv.Part != 0 && bv.Part != 1 {
		v.ps.add(at(path, "part"), "%d: want 0, or 1 for the part after a processing time", bv.Part)
		bad = true
	}
	if bv.AddOnOf != nil && (*bv.AddOnOf < 0 || *bv.AddOnOf >= 64) {
		v.ps.add(at(path, "add_on_of"), "%d: want a position, 0–63", *bv.AddOnOf)
		bad = true
	}
	if bv.HeldBefore < 0 || bv.HeldBefore > 240 || bv.HeldAfter < 0 || bv.HeldAfter > 240 {
		v.ps.add(path, "held_before and held_after are minutes, 0–240")
		bad = true
	}
	if bv.HoldBefore < 0 || bv.HoldBefore > 24*60 {
		v.ps.add(at(path, "resources_held_before"), "%d: want minutes, 0–1440", bv.HoldBefore)
		bad = true
	}
	if bad {
		return nil
	}
	place := [3]int64{int64(idx), bv.Position, bv.Part}
	if other, taken := v.visitParts[place]; taken {
		v.ps.add(path, "position %d, part %d of visit %q is already %s's", bv.Position, bv.Part, bv.Visit, other)
		return nil
	}
	if v.visitParts == nil {
		v.visitParts = map[[3]int64]string{}
	}
	v.visitParts[place] = path
	addOn := sql.NullInt64{}
	if bv.AddOnOf != nil {
		addOn = sql.NullInt64{Int64: *bv.AddOnOf, Valid: true}
	}
	return &visitPart{visit: idx, row: db.InsertVisitBookingParams{Position: bv.Position, Part: bv.Part, AddonOf: addOn,
		HoldBeforeMs: bv.HoldBefore * 60000}}
}
