package calendar

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	_ "time/tzdata" // the zones must not depend on the host's zoneinfo
)

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	z, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return z
}

func ics(events ...string) []byte {
	return []byte("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + strings.Join(events, "") + "END:VCALENDAR\r\n")
}

func event(lines ...string) string {
	return "BEGIN:VEVENT\r\n" + strings.Join(lines, "\r\n") + "\r\nEND:VEVENT\r\n"
}

// wall prints blocks as local wall times in zone, to compare with what a person expects.
func wall(bs []Block, zone *time.Location) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.Start.In(zone).Format("2006-01-02 15:04 -07") + "/" + b.End.In(zone).Format("15:04")
	}
	return out
}

func same(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// A weekly series with one instance excluded, one moved and one cancelled keeps its wall time
// across Santiago's DST end (2026-04-05) and New York's DST start (2026-03-08) and end
// (2026-11-01), in the event's own zone whatever the provider's zone is.
func TestRecurringSeriesAcrossDST(t *testing.T) {
	scl, nyc := mustZone(t, "America/Santiago"), mustZone(t, "America/New_York")
	data := ics(
		event("UID:weekly-scl", "SUMMARY:Dentist", "DTSTART;TZID=America/Santiago:20260323T100000",
			"DTEND;TZID=America/Santiago:20260323T110000", "RRULE:FREQ=WEEKLY;COUNT=6",
			"EXDATE;TZID=America/Santiago:20260330T100000"),
		// moved: the 6 April instance takes place on the 7th at 15:00
		event("UID:weekly-scl", "RECURRENCE-ID;TZID=America/Santiago:20260406T100000",
			"DTSTART;TZID=America/Santiago:20260407T150000", "DTEND;TZID=America/Santiago:20260407T160000", "SUMMARY:Dentist (moved)"),
		// cancelled: the 20 April instance is free
		event("UID:weekly-scl", "RECURRENCE-ID;TZID=America/Santiago:20260420T100000", "STATUS:CANCELLED",
			"DTSTART;TZID=America/Santiago:20260420T100000", "DTEND;TZID=America/Santiago:20260420T110000"),
		event("UID:weekly-nyc", "DTSTART;TZID=America/New_York:20260227T090000", "DURATION:PT30M",
			"RRULE:FREQ=WEEKLY;UNTIL=20260314T000000Z"),
		event("UID:fall-nyc", "DTSTART;TZID=America/New_York:20261023T090000", "DURATION:PT30M",
			"RRULE:FREQ=WEEKLY;COUNT=3"),
	)
	r, err := Parse(data, Options{From: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Until: time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), Zone: scl})
	if err != nil {
		t.Fatal(err)
	}
	var sclBlocks, nycBlocks []Block
	for _, b := range r.Blocks {
		if b.End.Sub(b.Start) == time.Hour {
			sclBlocks = append(sclBlocks, b)
		} else {
			nycBlocks = append(nycBlocks, b)
		}
	}
	same(t, wall(sclBlocks, scl), []string{
		"2026-03-23 10:00 -03/11:00",
		// 30 March excluded
		"2026-04-07 15:00 -04/16:00", // moved; Santiago is at -04 from 5 April
		"2026-04-13 10:00 -04/11:00",
		// 20 April cancelled
		"2026-04-27 10:00 -04/11:00",
	})
	same(t, wall(nycBlocks, nyc), []string{
		"2026-02-27 09:00 -05/09:30",
		"2026-03-06 09:00 -05/09:30",
		"2026-03-13 09:00 -04/09:30", // after 8 March
		"2026-10-23 09:00 -04/09:30",
		"2026-10-30 09:00 -04/09:30",
		"2026-11-06 09:00 -05/09:30", // after 1 November
	})
}

// Transparent and cancelled events are free; all-day events block their whole local days only
// when the owner chose so; summaries are kept only when the provider allows.
func TestWhatCountsAsBusy(t *testing.T) {
	scl := mustZone(t, "America/Santiago")
	data := ics(
		event("UID:a", "SUMMARY:Busy", "DTSTART:20260601T130000Z", "DTEND:20260601T140000Z"),
		event("UID:b", "SUMMARY:Free", "TRANSP:TRANSPARENT", "DTSTART:20260601T150000Z", "DTEND:20260601T160000Z"),
		event("UID:c", "SUMMARY:Gone", "STATUS:CANCELLED", "DTSTART:20260601T170000Z", "DTEND:20260601T180000Z"),
		event("UID:d", "SUMMARY:Holiday", "DTSTART;VALUE=DATE:20260602", "DTEND;VALUE=DATE:20260603"),
		event("UID:e", "SUMMARY:Floating", "DTSTART:20260603T090000", "DTEND:20260603T093000"),
	)
	o := Options{From: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Until: time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), Zone: scl}
	r, err := Parse(data, o)
	if err != nil {
		t.Fatal(err)
	}
	same(t, wall(r.Blocks, scl), []string{"2026-06-01 09:00 -04/10:00", "2026-06-03 09:00 -04/09:30"})
	if r.Blocks[0].Summary != "" {
		t.Errorf("summary kept without the provider's leave: %q", r.Blocks[0].Summary)
	}
	o.AllDay, o.Summaries = true, true
	if r, err = Parse(data, o); err != nil {
		t.Fatal(err)
	}
	same(t, wall(r.Blocks, scl), []string{"2026-06-01 09:00 -04/10:00", "2026-06-02 00:00 -04/00:00", "2026-06-03 09:00 -04/09:30"})
	if r.Blocks[0].Summary != "Busy" || r.Blocks[1].Summary != "Holiday" {
		t.Errorf("summaries %q %q", r.Blocks[0].Summary, r.Blocks[1].Summary)
	}
}

