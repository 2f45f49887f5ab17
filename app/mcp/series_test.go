package mcp_test

import (
	"testing"
)

// book_series checks and then books a weekly series from a find_free_times slot across
// Santiago's April fall-back, every date at the same local time, through the one series
// function; a second all-or-nothing call for the same dates books nothing.
func TestBookSeries(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs := f.connect(f.fullKey)
	var ft freeTimes
	ok(t, cs, "find_free_times", map[string]any{
		"location_id": locationProvidencia, "service_id": serviceHaircut, "provider_id": providerBen, "date": "this Saturday",
	}, &ft)
	if len(ft.Slots) == 0 {
		t.Fatal("no free time on Saturday")
	}
	first := ft.Slots[0]
	args := map[string]any{"slot_id": first.SlotID, "client_id": clientMaria, "frequency": "weekly", "count": 3, "mode": "check"}
	var checked struct {
		Dates []struct{ Date, Status string } `json:"dates"`
	}
	ok(t, cs, "book_series", args, &checked)
	if len(checked.Dates) != 3 || checked.Dates[2].Status != "free" {
		t.Fatalf("check: %+v", checked)
	}
	if n := count(t, f, "SELECT count(*) FROM bookings"); n != 0 {
		t.Fatalf("a check booked %d", n)
	}
	args["mode"] = "free_ones"
	var booked struct {
		SeriesID int64 `json:"series_id"`
		Dates    []struct {
			Status  string `json:"status"`
			Booking *struct {
				LocalTime string `json:"local_time"`
			} `json:"booking"`
		} `json:"dates"`
	}
	ok(t, cs, "book_series", args, &booked)
	for _, d := range booked.Dates {
		if d.Status != "booked" || d.Booking == nil || d.Booking.LocalTime != first.LocalTime {
			t.Fatalf("booked: %+v", booked)
		}
	}
	if n := count(t, f, "SELECT count(*) FROM bookings WHERE series_id IS NOT NULL"); n != 3 {
		t.Fatalf("%d bookings in the series, want 3", n)
	}
	args["mode"] = "all_or_nothing"
	fails(t, cs, "book_series", args, "just_taken")
	if n := count(t, f, "SELECT count(*) FROM bookings"); n != 3 {
		t.Fatalf("%d bookings after a refused series, want 3", n)
	}
}
