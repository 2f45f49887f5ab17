package site_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"frontdesk/app/booking"
)

// The date picker keeps a fortnight's slots until the schedule changes: showing the same
// fortnight again runs no schedule load, a booking made meanwhile takes its time off the page at
// once (written by another process), and the clock moving on cuts the passed times without a load.
func TestTimesPageKeepsSlotsUntilTheScheduleChanges(t *testing.T) {
	f := newFixture(t)
	times := "/book/1/1/times?provider=" + strconv.FormatInt(f.ana, 10) + "&date=2026-03-31"
	startAttr := func(at time.Time) string { return `data-start="` + at.Format(time.RFC3339) + `"` }
	ten, eleven := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago), time.Date(2026, 3, 31, 11, 0, 0, 0, santiago)

	res := f.get(times)
	wantStatus(t, res, http.StatusOK)
	wantBody(t, res, startAttr(ten), startAttr(eleven))
	before, _ := booking.ScheduleLoads()
	res = f.get(times)
	wantBody(t, res, startAttr(ten), startAttr(eleven))
	if after, _ := booking.ScheduleLoads(); after != before {
		t.Errorf("the same fortnight shown again loaded %d schedules, want none", after-before)
	}

	// Written behind the site with plain SQL, as another process would.
	f.exec(`INSERT INTO clients (first_name, last_name, created_at, updated_at) VALUES ('C', 'D', 0, 0)`)
	f.exec(`INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at, block_start_at, block_end_at,
		price_cents, list_price_cents, created_at, updated_at) VALUES (1, 1, ?, last_insert_rowid(), 1, ?, ?, ?, ?, 0, 0, 0, 0)`,
		f.ana, ten.UnixMilli(), ten.Add(30*time.Minute).UnixMilli(), ten.UnixMilli(), ten.Add(30*time.Minute).UnixMilli())
	res = f.get(times)
	wantStatus(t, res, http.StatusOK)
	if wantBody(t, res, startAttr(eleven)); strings.Contains(res.body, startAttr(ten)) {
		t.Errorf("10:00 still offered after it was booked")
	}

	f.get(times) // keeps the slots of the schedule with the booking
	before, _ = booking.ScheduleLoads()
	f.clock.set(time.Date(2026, 3, 31, 11, 30, 0, 0, santiago))
	res = f.get(times)
	wantStatus(t, res, http.StatusOK)
	if strings.Contains(res.body, startAttr(eleven)) {
		t.Errorf("11:00 still offered at 11:30")
	}
	if after, _ := booking.ScheduleLoads(); after != before {
		t.Errorf("the clock moving on loaded %d schedules, want none", after-before)
	}
}