// A hostile feed — a rule of 100,000 instances, thousands of events, a rule that never matches,
// deep nesting, a file cut short — is bounded or refused quickly, never expanded without end.
func TestHostileCalendarsAreBounded(t *testing.T) {
	utc := time.UTC
	o := Options{From: time.Date(2026, 1, 1, 0, 0, 0, 0, utc), Until: time.Date(2027, 1, 1, 0, 0, 0, 0, utc), Zone: utc,
		Deadline: time.Now().Add(30 * time.Second)}
	start := time.Now()
	r, err := Parse(ics(event("UID:many", "DTSTART:20260101T000000Z", "DURATION:PT1M", "RRULE:FREQ=MINUTELY;COUNT=100000")), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Blocks) != MaxBlocks || !r.Truncated {
		t.Errorf("100,000 instances gave %d blocks (truncated %v), want %d", len(r.Blocks), r.Truncated, MaxBlocks)
	}
	var many strings.Builder
	for i := range 30000 {
		at := time.Date(2026, 3, 1, 0, i, 0, 0, utc).Format("20060102T150405Z")
		fmt.Fprintf(&many, "BEGIN:VEVENT\r\nUID:%d\r\nDTSTART:%s\r\nDURATION:PT1M\r\nEND:VEVENT\r\n", i, at)
	}
	if r, err = Parse(ics(many.String()), o); err != nil || !r.Truncated {
		t.Errorf("30,000 events: truncated %v, err %v", r.Truncated, err)
	}
	if _, err = Parse(ics(event("UID:never", "DTSTART:20260101T000000Z", "DURATION:PT1M", "RRULE:FREQ=SECONDLY")), o); !errors.Is(err, ErrMalformed) {
		t.Errorf("FREQ=SECONDLY: %v, want refused", err)
	}
	if _, err = Parse(ics(event("UID:never", "DTSTART:20260101T000000Z", "DURATION:PT1M", "RRULE:FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30")), o); !errors.Is(err, ErrMalformed) {
		t.Errorf("an hourly rule that never matches: %v, want refused", err)
	}
	if r, err = Parse(ics(event("UID:never", "DTSTART:20260101T000000Z", "DURATION:PT1M", "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30")), o); err != nil || len(r.Blocks) != 1 {
		t.Errorf("a daily rule that never matches: %d blocks, %v; want its DTSTART only", len(r.Blocks), err)
	}
	if _, err = Parse([]byte(strings.Repeat("BEGIN:VCALENDAR\r\n", 100000)), o); !errors.Is(err, ErrMalformed) {
		t.Errorf("deep nesting: %v", err)
	}
	cut := ics(event("UID:a", "DTSTART:20260601T130000Z", "DTEND:20260601T140000Z"))
	if _, err = Parse(cut[:len(cut)-20], o); !errors.Is(err, ErrMalformed) {
		t.Errorf("a file cut short: %v", err)
	}
	if _, err = Parse([]byte("<html>not a calendar</html>"), o); !errors.Is(err, ErrMalformed) {
		t.Errorf("not a calendar: %v", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v", d)
	}
}

// A daily series that began decades ago is expanded from near the horizon, with its wall time.
func TestOldSeriesSkipsAhead(t *testing.T) {
	nyc := mustZone(t, "America/New_York")
	r, err := Parse(ics(event("UID:old", "DTSTART;TZID=America/New_York:19700105T083000", "DURATION:PT1H", "RRULE:FREQ=WEEKLY;BYDAY=MO,WE")),
		Options{From: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), Until: time.Date(2026, 3, 15, 0, 0, 0, 0, time.UTC), Zone: nyc})
	if err != nil {
		t.Fatal(err)
	}
	same(t, wall(r.Blocks, nyc), []string{
		"2026-03-02 08:30 -05/09:30", "2026-03-04 08:30 -05/09:30", "2026-03-09 08:30 -04/09:30", "2026-03-11 08:30 -04/09:30",
	})
}
