package booking

import (
	"context"
	"slices"
	"testing"
	"time"
)

// TestWorking: a provider's working time on a date is the engine's rule (doc.go, "Working
// time"): the shift less its breaks (a break reaching past the shift or outside it cuts only
// what it covers), within the opening hours, merged where another shift covers a break, none on
// a closure date or for a provider the schedule does not have; a range that covers a fall-back
// overlap gets the repeated hour, and one that opens in a spring-forward gap opens when it ends.
func TestWorking(t *testing.T) {
	zone := mustZone(t, "America/Santiago")
	monday := mustDate(t, "2026-11-23")
	shift := Shift{Weekday: time.Monday, Open: hm("09:00"), Close: hm("17:00"),
		Breaks: []Break{{hm("12:00"), hm("13:00")}, {hm("16:40"), hm("18:20")}, {hm("01:40"), hm("03:20")}}}
	s := Schedule{
		Zone:      zone,
		Hours:     []WeeklyHours{{time.Monday, hm("08:00"), hm("18:00")}, {time.Saturday, 0, 24 * 60}, {time.Sunday, 0, 24 * 60}},
		Providers: []Provider{{ID: 1, Shifts: []Shift{shift}}},
	}
	show := func(ivs []Interval) []string {
		var out []string
		for _, iv := range ivs {
			out = append(out, iv.Start.Format(time.RFC3339)+" "+iv.End.Format(time.RFC3339))
		}
		return out
	}
	check := func(name string, got []Interval, want ...string) {
		t.Helper()
		if g := show(got); !slices.Equal(g, want) {
			t.Errorf("%s: got %q, want %q", name, g, want)
		}
	}
	check("breaks", Working(s, 1, monday),
		"2026-11-23T09:00:00-03:00 2026-11-23T12:00:00-03:00", "2026-11-23T13:00:00-03:00 2026-11-23T16:40:00-03:00")
	check("unknown provider", Working(s, 2, monday))
	check("another date", Working(s, 1, monday.AddDays(1)))

	covered := s
	covered.Providers = []Provider{{ID: 1, Shifts: []Shift{shift, {Weekday: time.Monday, Open: hm("11:00"), Close: hm("14:00")}}}}
	check("a break another shift covers", Working(covered, 1, monday), "2026-11-23T09:00:00-03:00 2026-11-23T16:40:00-03:00")

	closed := s
	closed.Closures = []Date{monday}
	check("closure", Working(closed, 1, monday))

	// Santiago's clocks go back from 24:00 to 23:00 on Saturday 2026-04-04 and jump from 00:00 to
	// 01:00 on Sunday 2026-09-06.
	nights := s
	nights.Providers = []Provider{{ID: 1, Shifts: []Shift{
		{Weekday: time.Saturday, Open: hm("22:00"), Close: 24 * 60},
		{Weekday: time.Sunday, Open: 0, Close: hm("02:00")},
	}}}
	check("fall-back", Working(nights, 1, mustDate(t, "2026-04-04")), "2026-04-04T22:00:00-03:00 2026-04-05T00:00:00-04:00")
	check("spring-forward", Working(nights, 1, mustDate(t, "2026-09-06")), "2026-09-06T01:00:00-03:00 2026-09-06T02:00:00-03:00")
}

// TestWorkingTime: the day view's reading of working time from the database — every provider
// named, with the shifts and breaks they have at the location, the location's hours and
// closures — is Working's.
func TestWorkingTime(t *testing.T) {
	d := openStore(t, 2)
	ctx := context.Background()
	monday := mustDate(t, "2026-11-23")
	if _, err := d.Write.Exec(`UPDATE providers SET active = 0 WHERE id = 2`); err != nil {
		t.Fatal(err)
	}
	got, err := WorkingTime(ctx, d.R, 1, []int64{1, 2, 3}, monday)
	if err != nil {
		t.Fatal(err)
	}
	want := []Interval{{santiago(t, "2026-11-23 09:00"), santiago(t, "2026-11-23 13:00")}, {santiago(t, "2026-11-23 14:00"), santiago(t, "2026-11-23 18:00")}}
	for _, id := range []int64{1, 2} { // an inactive provider's shifts count too
		if !slices.EqualFunc(got[id], want, func(a, b Interval) bool { return a.Start.Equal(b.Start) && a.End.Equal(b.End) }) {
			t.Errorf("provider %d: got %v, want %v", id, got[id], want)
		}
	}
	if len(got[3]) != 0 {
		t.Errorf("a provider without shifts works %v", got[3])
	}
	if _, err := d.Write.Exec(`INSERT INTO location_closures (location_id, date) VALUES (1, '2026-11-23')`); err != nil {
		t.Fatal(err)
	}
	if got, err = WorkingTime(ctx, d.R, 1, []int64{1}, monday); err != nil || len(got[1]) != 0 {
		t.Errorf("on a closure date: got %v, %v; want nothing", got[1], err)
	}
}
