package ical

import (
	"bytes"
	"strings"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"
)

// The file parses with an independent iCalendar library to the same instants, texts and
// identity, including folding of long non-ASCII text and escaping.
func TestCalendarParses(t *testing.T) {
	santiago, _ := time.LoadLocation("America/Santiago")
	start := time.Date(2026, 4, 4, 23, 30, 0, 0, santiago) // the night Chile falls back
	e := Event{
		UID: "booking-812@example.com", Sequence: 3,
		Start: start, End: start.Add(90 * time.Minute), Stamp: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC),
		Summary:     "Corte de pelo; lavado, y peinado \\ con Ñandú — " + strings.Repeat("é", 60),
		Location:    "Av. Providencia 1234, Santiago",
		Description: "Line one\nLine two",
		URL:         "https://example.com/manage/abc",
		Cancelled:   true,
	}
	raw := Calendar(e)
	for i, line := range bytes.Split(raw, []byte("\r\n")) {
		if len(line) > 75 {
			t.Errorf("line %d is %d octets, want at most 75", i, len(line))
		}
	}
	cal, err := ics.ParseCalendar(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, raw)
	}
	if m := cal.CalendarProperties; len(m) == 0 {
		t.Fatalf("no calendar properties")
	}
	events := cal.Events()
	if len(events) != 1 {
		t.Fatalf("%d events, want 1", len(events))
	}
	ev := events[0]
	gotStart, err := ev.GetStartAt()
	if err != nil || !gotStart.Equal(start) {
		t.Errorf("DTSTART = %v (%v), want %v", gotStart, err, start.UTC())
	}
	gotEnd, err := ev.GetEndAt()
	if err != nil || !gotEnd.Equal(e.End) {
		t.Errorf("DTEND = %v (%v), want %v", gotEnd, err, e.End.UTC())
	}
	checks := map[ics.ComponentProperty]string{
		ics.ComponentPropertyUniqueId:    e.UID,
		ics.ComponentPropertySequence:    "3",
		ics.ComponentPropertySummary:     e.Summary,
		ics.ComponentPropertyLocation:    e.Location,
		ics.ComponentPropertyDescription: e.Description,
		ics.ComponentPropertyStatus:      "CANCELLED",
	}
	for prop, want := range checks {
		p := ev.GetProperty(prop)
		if p == nil || p.Value != want {
			t.Errorf("%s = %+v, want %q", prop, p, want)
		}
	}
	if !bytes.Contains(raw, []byte("METHOD:PUBLISH\r\n")) {
		t.Errorf("no METHOD:PUBLISH")
	}
}

// A CalDAV calendar object: no METHOD (RFC 4791 §4.1), the event's local times with the zone's
// TZID and a VTIMEZONE that an independent library reads back to the same instants; without a
// zone, or in UTC, the times are UTC.
func TestObjectLocalTimes(t *testing.T) {
	santiago, _ := time.LoadLocation("America/Santiago")
	start := time.Date(2027, 4, 3, 21, 0, 0, 0, santiago) // Chile falls back at midnight: 23:00–24:00 happens twice
	e := Event{UID: "booking-9@x.frontdesk", Sequence: 2, Start: start, End: start.Add(150 * time.Minute),
		Stamp: time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC), Summary: "Haircut · Maria"}
	raw := string(Object(e, santiago))
	for _, want := range []string{"BEGIN:VTIMEZONE", "TZID:America/Santiago", "DTSTART;TZID=America/Santiago:20270403T210000",
		"SEQUENCE:2", "SUMMARY:Haircut · Maria"} {
		if !strings.Contains(raw, want) {
			t.Errorf("object lacks %q:\n%s", want, raw)
		}
	}
	if strings.Contains(raw, "METHOD:") {
		t.Errorf("a calendar object carries METHOD:\n%s", raw)
	}
	// 23:30 on 3 April is shown twice by Santiago's clocks: written in UTC.
	if !strings.Contains(raw, "DTEND:20270404T023000Z") {
		t.Errorf("the ambiguous end is not in UTC:\n%s", raw)
	}
	cal, err := ics.ParseCalendar(strings.NewReader(raw))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, raw)
	}
	got, err := cal.Events()[0].GetStartAt()
	if err != nil || !got.Equal(start) {
		t.Errorf("start read back as %v (%v), want %v", got, err, start)
	}
	for _, zone := range []*time.Location{nil, time.UTC} {
		if raw := string(Object(e, zone)); strings.Contains(raw, "VTIMEZONE") || !strings.Contains(raw, "DTSTART:20270404T000000Z") {
			t.Errorf("zone %v: want UTC times and no VTIMEZONE:\n%s", zone, raw)
		}
	}
}
