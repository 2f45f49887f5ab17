package calsync

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"frontdesk/app/calendar"
	"frontdesk/app/calendar/radicaletest"
	"frontdesk/app/secrets"
)

// startRadicale is a real CalDAV server (app/calendar/radicaletest).
func startRadicale(t *testing.T) *radicale { return &radicale{radicaletest.Start(t)} }

type radicale struct{ *radicaletest.Server }

func (r *radicale) mkcalendar(user, name, displayName string) { r.MkCalendar(user, name, displayName) }

func (r *radicale) put(user, calendarName, object, ics string) {
	r.Put(user, calendarName, object, ics)
}

func vcal(events ...string) string {
	return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + strings.Join(events, "") + "END:VCALENDAR\r\n"
}

func vevent(lines ...string) string {
	return "BEGIN:VEVENT\r\nDTSTAMP:20260101T000000Z\r\n" + strings.Join(lines, "\r\n") + "\r\nEND:VEVENT\r\n"
}

// TestCalDAVPullFromRadicale: a CalDAV account on a real Radicale is discovered from its host
// (/.well-known/caldav, current-user-principal, calendar-home-set), its calendars listed, and
// the ones that count as busy read over the horizon. A weekly series with one instance
// excluded, one moved and one cancelled blocks exactly its instances across Santiago's DST end
// (2027-04-04) and New York's DST start (2027-03-14), each in the event's own zone; a calendar
// the owner unticks stops counting; an untouched calendar is not queried again (CTag).
func TestCalDAVPullFromRadicale(t *testing.T) {
	ctx := context.Background()
	rad := startRadicale(t)
	rad.mkcalendar("ana", "work", "Work")
	rad.mkcalendar("ana", "private", "Private")
	dentist := []string{
		vevent("UID:dentist", "SUMMARY:Dentist", "DTSTART;TZID=America/Santiago:20270322T100000",
			"DTEND;TZID=America/Santiago:20270322T110000", "RRULE:FREQ=WEEKLY;COUNT=6",
			"EXDATE;TZID=America/Santiago:20270329T100000"),
		vevent("UID:dentist", "RECURRENCE-ID;TZID=America/Santiago:20270405T100000", "SUMMARY:Dentist (moved)",
			"DTSTART;TZID=America/Santiago:20270406T150000", "DTEND;TZID=America/Santiago:20270406T160000"),
		vevent("UID:dentist", "RECURRENCE-ID;TZID=America/Santiago:20270419T100000", "STATUS:CANCELLED",
			"DTSTART;TZID=America/Santiago:20270419T100000", "DTEND;TZID=America/Santiago:20270419T110000"),
	}
	rad.put("ana", "work", "dentist.ics", vcal(dentist...))
	rad.put("ana", "work", "nyc.ics", vcal(vevent("UID:nyc", "SUMMARY:Call", "DTSTART;TZID=America/New_York:20270305T090000",
		"DURATION:PT30M", "RRULE:FREQ=WEEKLY;COUNT=3")))
	rad.put("ana", "private", "gym.ics", vcal(vevent("UID:gym", "SUMMARY:Gym", "DTSTART:20270310T220000Z", "DTEND:20270310T230000Z")))

	d := openDB(t)
	box, err := secrets.New(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC)
	if _, err := calendar.Connect(ctx, d, box, 1, calendar.Settings{Kind: calendar.KindCalDAV, URL: rad.URL, Username: "ana", Password: "app-password",
		AllowPrivate: true, RevealSummary: true, StaleBlocks: true}, now); err != nil {
		t.Fatal(err)
	}
	w := New(d, box, nil, func() time.Time { return now })
	if err := w.Poll(ctx, connection(t, d, 1)); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"1 03-05 11:00–11:30 Call", // 09:00 New York (-05) is 11:00 Santiago (-03)
		"1 03-10 19:00–20:00 Gym",
		"1 03-12 11:00–11:30 Call",
		"1 03-19 10:00–10:30 Call", // New York at -04 from 14 March: 09:00 there is 10:00 here
		"1 03-22 10:00–11:00 Dentist",
		// 29 March excluded
		"1 04-06 15:00–16:00 Dentist (moved)", // Santiago at -04 from 4 April; still 15:00 wall time
		"1 04-12 10:00–11:00 Dentist",
		// 19 April cancelled
		"1 04-26 10:00–11:00 Dentist",
	}
	if got := blocks(t, d); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("blocks\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	sources, err := calendar.Sources(ctx, d.R, connection(t, d, 1).ID)
	if err != nil || len(sources) != 2 {
		t.Fatalf("calendars listed: %+v, %v", sources, err)
	}

	// The owner unticks "Private": the gym is no longer busy time.
	busy := map[int64]bool{}
	for _, s := range sources {
		busy[s.ID] = s.Name == "Work"
	}
	if err := calendar.ChooseSources(ctx, d, connection(t, d, 1).ID, busy, 0, now); err != nil {
		t.Fatal(err)
	}
	if err := w.Poll(ctx, connection(t, d, 1)); err != nil {
		t.Fatal(err)
	}
	if got := blocks(t, d); len(got) != len(want)-1 || strings.Contains(strings.Join(got, "|"), "Gym") {
		t.Errorf("after unticking Private: %v", got)
	}
	// A cancelled instance frees its time: the 12 April one is cancelled on the server.
	rad.put("ana", "work", "dentist.ics", vcal(append(dentist, vevent("UID:dentist", "RECURRENCE-ID;TZID=America/Santiago:20270412T100000",
		"STATUS:CANCELLED", "DTSTART;TZID=America/Santiago:20270412T100000", "DTEND;TZID=America/Santiago:20270412T110000"))...))
	if err := w.Poll(ctx, connection(t, d, 1)); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(blocks(t, d), "|"); strings.Contains(got, "04-12") {
		t.Errorf("the cancelled instance still blocks: %v", got)
	}
}
