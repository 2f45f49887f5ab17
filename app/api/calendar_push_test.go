package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"frontdesk/app/calendar"
	"frontdesk/app/calendar/calsync"
	"frontdesk/app/calendar/radicaletest"
	"frontdesk/app/secrets"
	"frontdesk/db"
)

// TestBookingsPushedToRadicale is docs/calendars.md "Bookings in your calendar" against a real
// CalDAV server: a provider's CalDAV account on Radicale, its "Work" calendar chosen to push
// to, the pusher running as the server runs it (woken after each commit). A booking made
// through /v3 appears there at the booked instant, in the location's zone, titled with the
// service and the client's first name; a reschedule moves it (the same UID, a higher
// SEQUENCE); the pull does not read it back as busy time, while an event of the provider's
// own still blocks; with Radicale stopped a cancel waits, failing, and is written once it is
// back: the event is deleted.
func TestBookingsPushedToRadicale(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := newFixture(t)
	rad := radicaletest.Start(t)
	rad.MkCalendar("ben", "work", "Work")
	rad.MkCalendar("ben", "home", "Home")
	box, err := secrets.New(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	var clock atomic.Int64
	clock.Store(f.now.UnixMilli())
	now := func() time.Time { return time.UnixMilli(clock.Load()) }

	// Ben (provider 2) connects his account and picks "Work" for his bookings.
	if _, err := calendar.Connect(ctx, f.db, box, 2, calendar.Settings{Kind: calendar.KindCalDAV, URL: rad.URL, Username: "ben",
		Password: "app-password", AllowPrivate: true, StaleBlocks: true}, now()); err != nil {
		t.Fatal(err)
	}
	puller := calsync.New(f.db, box, nil, now)
	conn := func() db.CalendarConnection {
		c, err := f.db.R.CalendarConnectionByProvider(ctx, 2)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if err := puller.Poll(ctx, conn()); err != nil {
		t.Fatal(err)
	}
	sources, err := calendar.Sources(ctx, f.db.R, conn().ID)
	if err != nil || len(sources) != 2 {
		t.Fatalf("calendars: %+v, %v", sources, err)
	}
	busy, push := map[int64]bool{}, int64(0)
	for _, s := range sources {
		busy[s.ID] = true
		if s.Name == "Work" {
			push = s.ID
		}
	}
	if err := calendar.ChooseSources(ctx, f.db, conn().ID, busy, push, now()); err != nil {
		t.Fatal(err)
	}

	pusher := calsync.NewPusher(f.db, box, testLogger(t), now)
	pusher.Timeout = 5 * time.Second
	f.db.AfterCommit(pusher.Wake)
	done := make(chan error, 1)
	go func() { done <- pusher.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })

	// await waits until the Work calendar satisfies ok, failing after a deadline.
	await := func(what string, ok func(cal string) bool) string {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for {
			cal := rad.Calendar("ben", "work")
			if ok(cal) {
				return cal
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the Work calendar holds\n%s", what, cal)
			}
			time.Sleep(20 * time.Millisecond) // the calendar is on another server: nothing to wait on but its answer
		}
	}

	resp, raw := f.call("POST", "/v3/bookings", bkBooking(nil))
	var b bkResource
	json.Unmarshal(wantStatus(t, resp, raw, 201), &b)
	uid := fmt.Sprintf("UID:booking-%d@", b.ID)
	cal := await("the new booking", func(cal string) bool { return strings.Contains(cal, uid) })
	for _, want := range []string{
		"DTSTART;TZID=America/Santiago:20261124T100000", "DTEND;TZID=America/Santiago:20261124T103000",
		"SUMMARY:Haircut · Maria", "BEGIN:VTIMEZONE", "TZID:America/Santiago",
	} {
		if !strings.Contains(cal, want) {
			t.Errorf("the pushed event lacks %q:\n%s", want, cal)
		}
	}
	if strings.Contains(cal, "Lopez") || strings.Contains(cal, "+5691") {
		t.Errorf("the pushed event says more than the first name:\n%s", cal)
	}
	seq := sequence(t, cal)

	// A reschedule moves the same event and raises its SEQUENCE.
	resp, raw = f.call("PATCH", "/v3/bookings/"+strconv.FormatInt(b.ID, 10), `{"start_time":"2026-11-24T11:00:00-03:00"}`)
	wantStatus(t, resp, raw, 200)
	cal = await("the rescheduled booking", func(cal string) bool {
		return strings.Contains(cal, "DTSTART;TZID=America/Santiago:20261124T110000")
	})
	if n := strings.Count(cal, "BEGIN:VEVENT"); n != 1 || !strings.Contains(cal, uid) {
		t.Fatalf("after the reschedule: %d events, want the same one:\n%s", n, cal)
	}
	if s := sequence(t, cal); s <= seq {
		t.Errorf("SEQUENCE %d after the reschedule, want more than %d", s, seq)
	}

	// The pull reads the account again: the pushed booking is not busy time of Ben's own, a
	// dentist's appointment in his Home calendar is.
	rad.Put("ben", "home", "dentist.ics", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:dentist\r\nDTSTAMP:20260101T000000Z\r\n"+
		"DTSTART:20261125T150000Z\r\nDTEND:20261125T160000Z\r\nSUMMARY:Dentist\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
	if err := puller.Poll(ctx, conn()); err != nil {
		t.Fatal(err)
	}
	blocks, err := f.db.R.ScheduleCalendarBusy(ctx, db.ScheduleCalendarBusyParams{Floor: 0, Until: now().Add(400 * 24 * time.Hour).UnixMilli(), ProviderIds: []int64{2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 1 || db.Time(blocks[0].StartsAt) != time.Date(2026, 11, 25, 15, 0, 0, 0, time.UTC) {
		t.Fatalf("busy time read back: %+v, want only the dentist", blocks)
	}

	// Radicale is down: the cancel is kept and retried, and written once it is back.
	rad.Stop()
	resp, raw = f.call("PATCH", "/v3/bookings/"+strconv.FormatInt(b.ID, 10)+"/cancel", nil)
	wantStatus(t, resp, raw, 204)
	deadline := time.Now().Add(15 * time.Second)
	for {
		st, err := calendar.Pushes(ctx, f.db.R, 2)
		if err != nil {
			t.Fatal(err)
		}
		if st.Pending == 1 && st.LastError != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("push status while Radicale is down: %+v", st)
		}
		time.Sleep(20 * time.Millisecond) // the pusher records its failure on its own goroutine
	}
	rad.Start()
	if cal := rad.Calendar("ben", "work"); !strings.Contains(cal, uid) {
		t.Fatalf("the cancelled booking left while Radicale was down:\n%s", cal)
	}
	clock.Add(time.Hour.Milliseconds()) // past the retry
	pusher.Wake()
	await("the cancel after the outage", func(cal string) bool { return !strings.Contains(cal, uid) })
	deadline = time.Now().Add(15 * time.Second)
	for {
		st, err := calendar.Pushes(ctx, f.db.R, 2)
		if err != nil {
			t.Fatal(err)
		}
		if st.Pending == 0 && st.LastError == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("push status after the outage: %+v", st)
		}
		time.Sleep(20 * time.Millisecond) // recorded after the DELETE Radicale answered
	}
}

var sequenceLine = regexp.MustCompile(`(?m)^SEQUENCE:(\d+)`)

func sequence(t *testing.T, cal string) int {
	t.Helper()
	m := sequenceLine.FindStringSubmatch(cal)
	if m == nil {
		t.Fatalf("no SEQUENCE in\n%s", cal)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}
