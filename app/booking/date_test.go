package booking

import (
	"testing"
	"time"
)

func TestParseDate(t *testing.T) {
	tests := []struct {
		in      string
		want    Date
		wantErr bool
	}{
		{in: "2026-03-29", want: Date{2026, time.March, 29}},
		{in: "2028-02-29", want: Date{2028, time.February, 29}},
		{in: "2026-02-29", wantErr: true},
		{in: "2026-3-9", wantErr: true},
		{in: "2026-03-29T00:00:00Z", wantErr: true},
		{in: "", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseDate(tt.in)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("got %v, %v; want %v, error %v", got, err, tt.want, tt.wantErr)
			}
			if err == nil && got.String() != tt.in {
				t.Errorf("got String %s, want %s", got, tt.in)
			}
		})
	}
}

func TestDateArithmetic(t *testing.T) {
	tests := []struct {
		name    string
		from    Date
		days    int
		want    Date
		weekday time.Weekday // of want
	}{
		{"next day", Date{2026, time.March, 2}, 1, Date{2026, time.March, 3}, time.Tuesday},
		{"leap day", Date{2028, time.February, 28}, 1, Date{2028, time.February, 29}, time.Tuesday},
		{"year end", Date{2026, time.December, 31}, 1, Date{2027, time.January, 1}, time.Friday},
		{"backwards over a month", Date{2026, time.March, 1}, -1, Date{2026, time.February, 28}, time.Saturday},
		{"before 1970", Date{1969, time.December, 31}, 0, Date{1969, time.December, 31}, time.Wednesday},
		{"far", Date{2026, time.January, 1}, 1095, Date{2028, time.December, 31}, time.Sunday},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.from.AddDays(tt.days)
			if got != tt.want || got.Weekday() != tt.weekday {
				t.Errorf("got %v (%v), want %v (%v)", got, got.Weekday(), tt.want, tt.weekday)
			}
			if back := dateFromUnixDay(got.unixDay()); back != got {
				t.Errorf("got %v from the day number, want %v", back, got)
			}
			if c := tt.from.Compare(got); (c < 0) != (tt.days > 0) || (c == 0) != (tt.days == 0) {
				t.Errorf("got Compare %d for %d days, want its sign", c, tt.days)
			}
		})
	}
}

func TestDateIsValid(t *testing.T) {
	tests := []struct {
		d    Date
		want bool
	}{
		{Date{2026, time.April, 30}, true},
		{Date{2026, time.April, 31}, false},
		{Date{2026, 13, 1}, false},
		{Date{}, false},
	}
	for _, tt := range tests {
		if got := tt.d.IsValid(); got != tt.want {
			t.Errorf("%+v: got %v, want %v", tt.d, got, tt.want)
		}
	}
}

// TestInstants checks the wall-time resolver the engine relies on, where
// time.Date would silently pick one answer.
func TestInstants(t *testing.T) {
	tests := []struct {
		name, zone, date, wall string
		want                   []string
	}{
		{"ordinary", "Europe/Berlin", "2026-03-02", "10:00", []string{"2026-03-02T10:00:00+01:00"}},
		{"spring-forward gap", "Europe/Berlin", "2026-03-29", "02:30", nil},
		{"fall-back overlap", "Europe/Berlin", "2026-10-25", "02:30", []string{"2026-10-25T02:30:00+02:00", "2026-10-25T02:30:00+01:00"}},
		{"missing midnight", "America/Santiago", "2026-09-06", "00:00", nil},
		{"repeated hour before midnight", "America/Santiago", "2026-04-04", "23:15", []string{"2026-04-04T23:15:00-03:00", "2026-04-04T23:15:00-04:00"}},
		{"half-hour gap", "Australia/Lord_Howe", "2026-10-04", "02:15", nil},
		{"half-hour overlap", "Australia/Lord_Howe", "2026-04-05", "01:45", []string{"2026-04-05T01:45:00+11:00", "2026-04-05T01:45:00+10:30"}},
		{"two-hour gap", "Antarctica/Troll", "2026-03-29", "02:00", nil},
		{"quarter-hour offset", "Asia/Kathmandu", "2026-03-29", "00:00", []string{"2026-03-29T00:00:00+05:45"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			zone := mustZone(t, tt.zone)
			var got []string
			for _, in := range Instants(zone, mustDate(t, tt.date), hm(tt.wall)) {
				if in.Location() != zone {
					t.Errorf("got location %v, want %v", in.Location(), zone)
				}
				got = append(got, in.Format(time.RFC3339))
			}
			if join(got) != join(tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	zone := mustZone(t, "Europe/Berlin")
	tests := []struct {
		name    string
		change  func(s *Schedule)
		wantErr bool
	}{
		{"scenario is valid", func(*Schedule) {}, false},
		{"no zone", func(s *Schedule) { s.Zone = nil }, true},
		{"zero duration", func(s *Schedule) { s.Service.Duration = 0 }, true},
		{"duration in seconds", func(s *Schedule) { s.Service.Duration = 90 * time.Second }, true},
		{"negative buffer", func(s *Schedule) { s.Service.BufferAfter = -time.Minute }, true},
		{"negative notice", func(s *Schedule) { s.Policy.MinNotice = -time.Minute }, true},
		{"hours past midnight", func(s *Schedule) { s.Hours[0].Close = 1441 }, true},
		{"empty shift", func(s *Schedule) { s.Providers[0].Shifts[0].Close = s.Providers[0].Shifts[0].Open }, true},
		{"bad weekday", func(s *Schedule) { s.Providers[0].Shifts[0].Weekday = 7 }, true},
		{"backwards break", func(s *Schedule) { s.Providers[0].Shifts[0].Breaks = []Break{{600, 540}} }, true},
		{"bad closure", func(s *Schedule) { s.Closures = []Date{{2026, 2, 30}} }, true},
		{"duplicate provider", func(s *Schedule) { s.Providers = append(s.Providers, s.Providers[0]) }, true},
		{"backwards booking", func(s *Schedule) {
			s.Providers[0].Busy = []Interval{{time.Unix(100, 0), time.Unix(50, 0)}}
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := scenarioSchedule(zone)
			tt.change(&s)
			err := s.Validate()
			if (err != nil) != tt.wantErr {
				t.Errorf("got error %v, want error %v", err, tt.wantErr)
			}
			if slots := Slots(s, mustDate(t, "2026-03-02"), mustDate(t, "2026-03-02"), time.Time{}); tt.wantErr && len(slots) > 0 {
				t.Errorf("got %d slots for an invalid schedule, want none", len(slots))
			}
		})
	}
}
