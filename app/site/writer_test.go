package site_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"frontdesk/app/booking"
)

// TestBookingRunsNoEngineInTheWriter: a booking form's POST — a chosen provider, anyone
// available, a service paid online — applies the slot rules on the read pool only. Every
// schedule it loads is loaded there, none inside the write transaction, where the slot engine
// would hold the single writer while it runs; the transaction only checks overlap. The booking
// is made all the same.
func TestBookingRunsNoEngineInTheWriter(t *testing.T) {
	f := newFixture(t)
	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	for i, c := range []struct {
		name              string
		service, provider int64
	}{
		{"a chosen provider", haircut, f.ana},
		{"anyone available", haircut, 0},
		{"paid online, anyone available", colour, 0},
	} {
		start := at.Add(time.Duration(i) * 2 * time.Hour)
		form := f.details(c.service, c.provider, start)
		all, inWriter := booking.ScheduleLoads()
		res := f.post("/book/1/"+strconv.FormatInt(c.service, 10)+"/details", form)
		wantStatus(t, res, http.StatusSeeOther)
		allAfter, inWriterAfter := booking.ScheduleLoads()
		if n := inWriterAfter - inWriter; n != 0 {
			t.Errorf("%s: %d schedules loaded inside the write transaction, want none", c.name, n)
		}
		if allAfter == all {
			t.Errorf("%s: no schedule loaded at all: the slot rules were not applied", c.name)
		}
		if n := f.count(`SELECT count(*) FROM bookings WHERE start_at = ?`, start.UnixMilli()); n != 1 {
			t.Errorf("%s: %d bookings at %s, want 1", c.name, n, start)
		}
	}
}
