package booking

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// scenarioSchedule is one provider, Ana, on Monday 2026-03-02 in Berlin:
// location open 09:00–13:00, Ana working 09:00–12:00, a 60-minute service
// on a 30-minute grid. Each case changes one thing.
func scenarioSchedule(zone *time.Location) Schedule {
	return Schedule{
		Zone:    zone,
		Hours:   []WeeklyHours{{time.Monday, hm("09:00"), hm("13:00")}},
		Service: Service{ID: 1, Duration: time.Hour},
		Policy:  Policy{Step: 30 * time.Minute},
		Providers: []Provider{{
			ID: 1, Name: "Ana", OffersService: true,
			Shifts: []Shift{{Weekday: time.Monday, Open: hm("09:00"), Close: hm("12:00")}},
		}},
	}
}

// short renders a slot as "2026-03-02 09:00-10:00 Ana" for readable tables.
func short(s Slot) string {
	return fmt.Sprintf("%s %s-%s %s", s.Date, s.Start.Format("15:04"), s.End.Format("15:04"), s.ProviderName)
}

func TestSlotsScenarios(t *testing.T) {
	zone := mustZone(t, "Europe/Berlin")
	in := func(s string) time.Time { return at(t, zone, s) }
	ana := func(s *Schedule) *Provider { return &s.Providers[0] }
	const mon = "2026-03-02"
	tests := []struct {
		name        string
		change      func(s *Schedule)
		first, last string    // default: Monday only
		now         time.Time // default: the day before
		want        []string
	}{
		{name: "plain shift", change: func(*Schedule) {},
			want: []string{"09:00-10:00 Ana", "09:30-10:30 Ana", "10:00-11:00 Ana", "10:30-11:30 Ana", "11:00-12:00 Ana"}},
		{name: "break", change: func(s *Schedule) { ana(s).Shifts[0].Breaks = []Break{{hm("10:00"), hm("10:30")}} },
			want: []string{"09:00-10:00 Ana", "10:30-11:30 Ana", "11:00-12:00 Ana"}},
		{name: "buffer before", change: func(s *Schedule) { s.Service.BufferBefore = 15 * time.Minute },
			want: []string{"09:30-10:30 Ana", "10:00-11:00 Ana", "10:30-11:30 Ana", "11:00-12:00 Ana"}},
		{name: "buffer after", change: func(s *Schedule) { s.Service.BufferAfter = 15 * time.Minute },
			want: []string{"09:00-10:00 Ana", "09:30-10:30 Ana", "10:00-11:00 Ana", "10:30-11:30 Ana"}},
		{name: "time off", change: func(s *Schedule) { ana(s).TimeOff = []Interval{{in(mon + " 10:45"), in(mon + " 11:15")}} },
			want: []string{"09:00-10:00 Ana", "09:30-10:30 Ana"}},
		{name: "booking at another location", change: func(s *Schedule) { ana(s).Busy = []Interval{{in(mon + " 10:00"), in(mon + " 11:00")}} },
			want: []string{"09:00-10:00 Ana", "11:00-12:00 Ana"}},
		{name: "booking widened by its own buffer", change: func(s *Schedule) { ana(s).Busy = []Interval{{in(mon + " 10:00"), in(mon + " 11:15")}} },
			want: []string{"09:00-10:00 Ana"}},
		{name: "buffer after touches a booking", change: func(s *Schedule) {
			s.Service.BufferAfter = 30 * time.Minute
			ana(s).Busy = []Interval{{in(mon + " 11:30"), in(mon + " 12:00")}}
		}, want: []string{"09:00-10:00 Ana", "09:30-10:30 Ana", "10:00-11:00 Ana"}},
		{name: "minimum notice", change: func(s *Schedule) { s.Policy.MinNotice = 2 * time.Hour }, now: in(mon + " 08:00"),
			want: []string{"10:00-11:00 Ana", "10:30-11:30 Ana", "11:00-12:00 Ana"}},
		{name: "minimum notice between grid points", change: func(s *Schedule) { s.Policy.MinNotice = 2 * time.Hour }, now: in(mon + " 08:01"),
			want: []string{"10:30-11:30 Ana", "11:00-12:00 Ana"}},
		{name: "advance window is inclusive", change: func(s *Schedule) { s.Policy.MaxAdvance = 24 * time.Hour }, now: in("2026-03-01 10:00"),
			want: []string{"09:00-10:00 Ana", "09:30-10:30 Ana", "10:00-11:00 Ana"}},
		{name: "service not offered", change: func(s *Schedule) {
			ana(s).OffersService = false
			s.Providers = append(s.Providers, Provider{ID: 2, Name: "Bob", OffersService: true,
				Shifts: []Shift{{Weekday: time.Monday, Open: hm("09:00"), Close: hm("10:00")}}})
		}, want: []string{"09:00-10:00 Bob"}},
		{name: "location closure", change: func(s *Schedule) { s.Closures = []Date{mustDate(t, mon)} }},
		{name: "other weekdays have no hours", change: func(*Schedule) {}, first: "2026-02-24", last: "2026-03-01"},
		{name: "location hours narrower than shift", change: func(s *Schedule) {
			s.Hours[0].Open, s.Hours[0].Close = hm("10:00"), hm("12:00")
			ana(s).Shifts[0].Close = hm("13:00")
		}, want: []string{"10:00-11:00 Ana", "10:30-11:30 Ana", "11:00-12:00 Ana"}},
		{name: "ties sorted by provider ID", change: func(s *Schedule) {
			s.Providers[0].ID, s.Providers[0].Name = 7, "Zoe"
			s.Providers = append(s.Providers, Provider{ID: 3, Name: "Bob", OffersService: true,
				Shifts: []Shift{{Weekday: time.Monday, Open: hm("09:30"), Close: hm("11:30")}}})
		}, want: []string{"09:00-10:00 Zoe", "09:30-10:30 Bob", "09:30-10:30 Zoe", "10:00-11:00 Bob", "10:00-11:00 Zoe",
			"10:30-11:30 Bob", "10:30-11:30 Zoe", "11:00-12:00 Zoe"}},
		{name: "grid starts at each shift's open", change: func(s *Schedule) {
			s.Policy.Step = 45 * time.Minute
			s.Hours[0].Close = hm("14:00")
			ana(s).Shifts = append(ana(s).Shifts, Shift{Weekday: time.Monday, Open: hm("12:10"), Close: hm("13:30")})
		}, want: []string{"09:00-10:00 Ana", "09:45-10:45 Ana", "10:30-11:30 Ana", "12:10-13:10 Ana"}},
		{name: "step zero means one slot per duration", change: func(s *Schedule) { s.Policy.Step = 0 },
			want: []string{"09:00-10:00 Ana", "10:00-11:00 Ana", "11:00-12:00 Ana"}},
		{name: "overlapping shifts offer each start once", change: func(s *Schedule) {
			ana(s).Shifts = []Shift{{Weekday: time.Monday, Open: hm("09:00"), Close: hm("11:00")}, {Weekday: time.Monday, Open: hm("10:00"), Close: hm("12:00")}}
		}, want: []string{"09:00-10:00 Ana", "09:30-10:30 Ana", "10:00-11:00 Ana", "10:30-11:30 Ana", "11:00-12:00 Ana"}},
		{name: "a break only cuts its own shift", change: func(s *Schedule) {
			ana(s).Shifts[0].Breaks = []Break{{hm("10:00"), hm("10:30")}}
			ana(s).Shifts = append(ana(s).Shifts, Shift{Weekday: time.Monday, Open: hm("10:00"), Close: hm("10:30")})
		}, want: []string{"09:00-10:00 Ana", "09:30-10:30 Ana", "10:00-11:00 Ana", "10:30-11:30 Ana", "11:00-12:00 Ana"}},
		{name: "booking across midnight", change: overnight, first: mon, last: "2026-03-03",
			want: []string{"22:00-01:00 Ana", "22:30-01:30 Ana", "23:00-02:00 Ana"}},
		{name: "overnight slots belong to the start's date", change: overnight, first: "2026-03-03", last: "2026-03-03"},
		{name: "buffer before reaches into the previous day", change: func(s *Schedule) {
			overnight(s)
			s.Service.Duration, s.Service.BufferBefore = time.Hour, 15*time.Minute
		}, first: "2026-03-03", last: "2026-03-03",
			want: []string{"2026-03-03 00:00-01:00 Ana", "2026-03-03 00:30-01:30 Ana", "2026-03-03 01:00-02:00 Ana"}},
		{name: "overnight into a closed day", change: func(s *Schedule) {
			overnight(s)
			s.Closures = []Date{mustDate(t, "2026-03-03")}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := scenarioSchedule(zone)
			tt.change(&s)
			first, last, now := mon, mon, tt.now
			if tt.first != "" {
				first, last = tt.first, tt.last
			}
			if now.IsZero() {
				now = in("2026-03-01 00:00")
			}
			got := Slots(s, mustDate(t, first), mustDate(t, last), now)
			var gotShort []string
			for _, sl := range got {
				gotShort = append(gotShort, short(sl))
			}
			var want []string
			for _, w := range tt.want {
				if len(w) < len(mon) || w[:4] != "2026" {
					w = mon + " " + w
				}
				want = append(want, w)
			}
			if !slices.Equal(gotShort, want) {
				t.Errorf("got %s\nwant %s", join(gotShort), join(want))
			}
		})
	}
}

// overnight makes Ana (and the location) work Monday 22:00–24:00 and Tuesday
// 00:00–02:00, and books three hours, which only fits across midnight.
func overnight(s *Schedule) {
	s.Hours = []WeeklyHours{{time.Monday, hm("22:00"), 1440}, {time.Tuesday, 0, hm("02:00")}}
	s.Providers[0].Shifts = []Shift{{Weekday: time.Monday, Open: hm("22:00"), Close: 1440}, {Weekday: time.Tuesday, Open: 0, Close: hm("02:00")}}
	s.Service.Duration = 3 * time.Hour
}
