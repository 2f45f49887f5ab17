package booking

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestSlotsAcrossTransitions pins exact slots on the days the clocks change,
// worked out by hand from the rules in the package doc.
func TestSlotsAcrossTransitions(t *testing.T) {
	tests := []struct {
		name, zone, date string
		shifts           []Shift // location open all day, every day
		duration, step   time.Duration
		want             []string // RFC3339 starts
	}{
		{name: "Berlin fall-back offers the repeated hour twice", zone: "Europe/Berlin", date: "2026-10-25",
			shifts: []Shift{{Weekday: time.Sunday, Open: hm("01:00"), Close: hm("04:00")}}, duration: time.Hour, step: 30 * time.Minute,
			want: []string{"2026-10-25T01:00:00+02:00", "2026-10-25T01:30:00+02:00", "2026-10-25T02:00:00+02:00", "2026-10-25T02:30:00+02:00",
				"2026-10-25T02:00:00+01:00", "2026-10-25T02:30:00+01:00", "2026-10-25T03:00:00+01:00"}},
		{name: "Berlin spring-forward skips the missing hour", zone: "Europe/Berlin", date: "2026-03-29",
			shifts: []Shift{{Weekday: time.Sunday, Open: hm("01:00"), Close: hm("04:00")}}, duration: time.Hour, step: 30 * time.Minute,
			want: []string{"2026-03-29T01:00:00+01:00", "2026-03-29T01:30:00+01:00", "2026-03-29T03:00:00+02:00"}},
		{name: "Berlin grid is not re-anchored after the gap", zone: "Europe/Berlin", date: "2026-03-29",
			shifts: []Shift{{Weekday: time.Sunday, Open: 0, Close: hm("05:00")}}, duration: 30 * time.Minute, step: 45 * time.Minute,
			want: []string{"2026-03-29T00:00:00+01:00", "2026-03-29T00:45:00+01:00", "2026-03-29T01:30:00+01:00",
				"2026-03-29T03:00:00+02:00", "2026-03-29T03:45:00+02:00", "2026-03-29T04:30:00+02:00"}},
		{name: "Santiago day without a midnight", zone: "America/Santiago", date: "2026-09-06",
			shifts: []Shift{{Weekday: time.Sunday, Open: 0, Close: hm("03:00")}}, duration: time.Hour, step: 30 * time.Minute,
			want: []string{"2026-09-06T01:00:00-03:00", "2026-09-06T01:30:00-03:00", "2026-09-06T02:00:00-03:00"}},
		{name: "Santiago booking across the skipped midnight", zone: "America/Santiago", date: "2026-09-05",
			shifts:   []Shift{{Weekday: time.Saturday, Open: hm("22:00"), Close: 1440}, {Weekday: time.Sunday, Open: 0, Close: hm("02:00")}},
			duration: 3 * time.Hour, step: 30 * time.Minute,
			want: []string{"2026-09-05T22:00:00-04:00"}},
		{name: "Santiago repeated hour before midnight", zone: "America/Santiago", date: "2026-04-04",
			shifts: []Shift{{Weekday: time.Saturday, Open: hm("22:00"), Close: 1440}}, duration: time.Hour, step: 30 * time.Minute,
			want: []string{"2026-04-04T22:00:00-03:00", "2026-04-04T22:30:00-03:00", "2026-04-04T23:00:00-03:00", "2026-04-04T23:30:00-03:00",
				"2026-04-04T23:00:00-04:00"}},
		{name: "Lord Howe half-hour spring-forward", zone: "Australia/Lord_Howe", date: "2026-10-04",
			shifts: []Shift{{Weekday: time.Sunday, Open: hm("01:00"), Close: hm("04:00")}}, duration: 30 * time.Minute, step: 15 * time.Minute,
			want: []string{"2026-10-04T01:00:00+10:30", "2026-10-04T01:15:00+10:30", "2026-10-04T01:30:00+10:30", "2026-10-04T01:45:00+10:30",
				"2026-10-04T02:30:00+11:00", "2026-10-04T02:45:00+11:00", "2026-10-04T03:00:00+11:00", "2026-10-04T03:15:00+11:00", "2026-10-04T03:30:00+11:00"}},
		{name: "Lord Howe half-hour fall-back", zone: "Australia/Lord_Howe", date: "2026-04-05",
			shifts: []Shift{{Weekday: time.Sunday, Open: hm("01:00"), Close: hm("02:30")}}, duration: 30 * time.Minute, step: 30 * time.Minute,
			want: []string{"2026-04-05T01:00:00+11:00", "2026-04-05T01:30:00+11:00", "2026-04-05T01:30:00+10:30", "2026-04-05T02:00:00+10:30"}},
		{name: "Kathmandu quarter-hour offset", zone: "Asia/Kathmandu", date: "2026-03-02",
			shifts: []Shift{{Weekday: time.Monday, Open: hm("09:00"), Close: hm("10:00")}}, duration: 30 * time.Minute, step: 30 * time.Minute,
			want: []string{"2026-03-02T09:00:00+05:45", "2026-03-02T09:30:00+05:45"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			zone := mustZone(t, tt.zone)
			s := Schedule{Zone: zone, Hours: allDay(), Service: Service{Duration: tt.duration}, Policy: Policy{Step: tt.step},
				Providers: []Provider{{ID: 1, Name: "Ana", OffersService: true, Shifts: tt.shifts}}}
			day := mustDate(t, tt.date)
			var got []string
			for _, sl := range Slots(s, day, day, time.Time{}) {
				got = append(got, sl.Start.Format(time.RFC3339))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %s\nwant %s", join(got), join(tt.want))
			}
		})
	}
}

