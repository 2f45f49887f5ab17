package ical

import (
	"bytes"
	"strings"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"
)

// A feed in America/Santiago over both of its 2026 clock changes parses with an independent
// library to the written instants; times are local with the zone's TZID, except the hour the
// clocks show twice, which is written in UTC; the VTIMEZONE names each change.
func TestFeedLocalTimesAcrossDST(t *testing.T) {
	santiago, err := time.LoadLocation("America/Santiago")
	if err != nil {
		t.Fatal(err)
	}
	// Clocks go back at 00:00 on 5 April 2026 (to 23:00 on the 4th) and forward at 00:00 on
	// 6 September (to 01:00).
	starts := []time.Time{
		time.Date(2026, 4, 4, 10, 0, 0, 0, santiago),
		time.Date(2026, 4, 5, 2, 30, 0, 0, time.UTC), // 23:30 the first time (-03)
		time.Date(2026, 4, 5, 3, 30, 0, 0, time.UTC), // 23:30 the second time (-04)
		time.Date(2026, 4, 6, 10, 0, 0, 0, santiago),
		time.Date(2026, 9, 5, 10, 0, 0, 0, santiago),
		time.Date(2026, 9, 6, 1, 30, 0, 0, santiago),
		time.Date(2026, 9, 7, 10, 0, 0, 0, santiago),
	}
	var out bytes.Buffer
	f := NewFeed(&out, FeedHeader{Name: "Ana", Zone: santiago, Refresh: time.Hour,
		From: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), To: time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC)})
	for i, s := range starts {
		f.Event(Event{UID: "b" + string(rune('a'+i)), Start: s, End: s.Add(45 * time.Minute), Stamp: s, Summary: "x"})
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	raw := out.String()
	cal, err := ics.ParseCalendar(strings.NewReader(raw))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, raw)
	}
	events := cal.Events()
	if len(events) != len(starts) {
		t.Fatalf("%d events, want %d", len(events), len(starts))
	}
	for i, ev := range events {
		got, err := ev.GetStartAt()
		if err != nil || !got.Equal(starts[i]) {
			t.Errorf("event %d starts %v (%v), want %v", i, got, err, starts[i])
		}
		end, err := ev.GetEndAt()
		if err != nil || !end.Equal(starts[i].Add(45*time.Minute)) {
			t.Errorf("event %d ends %v (%v), want %v", i, end, err, starts[i].Add(45*time.Minute))
		}
	}
	for _, want := range []string{
		"DTSTART;TZID=America/Santiago:20260404T100000\r\n",
		"DTSTART;TZID=America/Santiago:20260406T100000\r\n",
		"DTSTART;TZID=America/Santiago:20260906T013000\r\n",
		"DTSTART:20260405T023000Z\r\n", "DTSTART:20260405T033000Z\r\n",
		// The observances: the clocks at 00:00 go from -03 to -04 in April and from -04 to
		// -03 in September.
		"BEGIN:STANDARD\r\nDTSTART:20260405T000000\r\nTZOFFSETFROM:-0300\r\nTZOFFSETTO:-0400\r\n",
		"BEGIN:DAYLIGHT\r\nDTSTART:20260906T000000\r\nTZOFFSETFROM:-0400\r\nTZOFFSETTO:-0300\r\n",
		"X-WR-TIMEZONE:America/Santiago\r\n", "REFRESH-INTERVAL;VALUE=DURATION:PT60M\r\n",
	} {
		if !strings.Contains(raw, want) {
			t.Errorf("feed lacks %q\n%s", want, raw)
		}
	}
}
