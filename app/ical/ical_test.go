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
