package mcp

import (
	"strings"
	"testing"

	"frontdesk/app/booking"
)

func TestResolveDate(t *testing.T) {
	monday := booking.Date{Year: 2026, Month: 11, Day: 23} // a Monday
	friday := booking.Date{Year: 2026, Month: 11, Day: 27}
	cases := []struct {
		phrase string
		today  booking.Date
		want   string
		minute int    // -1: no time
		note   string // a substring the note must contain ("" = no note)
	}{
		{"today", monday, "2026-11-23", -1, ""},
		{"Tomorrow", monday, "2026-11-24", -1, ""},
		{"tomorrow at 5pm", monday, "2026-11-24", 17 * 60, ""},
		{"tomorrow at 5:30 p.m.", monday, "2026-11-24", 17*60 + 30, ""},
		{"tomorrow morning", monday, "2026-11-24", -1, ""},
		{"the day after tomorrow", monday, "2026-11-25", -1, ""},
		{"mañana", monday, "2026-11-24", -1, ""},
		{"manana", monday, "2026-11-24", -1, ""},
		{"mañana por la mañana", monday, "2026-11-24", -1, ""},
		{"mañana a las 17:00", monday, "2026-11-24", 17 * 60, ""},
		{"mañana a las 5", monday, "2026-11-24", 5 * 60, "05:00 or 17:00"},
		{"pasado mañana", monday, "2026-11-25", -1, ""},
		{"hoy", monday, "2026-11-23", -1, ""},
		{"Tuesday", monday, "2026-11-24", -1, ""},
		{"on Tuesday", monday, "2026-11-24", -1, ""},
		{"this Tuesday", monday, "2026-11-24", -1, ""},
		{"Monday", monday, "2026-11-23", -1, "next week's is 2026-11-30"},
		{"next Tuesday", monday, "2026-11-24", -1, "2026-12-01"},
		{"next Tuesday", friday, "2026-12-01", -1, ""},
		{"next Monday", monday, "2026-11-30", -1, ""},
		{"Tuesday next week", monday, "2026-12-01", -1, ""},
		{"tuesday after next", monday, "2026-12-01", -1, ""},
		{"el martes", monday, "2026-11-24", -1, ""},
		{"el próximo martes", monday, "2026-11-24", -1, "2026-12-01"},
		{"el martes que viene", friday, "2026-12-01", -1, ""},
		{"el martes de la semana que viene", monday, "2026-12-01", -1, ""},
		{"el sábado", monday, "2026-11-28", -1, ""},
		{"miércoles", monday, "2026-11-25", -1, ""},
		{"in 3 days", monday, "2026-11-26", -1, ""},
		{"in two weeks", monday, "2026-12-07", -1, ""},
		{"a week from today", monday, "2026-11-30", -1, ""},
		{"en 3 días", monday, "2026-11-26", -1, ""},
		{"dentro de dos semanas", monday, "2026-12-07", -1, ""},
		{"next week", friday, "2026-11-30", -1, "which day"},
		{"la semana que viene", monday, "2026-11-30", -1, "which day"},
		{"this weekend", monday, "2026-11-28", -1, "Saturday"},
		{"2027-04-03", monday, "2027-04-03", -1, ""},
		{"April 4", monday, "2027-04-04", -1, ""},
		{"april 4th", monday, "2027-04-04", -1, ""},
		{"4th of April", monday, "2027-04-04", -1, ""},
		{"December 24", monday, "2026-12-24", -1, ""},
		{"Saturday April 3 2027", monday, "2027-04-03", -1, ""},
		{"Sunday April 3 2027", monday, "2027-04-03", -1, "is a Saturday, not a Sunday"},
		{"4 de abril", monday, "2027-04-04", -1, ""},
		{"el 3 de abril de 2027", monday, "2027-04-03", -1, ""},
		{"sábado 3 de abril", monday, "2027-04-03", -1, ""},
		{"25/12", monday, "2026-12-25", -1, ""},
		{"12/25", monday, "2026-12-25", -1, ""},
		{"29 February", monday, "2028-02-29", -1, ""},
		{"yesterday", monday, "2026-11-22", -1, "in the past"},
		{"March 1 2020", monday, "2020-03-01", -1, "in the past"},
	}
	for _, c := range cases {
		t.Run(c.phrase, func(t *testing.T) {
			got, err := resolveDate(c.phrase, c.today)
			if err != nil {
				t.Fatalf("resolveDate(%q): %v", c.phrase, err)
			}
			if got.Date.String() != c.want || got.Minute != c.minute {
				t.Fatalf("resolveDate(%q) = %s minute %d, want %s minute %d", c.phrase, got.Date, got.Minute, c.want, c.minute)
			}
			if c.note == "" && got.Note != "" || !strings.Contains(got.Note, c.note) {
				t.Fatalf("resolveDate(%q) note %q, want one containing %q", c.phrase, got.Note, c.note)
			}
		})
	}
}

func TestResolveDateRefuses(t *testing.T) {
	monday := booking.Date{Year: 2026, Month: 11, Day: 23}
	for _, c := range []struct{ phrase, want string }{
		{"", "is empty"},
		{"next blursday", "not a date I understand"},
		{"4/5", "could be 4 May 2027 (2027-05-04) or 5 April 2027 (2027-04-05)"},
		{"February 30", "not a date I understand"},
		{"2026-02-30", "not a date I understand"},
		{"13/13", "not a date I understand"},
		{"in -3 days", "not a date I understand"},
		{"in 99999 days", "not a date I understand"},
		{strings.Repeat("tomorrow ", 200), "not a date I understand"},
	} {
		t.Run(c.phrase, func(t *testing.T) {
			got, err := resolveDate(c.phrase, monday)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("resolveDate(%q) = %v, %v; want an error containing %q", c.phrase, got.Date, err, c.want)
			}
		})
	}
}
