package importer

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/booking"
)

// dayIDs are the weekday names of the format and the schema's day_id (0 = Sunday).
var dayIDs = map[string]int64{
	"sunday": 0, "monday": 1, "tuesday": 2, "wednesday": 3, "thursday": 4, "friday": 5, "saturday": 6,
}

// weekOffsets maps the weekday names accepted in relative dates to days after Monday.
var weekOffsets = map[string]int{
	"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6,
	"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6,
}

func parseDay(s string) (int64, error) {
	if d, ok := dayIDs[s]; ok {
		return d, nil
	}
	return 0, fmt.Errorf("%q is not a weekday (want monday … sunday, lower case)", s)
}

// parseClock reads a wall time "HH:MM" as minutes since midnight; "24:00" (1440) only when
// allow24 is set, for the end of a range.
func parseClock(s string, allow24 bool) (int64, error) {
	bad := fmt.Errorf("%q is not a time (want HH:MM)", s)
	if len(s) != 5 || s[2] != ':' || !digits(s[:2]) || !digits(s[3:]) {
		return 0, bad
	}
	h, _ := strconv.Atoi(s[:2])
	m, _ := strconv.Atoi(s[3:])
	switch {
	case h == 24 && m == 0 && allow24:
		return 1440, nil
	case h == 24 && m == 0:
		return 0, fmt.Errorf("%q is not a start time (24:00 only ends a range)", s)
	case h > 23 || m > 59:
		return 0, bad
	}
	return int64(h*60 + m), nil
}

func digits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// resolveDate reads a date: "2026-12-24", or relative to today (the import date in the zone
// that applies): "+3d" / "-2d" (days from today) or "+1w mon" / "-2w fri" (that weekday in the
// calendar week, Monday to Sunday, N weeks from this one).
func resolveDate(s string, today booking.Date) (booking.Date, error) {
	bad := fmt.Errorf(`%q is not a date (want YYYY-MM-DD, "+3d" or "+1w mon")`, s)
	if s == "" || (s[0] != '+' && s[0] != '-') {
		d, err := booking.ParseDate(s)
		if err != nil || !d.IsValid() {
			return booking.Date{}, bad
		}
		return d, nil
	}
	sign := 1
	if s[0] == '-' {
		sign = -1
	}
	num, rest, _ := strings.Cut(s[1:], " ")
	if len(num) < 2 || len(num) > 4 || !digits(num[:len(num)-1]) {
		return booking.Date{}, bad
	}
	n, _ := strconv.Atoi(num[:len(num)-1])
	switch unit := num[len(num)-1]; {
	case unit == 'd' && rest == "":
		return today.AddDays(sign * n), nil
	case unit == 'w':
		off, ok := weekOffsets[rest]
		if !ok {
			return booking.Date{}, fmt.Errorf("%q: %q is not a weekday (want mon … sun)", s, rest)
		}
		monday := today.AddDays(-((int(today.Weekday()) + 6) % 7))
		return monday.AddDays(sign*7*n + off), nil
	}
	return booking.Date{}, bad
}

// moment is a parsed "start", "end", "from" or "to": an instant, or a whole local date.
type moment struct {
	At    time.Time
	Day   booking.Date
	IsDay bool
}

const momentHelp = `want "YYYY-MM-DDTHH:MM" local time, RFC 3339 with an offset, or relative like "+3d 10:00" or "+1w mon 10:00"`

// parseMoment reads a point in time for zone: an RFC 3339 instant with an offset
// ("2026-12-01T10:00-03:00", seconds optional), a local wall time "2026-12-01T10:00" or
// "<date> HH:MM" with any date resolveDate accepts, or a date alone (a whole day). A local time
// that a spring-forward skips is refused; one a fall-back repeats means its first occurrence.
func parseMoment(s string, zone *time.Location, now time.Time) (moment, error) {
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return moment{At: t}, nil
		}
	}
	datePart, clockPart := s, ""
	if i := strings.LastIndexByte(s, ' '); i > 0 {
		if strings.Contains(s[i+1:], ":") { // "+3d 10:00", "+1w mon 10:00", "2026-12-01 10:00"
			datePart, clockPart = s[:i], s[i+1:]
		}
	} else if d, c, ok := strings.Cut(s, "T"); ok { // "2026-12-01T10:00"
		datePart, clockPart = d, c
	}
	day, err := resolveDate(datePart, booking.DateOf(now.In(zone)))
	if err != nil {
		if strings.HasPrefix(datePart, "+") || strings.HasPrefix(datePart, "-") {
			return moment{}, err
		}
		return moment{}, fmt.Errorf("%q is not a time (%s)", s, momentHelp)
	}
	if clockPart == "" {
		return moment{Day: day, IsDay: true}, nil
	}
	minute, err := parseClock(clockPart, false)
	if err != nil {
		return moment{}, err
	}
	instants := booking.Instants(zone, day, int(minute))
	if len(instants) == 0 {
		return moment{}, fmt.Errorf("%sT%s does not exist in %s (the clocks skip it)", day, clockPart, zone)
	}
	return moment{At: instants[0]}, nil
}

// startOfDay is the first instant of local date d in zone, which is not always midnight: a
// Santiago spring-forward skips 00:00–00:59.
func startOfDay(zone *time.Location, d booking.Date) time.Time {
	for minute := 0; minute < 1440; minute++ {
		if ins := booking.Instants(zone, d, minute); len(ins) > 0 {
			return ins[0]
		}
	}
	panic("importer: a day without a single local minute in " + zone.String())
}

// stamp formats an instant in a zone the way error messages and the docs show times.
func stamp(t time.Time, zone *time.Location) string {
	return t.In(zone).Format("2006-01-02T15:04Z07:00")
}
