package api

import (
	"bytes"
	"context"
	"net/http"
	"testing"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/resource"
	"frontdesk/db"
)

// TestAvailableSlotsKeptFollowWrites: available_slots answers are kept by schedule version
// (slotcache.go). After every kind of write a schedule is built from — made behind the API's
// back with plain SQL on the writer, as another process would — and after the clock moves, each
// answer is byte for byte what an uncached load, the engine and the encoder give at that moment.
func TestAvailableSlotsKeptFollowWrites(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	tue := booking.Date{Year: 2026, Month: time.November, Day: 24}
	queries := []booking.ScheduleQuery{
		{LocationID: 1, ServiceID: 1, First: tue, Last: tue},
		{LocationID: 1, ServiceID: 1, ProviderID: 2, First: tue.AddDays(-1), Last: tue.AddDays(3)},
		{LocationID: 2, First: tue, Last: tue.AddDays(1)},
	}
	santiago, err := booking.LoadZone("America/Santiago")
	if err != nil {
		t.Fatal(err)
	}
	at := func(hour int) int64 { return db.Millis(time.Date(2026, 11, 24, hour, 0, 0, 0, santiago)) }
	check := func(t *testing.T) {
		t.Helper()
		for _, sq := range queries {
			path := "/v3/available_slots?" + slotsQueryString(sq)
			resp, got := f.call("GET", path, nil)
			wantStatus(t, resp, got, http.StatusOK)
			sq.OnlineOnly = true
			l, err := booking.LoadSchedule(ctx, f.db.R, sq)
			if err != nil {
				t.Fatal(err)
			}
			if want := freshSlotsBody(sq, l, f.now); !bytes.Equal(got, want) {
				t.Fatalf("GET %s: the kept answer differs from a fresh one:\ngot  %s\nwant %s", path, got, want)
			}
		}
	}
	check(t) // fills the cache
	check(t) // answers from it
	if n := len(f.api.slots.answers); n != len(queries) {
		t.Fatalf("got %d kept answers, want one per query (%d)", n, len(queries))
	}
	for _, c := range []struct {
		name string
		sql  string
		args []any
	}{
		{"booking inserted", `INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at,
			block_start_at, block_end_at, price_cents, list_price_cents, source, created_at, updated_at)
			VALUES (1, 1, 2, 1, 1, ?, ?, ?, ?, 0, 0, 'admin', 0, 0)`, []any{at(10), at(11), at(10), at(11)}},
		{"booking moved", `UPDATE bookings SET start_at = start_at + 3600000, end_at = end_at + 3600000,
			block_start_at = block_start_at + 3600000, block_end_at = block_end_at + 3600000`, nil},
		{"booking cancelled", `UPDATE bookings SET status_id = 5`, nil},
		{"time off added", `INSERT INTO provider_time_off (provider_id, starts_at, ends_at) VALUES (1, ?, ?)`, []any{at(9), at(12)}},
		{"time off to another provider", `UPDATE provider_time_off SET provider_id = 2`, nil},
		{"time off deleted", `DELETE FROM provider_time_off`, nil},
		{"shift shortened", `UPDATE provider_hours SET close_min = 960 WHERE provider_id = 2`, nil},
		{"service longer", `UPDATE services SET duration_min = 45, buffer_after_min = 15 WHERE id = 1`, nil},
		{"provider renamed", `UPDATE providers SET public_name = 'Benjamín' WHERE id = 2`, nil},
		{"provider offline", `UPDATE providers SET online_booking = 0 WHERE id = 1`, nil},
		{"minimum notice", `UPDATE company SET min_notice_min = 1500`, nil},
		{"closure", `INSERT INTO location_closures (location_id, date) VALUES (1, '2026-11-25')`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := f.db.Write.Exec(c.sql, c.args...); err != nil {
				t.Fatal(err)
			}
			check(t)
		})
	}
	// The clock alone moves the minimum notice's edge through the kept slots.
	for _, step := range []time.Duration{3 * time.Hour, 20 * time.Hour, 4 * time.Hour, 30 * time.Hour} {
		f.now = f.now.Add(step)
		t.Run("clock "+f.now.Format(time.RFC3339), check)
	}
}

// slotsQueryString is sq as available_slots query parameters.
func slotsQueryString(sq booking.ScheduleQuery) string {
	q := "location_id=" + itoa(sq.LocationID) + "&start_date=" + sq.First.String() + "&end_date=" + sq.Last.String()
	if sq.ServiceID != 0 {
		q += "&service_id=" + itoa(sq.ServiceID)
	}
	if sq.ProviderID != 0 {
		q += "&provider_id=" + itoa(sq.ProviderID)
	}
	return q
}

// freshSlotsBody is the available_slots answer for l at now, computed from scratch.
func freshSlotsBody(sq booking.ScheduleQuery, l booking.Loaded, now time.Time) []byte {
	slots := booking.Slots(l.Schedule, sq.First, sq.Last, now)
	meta := resource.SlotsMetadata{LocationID: sq.LocationID, Date: sq.First.String(), EndDate: sq.Last.String(),
		Duration: int64(l.Schedule.Service.Duration.Minutes()), SlotsCount: len(slots)}
	if sq.ServiceID != 0 {
		meta.ServiceID = &sq.ServiceID
	}
	w := resource.NewSlotsJSON(nil, len(slots))
	for _, s := range slots {
		w.Add(s.ProviderID, s.ProviderName, s.Date.String(), s.Start, s.End)
	}
	return append(w.Finish(meta), '\n')
}
