package importer

import (
	"testing"
	"time"

	"frontdesk/app/booking"
)

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	z, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return z
}

func TestResolveDate(t *testing.T) {
	saturday := booking.Date{Year: 2026, Month: 11, Day: 21}
	tests := []struct {
		in, want string
	}{
		{"2026-12-24", "2026-12-24"},
		{"+0d", "2026-11-21"},
		{"+3d", "2026-11-24"},
		{"-2d", "2026-11-19"},
		{"+0w mon", "2026-11-16"}, // the current week began on Monday the 16th
		{"+0w sun", "2026-11-22"},
		{"+1w mon", "2026-11-23"},
		{"+1w friday", "2026-11-27"},
		{"-1w sat", "2026-11-14"},
		{"+52w mon", "2027-11-15"},
	}
	for _, tt := range tests {
		got, err := resolveDate(tt.in, saturday)
		if err != nil || got.String() != tt.want {
			t.Errorf("resolveDate(%q): got %v, %v, want %s", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "2026-02-30", "26-12-24", "+d", "+3x", "3d", "+1w", "+1w xyz", "+3d mon", "+12345d", "+1.5d"} {
		if got, err := resolveDate(bad, saturday); err == nil {
			t.Errorf("resolveDate(%q): got %v, want an error", bad, got)
		}
	}
}

func TestParseMoment(t *testing.T) {
	santiago, newYork := mustZone(t, "America/Santiago"), mustZone(t, "America/New_York")
	tests := []struct {
		name string
		in   string
		zone *time.Location
		want string // the instant in UTC, or "day YYYY-MM-DD"
	}{
		{"local time", "2026-12-01T10:00", santiago, "2026-12-01T13:00:00Z"},
		{"date and time with a space", "2026-12-01 10:00", santiago, "2026-12-01T13:00:00Z"},
		{"RFC 3339 without seconds", "2026-12-01T10:00-05:00", santiago, "2026-12-01T15:00:00Z"},
		{"RFC 3339 with seconds", "2026-12-01T10:00:30Z", santiago, "2026-12-01T10:00:30Z"},
		{"relative days", "+8d 09:30", santiago, "2026-12-01T12:30:00Z"},
		{"relative week", "+1w tue 09:30", santiago, "2026-12-01T12:30:00Z"},
		{"whole day", "2026-12-24", santiago, "day 2026-12-24"},
		{"relative whole day", "-1w mon", santiago, "day 2026-11-16"},
		{"fall-back repeats 01:30: the first one", "2026-11-01T01:30", newYork, "2026-11-01T05:30:00Z"},
		{"day of a fall-back in Santiago", "2026-04-04T23:30", santiago, "2026-04-05T02:30:00Z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := parseMoment(tt.in, tt.zone, testNow)
			if err != nil {
				t.Fatal(err)
			}
			got := m.At.UTC().Format(time.RFC3339)
			if m.IsDay {
				got = "day " + m.Day.String()
			}
			if got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	for _, bad := range []string{"2026-09-06T00:30", "2026-12-01T24:00", "2026-12-01T9:00", "soon", "2026-12-01T10:00:00", "+1w mon 10"} {
		if m, err := parseMoment(bad, santiago, testNow); err == nil {
			t.Errorf("parseMoment(%q): got %+v, want an error", bad, m)
		}
	}
}

// A Santiago spring-forward skips midnight, so that day starts at 01:00.
func TestStartOfDay(t *testing.T) {
	santiago := mustZone(t, "America/Santiago")
	tests := []struct {
		day  booking.Date
		want string
	}{
		{booking.Date{Year: 2026, Month: 9, Day: 6}, "2026-09-06T01:00:00-03:00"},
		{booking.Date{Year: 2026, Month: 12, Day: 1}, "2026-12-01T00:00:00-03:00"},
		{booking.Date{Year: 2026, Month: 7, Day: 1}, "2026-07-01T00:00:00-04:00"},
	}
	for _, tt := range tests {
		if got := startOfDay(santiago, tt.day).Format(time.RFC3339); got != tt.want {
			t.Errorf("startOfDay(%s): got %s, want %s", tt.day, got, tt.want)
		}
	}
}

func TestParseClock(t *testing.T) {
	for in, want := range map[string]int64{"00:00": 0, "09:30": 570, "23:59": 1439} {
		if got, err := parseClock(in, false); err != nil || got != want {
			t.Errorf("parseClock(%q): got %d, %v, want %d", in, got, err, want)
		}
	}
	if got, err := parseClock("24:00", true); err != nil || got != 1440 {
		t.Errorf(`parseClock("24:00", end): got %d, %v, want 1440`, got, err)
	}
	for _, bad := range []string{"24:00", "25:00", "12:60", "9:00", "09:0", " 9:00", "ab:cd", "+9:00", ""} {
		if got, err := parseClock(bad, false); err == nil {
			t.Errorf("parseClock(%q): got %d, want an error", bad, got)
		}
	}
}
