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

// reschedule_booking and cancel_booking take a series scope: moving the first date with
// "all" moves every date to the new local time, cancelling the second with "following"
// cancels it and the third and leaves the first, through the same functions as /v3.
func TestSeriesScopesInTools(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs := f.connect(f.fullKey)
	var ft freeTimes
	ok(t, cs, "find_free_times", map[string]any{
		"location_id": locationProvidencia, "service_id": serviceHaircut, "provider_id": providerBen, "date": "this Saturday",
	}, &ft)
	if len(ft.Slots) < 3 {
		t.Fatal("too few free times on Saturday")
	}
	ok(t, cs, "book_series", map[string]any{"slot_id": ft.Slots[0].SlotID, "client_id": clientMaria, "frequency": "weekly", "count": 3, "mode": "all_or_nothing"}, nil)
	ids := func(where string) []int64 {
		t.Helper()
		rows, err := f.db.Read.Query(`SELECT id FROM bookings WHERE series_id IS NOT NULL ` + where + ` ORDER BY start_at`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			out = append(out, id)
		}
		return out
	}
	all := ids("")
	if len(all) != 3 {
		t.Fatalf("%d dates booked, want 3", len(all))
	}
	later := ft.Slots[2]
	ok(t, cs, "reschedule_booking", map[string]any{"booking_id": all[0], "client_id": clientMaria, "slot_id": later.SlotID, "scope": "all"}, nil)
	// Every date moved (their local time is the slot's; across daylight-saving changes the
	// instants differ by more or less than whole weeks).
	if n := count(t, f, `SELECT count(*) FROM activity WHERE action = 'booking.moved'`); n != 3 {
		t.Fatalf("%d dates moved, want all 3", n)
	}
	ok(t, cs, "cancel_booking", map[string]any{"booking_id": all[1], "client_id": clientMaria, "scope": "following"}, nil)
	if got := ids("AND status_id = 5"); len(got) != 2 || got[0] != all[1] || got[1] != all[2] {
		t.Fatalf("cancelled %v, want the second and third dates %v", got, all[1:])
	}
	fails(t, cs, "cancel_booking", map[string]any{"booking_id": all[0], "client_id": clientMaria, "scope": "some"}, "invalid_input")
}
