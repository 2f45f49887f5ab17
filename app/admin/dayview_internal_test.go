package admin

import (
	"slices"
	"testing"
	"time"

	"frontdesk/app/booking"
	"frontdesk/ui"
)

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	z, err := booking.LoadZone(name)
	if err != nil {
		t.Fatal(err)
	}
	return z
}

func TestWallInstants(t *testing.T) {
	tests := []struct {
		name, zone, date, clock string
		want                    []string // the instants in UTC
	}{
		{"ordinary", "America/New_York", "2026-11-23", "10:00", []string{"15:00"}},
		{"spring forward: skipped", "America/New_York", "2027-03-14", "02:30", nil},
		{"spring forward: before", "America/New_York", "2027-03-14", "01:45", []string{"06:45"}},
		{"spring forward: after", "America/New_York", "2027-03-14", "03:00", []string{"07:00"}},
		{"fall back: twice", "America/New_York", "2026-11-01", "01:30", []string{"05:30", "06:30"}},
		{"fall back: after", "America/New_York", "2026-11-01", "02:00", []string{"07:00"}},
		{"Santiago skips midnight", "America/Santiago", "2026-09-06", "00:00", nil},
		{"Santiago day starts at 01:00", "America/Santiago", "2026-09-06", "01:00", []string{"04:00"}},
		{"Santiago repeats 23:00", "America/Santiago", "2026-04-04", "23:30", []string{"02:30", "03:30"}},
		{"Kathmandu +05:45", "Asia/Kathmandu", "2026-11-23", "09:00", []string{"03:15"}},
		{"Lord Howe skips half an hour", "Australia/Lord_Howe", "2026-10-04", "02:15", nil},
		{"Lord Howe after the gap", "Australia/Lord_Howe", "2026-10-04", "02:30", []string{"15:30"}},
		{"Lord Howe repeats half an hour", "Australia/Lord_Howe", "2026-04-05", "01:45", []string{"14:45", "15:15"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			zone := mustZone(t, tc.zone)
			d, err := booking.ParseDate(tc.date)
			if err != nil {
				t.Fatal(err)
			}
			clock, _ := time.Parse("15:04", tc.clock)
			var got []string
			for _, at := range wallInstants(zone, d, clock.Hour()*60+clock.Minute()) {
				if local := at.In(zone).Format("2006-01-02 15:04"); local != tc.date+" "+tc.clock {
					t.Errorf("instant %v reads %s in %s, want %s %s", at, local, tc.zone, tc.date, tc.clock)
				}
				got = append(got, at.UTC().Format("15:04"))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// The grid puts each booking in the row its start falls in, spanning the rows it covers;
// bookings that share rows share one cell; free starts go in the row they fall in.
func TestDayGridFill(t *testing.T) {
	zone := mustZone(t, "America/New_York")
	d, _ := booking.ParseDate("2026-11-23")
	g := dayGrid{zone: zone, col: map[int64]int{7: 0, 8: 1}, slots: map[[2]int][]ui.DaySlot{},
		columns: []ui.DayProvider{{ID: 7, Name: "Ana"}, {ID: 8, Name: "Bruno"}},
		working: [][][2]int{{{540, 600}}, nil}}
	for m := 9 * 60; m < 11*60; m += dayRowMinutes {
		g.rows = append(g.rows, gridRow{start: wallInstants(zone, d, m)[0], minute: m})
	}
	at := func(clock string) time.Time {
		t.Helper()
		c, err := time.ParseInLocation("2006-01-02 15:04", "2026-11-23 "+clock, zone)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	entry := func(id int64, from, to string) dayEntry {
		return dayEntry{start: at(from), end: at(to), view: ui.DayBooking{ID: id}}
	}
	g.entries = [][]dayEntry{
		{entry(1, "09:00", "09:30"), entry(2, "09:40", "09:50"), entry(3, "09:50", "10:20")},
		{entry(4, "08:00", "09:10"), entry(5, "10:30", "12:00")},
	}
	g.addSlot(7, at("10:30"), ui.DaySlot{Time: "10:30"})
	g.addSlot(7, at("10:35"), ui.DaySlot{Time: "10:35"})
	g.addSlot(8, at("11:00"), ui.DaySlot{Time: "11:00"}) // after the last row: not shown
	g.addSlot(9, at("10:00"), ui.DaySlot{Time: "10:00"}) // no such column
	var v ui.DayView
	g.fill(&v)

	type cell struct {
		span     int
		bookings []int64
		skip     bool
	}
	got := make([][2]cell, len(v.Rows))
	for i, r := range v.Rows {
		for c, x := range r.Cells {
			var ids []int64
			for _, b := range x.Bookings {
				ids = append(ids, b.ID)
			}
			got[i][c] = cell{x.Span, ids, x.Skip}
		}
	}
	skip := cell{skip: true}
	want := [][2]cell{
		{{2, []int64{1}, false}, {1, []int64{4}, false}}, // 09:00
		{skip, {1, nil, false}},                          // 09:15
		{{4, []int64{2, 3}, false}, {1, nil, false}},     // 09:30: 2 and 3 share row 09:45
		{skip, {1, nil, false}},                          // 09:45
		{skip, {1, nil, false}},                          // 10:00
		{skip, {1, nil, false}},                          // 10:15: 3 ends at 10:20
		{{1, nil, false}, {2, []int64{5}, false}},        // 10:30
		{{1, nil, false}, skip},                          // 10:45
	}
	for i := range want {
		for c := range 2 {
			if !equalCell(got[i][c].span, want[i][c].span, got[i][c].bookings, want[i][c].bookings, got[i][c].skip, want[i][c].skip) {
				t.Errorf("row %s column %d: got %+v, want %+v", v.Rows[i].Label, c, got[i][c], want[i][c])
			}
		}
	}
	if s := v.Rows[6].Cells[0].Slots; len(s) != 2 || s[0].Time != "10:30" || s[1].Time != "10:35" {
		t.Errorf("row 10:30 of Ana holds slots %+v, want 10:30 and 10:35", s)
	}
	if n := len(g.slots); n != 1 {
		t.Errorf("got slots in %d cells, want 1", n)
	}
	if !v.Rows[0].Cells[1].Off || v.Rows[0].Cells[0].Off || !v.Rows[6].Cells[0].Off {
		t.Error("off hours: want Bruno off all day, Ana working 09:00–10:00 only")
	}
}

func equalCell(span, wantSpan int, ids, wantIDs []int64, skip, wantSkip bool) bool {
	if skip || wantSkip {
		return skip == wantSkip
	}
	return span == wantSpan && slices.Equal(ids, wantIDs)
}
