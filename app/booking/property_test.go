package booking

import (
	"flag"
	"math/rand/v2"
	"testing"
	"time"
)

var seed = flag.Uint64("seed", 20260329, "seed for TestSlotsMatchBruteForce")

// TestSlotsMatchBruteForce compares Slots with the minute-by-minute model on
// random schedules, many of them spanning offset changes, and checks that
// Explain says ok for exactly the starts Slots offers. Rerun a failure with
// go test -run MatchBruteForce -args -seed=N.
func TestSlotsMatchBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(*seed, 1))
	gen := newGenerator(t, rng)
	n := 300
	if testing.Short() {
		n = 60
	}
	var total, nonEmpty int
	for i := range n {
		s, first, last, now := gen.schedule()
		want, candidates := bruteSlots(s, first, last, now)
		got := Slots(s, first, last, now)
		total += len(got)
		if len(got) > 0 {
			nonEmpty++
		}
		if d := diffKeys(slotKeys(got), slotKeys(want)); d != "" {
			t.Fatalf("seed %d, schedule %d (%s, %s..%s): %s\nschedule: %+v", *seed, i, s.Zone, first, last, d, s)
		}
		offered := make(map[string]bool)
		for _, sl := range got {
			offered[slotKey(sl)] = true
		}
		// Every candidate (offered or not), plus arbitrary instants.
		probes := candidates
		from, minutes := time.Date(first.Year, first.Month, first.Day, 0, 0, 0, 0, time.UTC), (last.unixDay()-first.unixDay()+1)*1440
		for k := range 10 {
			start := from.Add(time.Duration(rng.Int64N(minutes)) * time.Minute)
			if k%2 == 1 {
				start = start.Add(time.Duration(rng.Int64N(int64(time.Minute))))
			}
			if d := DateOf(start.In(s.Zone)); d.Before(first) || d.After(last) {
				continue // Slots only answers for first..last
			}
			for _, p := range s.Providers {
				probes = append(probes, Slot{ProviderID: p.ID, ProviderName: p.Name, Date: DateOf(start.In(s.Zone)), Start: start.In(s.Zone), End: start.Add(s.Service.Duration).In(s.Zone)})
			}
		}
		for _, c := range probes {
			r := Explain(s, c.ProviderID, c.Start, now)
			if want := offered[slotKey(c)]; (r.Code == ReasonOK) != want {
				t.Fatalf("seed %d, schedule %d: Explain(%d, %s) got %s (%s), want offered=%v", *seed, i, c.ProviderID, c.Start.Format(time.RFC3339), r.Code, r.Message, want)
			}
			if r.Message == "" {
				t.Fatalf("seed %d, schedule %d: Explain(%d, %s) got an empty message, want one", *seed, i, c.ProviderID, c.Start.Format(time.RFC3339))
			}
		}
	}
	// A generator that only makes empty schedules would prove nothing.
	t.Logf("seed %d: %d slots, %d of %d schedules offer something", *seed, total, nonEmpty, n)
	if nonEmpty < n/4 {
		t.Errorf("seed %d: got %d of %d schedules with slots, want at least a quarter", *seed, nonEmpty, n)
	}
}

// generator makes small random schedules whose interesting parts cluster
// around offset changes.
type generator struct {
	rng   *rand.Rand
	zones []*time.Location
	moves map[*time.Location][]time.Time
}

func newGenerator(t *testing.T, rng *rand.Rand) *generator {
	g := &generator{rng: rng, moves: make(map[*time.Location][]time.Time)}
	from, to := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2029, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, name := range []string{"UTC", "America/Santiago", "America/New_York", "Europe/Berlin", "Australia/Lord_Howe",
		"Asia/Kathmandu", "Pacific/Chatham", "Antarctica/Troll"} {
		zone := mustZone(t, name)
		g.zones = append(g.zones, zone)
		g.moves[zone] = transitions(zone, from, to)
	}
	return g
}

func (g *generator) pick(options ...int) int { return options[g.rng.IntN(len(options))] }

func (g *generator) minutes(options ...int) time.Duration {
	return time.Duration(g.pick(options...)) * time.Minute
}

// wallRange is a random [open, close) on a 15-minute grid, sometimes all day.
func (g *generator) wallRange() (int, int) {
	if g.rng.IntN(4) == 0 {
		return 0, 1440
	}
	open := g.rng.IntN(96) * 15
	return open, open + 15 + g.rng.IntN((1440-open)/15)*15
}

func (g *generator) schedule() (s Schedule, first, last Date, now time.Time) {
	zone := g.zones[g.rng.IntN(len(g.zones))]
	s.Zone = zone
	if moves := g.moves[zone]; len(moves) > 0 && g.rng.IntN(5) > 0 {
		first = DateOf(moves[g.rng.IntN(len(moves))].In(zone)).AddDays(-g.rng.IntN(3))
	} else {
		first = Date{2026, time.January, 1}.AddDays(g.rng.IntN(3 * 365))
	}
	last = first.AddDays(g.rng.IntN(4))
	for wd := time.Sunday; wd <= time.Saturday; wd++ {
		for range 1 + g.rng.IntN(2) {
			open, close := g.wallRange()
			s.Hours = append(s.Hours, WeeklyHours{wd, open, close})
		}
	}
	for d := first.AddDays(-1); !d.After(last.AddDays(1)); d = d.AddDays(1) {
		if g.rng.IntN(10) == 0 {
			s.Closures = append(s.Closures, d)
		}
	}
	s.Service = Service{ID: 9, Duration: g.minutes(15, 20, 30, 45, 60, 90, 120, 180),
		BufferBefore: g.minutes(0, 0, 5, 10, 15, 30), BufferAfter: g.minutes(0, 0, 5, 10, 15, 30)}
	s.Policy = Policy{Step: g.minutes(0, 5, 10, 15, 20, 30, 45, 60),
		MinNotice: g.minutes(0, 0, 30, 120, 1440), MaxAdvance: g.minutes(0, 0, 720, 2880, 7200)}

	// Absolute intervals land anywhere from a day before to a day after the range.
	base := time.Date(first.Year, first.Month, first.Day-1, 0, 0, 0, 0, zone).UTC()
	span := (last.unixDay() - first.unixDay() + 3) * 1440
	instant := func() time.Time { return base.Add(time.Duration(g.rng.Int64N(span)) * time.Minute) }
	intervals := func(n, maxMinutes int) []Interval {
		var out []Interval
		for range g.rng.IntN(n + 1) {
			start := instant()
			out = append(out, Interval{start, start.Add(time.Duration(1+g.rng.IntN(maxMinutes)) * time.Minute)})
		}
		return out
	}
	now = instant().Add(-24 * time.Hour)

	ids := g.rng.Perm(9)
	for i := range 1 + g.rng.IntN(3) {
		p := Provider{ID: int64(ids[i] + 1), Name: string(rune('A' + ids[i])), OffersService: g.rng.IntN(10) > 0,
			TimeOff: intervals(2, 600), Busy: intervals(6, 180)}
		for wd := time.Sunday; wd <= time.Saturday; wd++ {
			for range g.rng.IntN(3) {
				sh := Shift{Weekday: wd}
				sh.Open, sh.Close = g.wallRange()
				for range g.rng.IntN(3) {
					b := Break{Start: g.rng.IntN(96) * 15}
					b.End = min(1440, b.Start+15+g.rng.IntN(8)*15)
					sh.Breaks = append(sh.Breaks, b)
				}
				p.Shifts = append(p.Shifts, sh)
			}
		}
		s.Providers = append(s.Providers, p)
	}
	return s, first, last, now
}