func allDay() []WeeklyHours {
	var hours []WeeklyHours
	for wd := time.Sunday; wd <= time.Saturday; wd++ {
		hours = append(hours, WeeklyHours{wd, 0, 1440})
	}
	return hours
}

func everyDay(open, close int) []Shift {
	var shifts []Shift
	for wd := time.Sunday; wd <= time.Saturday; wd++ {
		shifts = append(shifts, Shift{Weekday: wd, Open: open, Close: close})
	}
	return shifts
}

// dstCase is one cell of the matrix: a zone, three local days around a
// transition, a set of working hours and a service.
type dstCase struct {
	name        string
	s           Schedule
	first, last Date
	gaps        [][2]int64 // local-second ranges that do not exist in the zone
	want        []string
}

// TestSlotsDSTMatrix checks every offset change from 2026 to 2028 in the zones
// the product promises, against the brute-force model, under several host
// zones (time.Local) to show the host does not matter.
func TestSlotsDSTMatrix(t *testing.T) {
	zones := []string{"America/Santiago", "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kathmandu"}
	services := []struct {
		name string
		svc  Service
		step time.Duration
	}{
		{"60m/15", Service{Duration: time.Hour}, 15 * time.Minute},
		{"90m/45+buffers", Service{Duration: 90 * time.Minute, BufferBefore: 15 * time.Minute, BufferAfter: 10 * time.Minute}, 45 * time.Minute},
	}
	from, to := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2029, 1, 1, 0, 0, 0, 0, time.UTC)
	var cases []dstCase
	for _, name := range zones {
		zone := mustZone(t, name)
		moments := transitions(zone, from, to)
		var gaps [][2]int64
		for _, tr := range moments {
			_, before := tr.Add(-time.Second).Zone()
			if _, after := tr.Zone(); after > before {
				gaps = append(gaps, [2]int64{tr.Unix() + int64(before), tr.Unix() + int64(after)})
			}
		}
		if len(moments) == 0 { // Kathmandu: no changes, check ordinary days
			moments = []time.Time{time.Date(2026, 1, 1, 12, 0, 0, 0, zone), time.Date(2027, 7, 1, 12, 0, 0, 0, zone), time.Date(2028, 12, 31, 12, 0, 0, 0, zone)}
		}
		for _, tr := range moments {
			local := tr.In(zone)
			day := DateOf(local)
			mid := local.Hour()*60 + local.Minute()
			hours := []struct {
				name        string
				open, close int
			}{
				{"morning", 0, hm("11:00")},
				{"around", max(0, mid-180), min(1440, mid+180)},
				{"afternoon", hm("13:00"), 1440},
			}
			for _, h := range hours {
				for _, sv := range services {
					s := Schedule{Zone: zone, Hours: allDay(), Service: sv.svc, Policy: Policy{Step: sv.step},
						Providers: []Provider{{ID: 1, Name: "Ana", OffersService: true, Shifts: everyDay(h.open, h.close)}}}
					c := dstCase{name: fmt.Sprintf("%s/%s/%s/%s", name, day, h.name, sv.name), s: s,
						first: day.AddDays(-1), last: day.AddDays(1), gaps: gaps}
					want, _ := bruteSlots(s, c.first, c.last, time.Time{})
					c.want = slotKeys(want)
					cases = append(cases, c)
				}
			}
		}
	}
	if len(cases) < 5*3*2 {
		t.Fatalf("got %d cases, want at least %d: transitions not found", len(cases), 5*3*2)
	}
	for _, host := range []string{"UTC", "America/Santiago", "Asia/Kathmandu", "Pacific/Kiritimati", "Australia/Lord_Howe"} {
		t.Run("Local="+host, func(t *testing.T) {
			setLocal(t, mustZone(t, host))
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) { checkDSTCase(t, c) })
			}
		})
	}
}

func checkDSTCase(t *testing.T, c dstCase) {
	got := Slots(c.s, c.first, c.last, time.Time{})
	if d := diffKeys(slotKeys(got), c.want); d != "" {
		t.Fatalf("against the brute-force model: %s", d)
	}
	seen := make(map[time.Time]bool)
	for i, sl := range got {
		if sl.Start.Location() != c.s.Zone || sl.End.Location() != c.s.Zone {
			t.Errorf("slot %s: got locations %v/%v, want %v", slotKey(sl), sl.Start.Location(), sl.End.Location(), c.s.Zone)
		}
		if seen[sl.Start.UTC()] {
			t.Errorf("slot %s: got a duplicate, want each instant once", slotKey(sl))
		}
		seen[sl.Start.UTC()] = true
		if i > 0 && !got[i-1].Start.Before(sl.Start) {
			t.Errorf("slot %s: got it after %s, want increasing starts", slotKey(sl), slotKey(got[i-1]))
		}
		if d := DateOf(sl.Start); d != sl.Date {
			t.Errorf("slot %s: got date %s, want the local date of the start %s", slotKey(sl), sl.Date, d)
		}
		// The printed offset must be the zone's offset at that instant,
		// asked of the zone directly, and must round-trip to the instant.
		text := sl.Start.Format(time.RFC3339)
		parsed, err := time.Parse(time.RFC3339, text)
		_, off := time.Unix(sl.Start.Unix(), 0).In(c.s.Zone).Zone()
		if _, printed := parsed.Zone(); err != nil || !parsed.Equal(sl.Start) || printed != off {
			t.Errorf("slot %s: got RFC3339 %s (offset %ds, err %v), want offset %ds for that instant", slotKey(sl), text, printed, err, off)
		}
		wall := sl.Start.Unix() + int64(off)
		for _, g := range c.gaps {
			if g[0] <= wall && wall < g[1] {
				t.Errorf("slot %s: got a local time the zone skips", slotKey(sl))
			}
		}
	}
}
