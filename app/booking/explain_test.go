package booking

import (
	"testing"
	"time"
)

// TestExplain asks about one start per rule on the scenario schedule (Ana,
// Monday 2026-03-02 in Berlin, location 09:00–13:00, shift 09:00–12:00).
func TestExplain(t *testing.T) {
	zone := mustZone(t, "Europe/Berlin")
	in := func(s string) time.Time { return at(t, zone, s) }
	ana := func(s *Schedule) *Provider { return &s.Providers[0] }
	const mon = "2026-03-02"
	tests := []struct {
		name     string
		change   func(s *Schedule)
		provider int64     // default 1 (Ana)
		start    time.Time // default Monday 10:00
		now      time.Time // default the day before
		want     ReasonCode
	}{
		{name: "offered", want: ReasonOK},
		{name: "holiday", change: func(s *Schedule) { s.Closures = []Date{mustDate(t, mon)} }, want: ReasonClosed},
		{name: "weekday without hours", start: in("2026-03-03 10:00"), want: ReasonClosed},
		{name: "closed beats booked", change: func(s *Schedule) {
			s.Closures = []Date{mustDate(t, mon)}
			ana(s).Busy = []Interval{{in(mon + " 10:00"), in(mon + " 11:00")}}
		}, want: ReasonClosed},
		{name: "location opens later", change: func(s *Schedule) { s.Hours[0].Open = hm("10:00") }, start: in(mon + " 09:00"), want: ReasonOutsideHours},
		{name: "buffer before opening", change: func(s *Schedule) { s.Service.BufferBefore = 15 * time.Minute }, start: in(mon + " 09:00"), want: ReasonOutsideHours},
		{name: "shift ends before the service", start: in(mon + " 11:30"), want: ReasonNotWorking},
		{name: "break", change: func(s *Schedule) { ana(s).Shifts[0].Breaks = []Break{{hm("10:00"), hm("10:30")}} }, start: in(mon + " 09:30"), want: ReasonBreak},
		{name: "off the grid", start: in(mon + " 10:10"), want: ReasonOffGrid},
		{name: "fraction of a second off the grid", start: in(mon + " 10:00").Add(time.Millisecond), want: ReasonOffGrid},
		{name: "time off", change: func(s *Schedule) { ana(s).TimeOff = []Interval{{in(mon + " 10:45"), in(mon + " 11:15")}} }, start: in(mon + " 10:30"), want: ReasonTimeOff},
		{name: "booked elsewhere", change: func(s *Schedule) { ana(s).Busy = []Interval{{in(mon + " 10:00"), in(mon + " 11:00")}} }, start: in(mon + " 10:30"), want: ReasonBooked},
		{name: "booking starts mid-appointment", change: func(s *Schedule) { ana(s).Busy = []Interval{{in(mon + " 10:30"), in(mon + " 11:00")}} }, want: ReasonBooked},
		{name: "booking ends half a second into the slot", change: func(s *Schedule) {
			ana(s).Busy = []Interval{{in(mon + " 09:00"), in(mon + " 10:00").Add(time.Second / 2)}}
		}, want: ReasonBooked},
		{name: "booking ends as the slot starts", change: func(s *Schedule) { ana(s).Busy = []Interval{{in(mon + " 09:00"), in(mon + " 10:00")}} }, want: ReasonOK},
		{name: "buffer after collides", change: func(s *Schedule) {
			s.Service.BufferAfter = 30 * time.Minute
			ana(s).Busy = []Interval{{in(mon + " 11:30"), in(mon + " 12:00")}}
		}, start: in(mon + " 10:30"), want: ReasonBuffer},
		{name: "buffer before collides", change: func(s *Schedule) {
			s.Service.BufferBefore = 15 * time.Minute
			ana(s).Busy = []Interval{{in(mon + " 09:00"), in(mon + " 09:50")}}
		}, want: ReasonBuffer},
		{name: "too soon", change: func(s *Schedule) { s.Policy.MinNotice = 2 * time.Hour }, now: in(mon + " 08:30"), want: ReasonNotice},
		{name: "in the past", now: in(mon + " 10:00").Add(time.Second), want: ReasonNotice},
		{name: "exactly at the notice", change: func(s *Schedule) { s.Policy.MinNotice = 2 * time.Hour }, now: in(mon + " 08:00"), want: ReasonOK},
		{name: "too far ahead", change: func(s *Schedule) { s.Policy.MaxAdvance = 24 * time.Hour }, now: in("2026-03-01 09:59"), want: ReasonBeyondAdvance},
		{name: "exactly at the advance limit", change: func(s *Schedule) { s.Policy.MaxAdvance = 24 * time.Hour }, now: in("2026-03-01 10:00"), want: ReasonOK},
		{name: "service not offered", change: func(s *Schedule) { ana(s).OffersService = false }, want: ReasonServiceNotOffered},
		{name: "unknown provider", provider: 99, want: ReasonUnknownProvider},
		{name: "invalid schedule", change: func(s *Schedule) { s.Service.Duration = 0 }, want: ReasonInvalidSchedule},
		{name: "overnight start", change: overnight, start: in(mon + " 23:00"), want: ReasonOK},
		{name: "overnight past closing", change: overnight, start: in(mon + " 23:30"), want: ReasonOutsideHours},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := scenarioSchedule(zone)
			if tt.change != nil {
				tt.change(&s)
			}
			provider, start, now := tt.provider, tt.start, tt.now
			if provider == 0 {
				provider = 1
			}
			if start.IsZero() {
				start = in(mon + " 10:00")
			}
			if now.IsZero() {
				now = in("2026-03-01 00:00")
			}
			got := Explain(s, provider, start, now)
			if got.Code != tt.want || got.Message == "" {
				t.Errorf("got %s (%q), want %s with a message", got.Code, got.Message, tt.want)
			}
		})
	}
}

// TestExplainRepeatedHour asks about both 02:30s of Berlin's fall-back day:
// each is its own instant and both are offered.
func TestExplainRepeatedHour(t *testing.T) {
	zone := mustZone(t, "Europe/Berlin")
	s := Schedule{Zone: zone, Hours: allDay(), Service: Service{Duration: time.Hour}, Policy: Policy{Step: 30 * time.Minute},
		Providers: []Provider{{ID: 1, Name: "Ana", OffersService: true, Shifts: everyDay(hm("01:00"), hm("04:00"))}}}
	starts := Instants(zone, mustDate(t, "2026-10-25"), hm("02:30"))
	if len(starts) != 2 {
		t.Fatalf("got %d instants for 02:30, want 2", len(starts))
	}
	tests := []struct {
		name  string
		start time.Time
		want  ReasonCode
	}{
		{"first 02:30", starts[0], ReasonOK},
		{"second 02:30", starts[1], ReasonOK},
		{"second 03:30 overruns the shift", starts[1].Add(time.Hour), ReasonNotWorking},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Explain(s, 1, tt.start, time.Time{}); got.Code != tt.want {
				t.Errorf("got %s (%s), want %s", got.Code, got.Message, tt.want)
			}
		})
	}
}
