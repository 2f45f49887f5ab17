package booking

import (
	"cmp"
	"fmt"
	"time"
)

// Date is a civil date with no zone. Schedules are defined per local date
// (closures, the range of a query, the date of a slot), and carrying a
// time.Time for them invites reading the date in the wrong zone.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

const dateLayout = "2006-01-02"

// ParseDate parses a strict YYYY-MM-DD date, as used by the API.
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(dateLayout, s)
	if d := DateOf(t); err == nil && d.IsValid() {
		return d, nil
	}
	return Date{}, fmt.Errorf("parse date %q: want YYYY-MM-DD", s)
}

// DateOf returns the date of t in t's own location; convert t with In first
// to get the date somewhere else.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{y, m, d}
}

// String formats d as YYYY-MM-DD.
func (d Date) String() string {
	return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day)
}

// IsValid reports whether d names a real day (no 2026-02-30, no zero Date).
func (d Date) IsValid() bool {
	return d.Year >= 1 && d.Year <= 9999 && DateOf(d.utc()) == d
}

// AddDays returns the date n days after d (n may be negative).
func (d Date) AddDays(n int) Date {
	return DateOf(time.Date(d.Year, d.Month, d.Day+n, 0, 0, 0, 0, time.UTC))
}

// Weekday returns d's day of the week.
func (d Date) Weekday() time.Weekday { return weekdayOf(d.unixDay()) }

// Compare returns -1, 0 or +1 as d is before, equal to or after e.
func (d Date) Compare(e Date) int {
	if c := cmp.Compare(d.Year, e.Year); c != 0 {
		return c
	}
	if c := cmp.Compare(d.Month, e.Month); c != 0 {
		return c
	}
	return cmp.Compare(d.Day, e.Day)
}

// Before reports whether d is earlier than e.
func (d Date) Before(e Date) bool { return d.Compare(e) < 0 }

// After reports whether d is later than e.
func (d Date) After(e Date) bool { return d.Compare(e) > 0 }

func (d Date) utc() time.Time { return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC) }

// unixDay numbers days from 1970-01-01. The engine iterates and does wall-clock
// arithmetic on these numbers: day n's local midnight is n*secondsPerDay in
// "local seconds" (Unix seconds as if the zone were UTC).
func (d Date) unixDay() int64 { return floorDiv(d.utc().Unix(), secondsPerDay) }

func dateFromUnixDay(n int64) Date { return DateOf(time.Unix(n*secondsPerDay, 0).UTC()) }

// weekdayOf works on day numbers: 1970-01-01 was a Thursday.
func weekdayOf(unixDay int64) time.Weekday {
	return time.Weekday((unixDay%7 + 7 + 4) % 7)
}

const secondsPerDay = 24 * 60 * 60

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}
