package booking

import (
	"math/rand/v2"
	"testing"
	"time"
)

// benchSchedule is a busy month at one location in Berlin (March 2026, which
// includes the spring-forward): open Monday–Saturday 08:00–20:00, ten
// providers on weekday shifts with a lunch break and Saturday mornings,
// a 45-minute service with a 10-minute clean-up on a 15-minute grid, and 500
// existing bookings.
func benchSchedule(b *testing.B) (Schedule, time.Time) {
	zone := mustZone(b, "Europe/Berlin")
	s := Schedule{
		Zone:     zone,
		Closures: []Date{{2026, time.March, 19}},
		Service:  Service{ID: 1, Duration: 45 * time.Minute, BufferAfter: 10 * time.Minute},
		Policy:   Policy{Step: 15 * time.Minute, MinNotice: 2 * time.Hour, MaxAdvance: 60 * 24 * time.Hour},
	}
	for wd := time.Monday; wd <= time.Saturday; wd++ {
		s.Hours = append(s.Hours, WeeklyHours{wd, hm("08:00"), hm("20:00")})
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 10 {
		p := Provider{ID: int64(i + 1), Name: "Provider", OffersService: true}
		for wd := time.Monday; wd <= time.Friday; wd++ {
			p.Shifts = append(p.Shifts, Shift{Weekday: wd, Open: hm("09:00"), Close: hm("18:00"), Breaks: []Break{{hm("13:00"), hm("14:00")}}})
		}
		p.Shifts = append(p.Shifts, Shift{Weekday: time.Saturday, Open: hm("10:00"), Close: hm("14:00")})
		p.TimeOff = []Interval{{time.Date(2026, 3, 10+i, 0, 0, 0, 0, zone), time.Date(2026, 3, 11+i, 0, 0, 0, 0, zone)}}
		s.Providers = append(s.Providers, p)
	}
	for range 500 {
		p := &s.Providers[rng.IntN(len(s.Providers))]
		start := time.Date(2026, 3, 1+rng.IntN(31), 9+rng.IntN(9), 15*rng.IntN(4), 0, 0, zone)
		p.Busy = append(p.Busy, Interval{start, start.Add(55 * time.Minute)})
	}
	return s, time.Date(2026, 2, 28, 12, 0, 0, 0, zone)
}

func BenchmarkSlots31Days(b *testing.B) {
	s, now := benchSchedule(b)
	first, last := Date{2026, time.March, 1}, Date{2026, time.March, 31}
	if n := len(Slots(s, first, last, now)); n < 1000 {
		b.Fatalf("got %d slots, want a realistic month (over 1000)", n)
	}
	b.ReportAllocs()
	for b.Loop() {
		Slots(s, first, last, now)
	}
}

func BenchmarkSlotsOneDay(b *testing.B) {
	s, now := benchSchedule(b)
	day := Date{2026, time.March, 16}
	if n := len(Slots(s, day, day, now)); n == 0 {
		b.Fatalf("got no slots, want a working Monday")
	}
	b.ReportAllocs()
	for b.Loop() {
		Slots(s, day, day, now)
	}
}

func BenchmarkExplain(b *testing.B) {
	s, now := benchSchedule(b)
	start := time.Date(2026, 3, 16, 11, 0, 0, 0, s.Zone)
	b.ReportAllocs()
	for b.Loop() {
		Explain(s, 3, start, now)
	}
}
