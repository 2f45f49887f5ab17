package admin_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"frontdesk/app/calendar/radicaletest"
	"frontdesk/app/staff"
)

// The provider page connects an own calendar: a loopback address is refused without the
// owner's opt-in and saved with it; a CalDAV password is never shown back; the worker reads the
// feed in the background; a connection whose last good sync is old shows the stale warning;
// disconnecting removes it and its busy time. Saving wakes the worker: the feed is read at
// once, not at the worker's next look a minute later.
func TestOwnCalendarSection(t *testing.T) {
	read := make(chan struct{}, 16)
	feed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case read <- struct{}{}:
		default:
		}
		w.Header().Set("Content-Type", "text/calendar")
		fmt.Fprint(w, "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20990101T100000Z\r\nDTEND:20990101T110000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
	}))
	defer feed.Close()
	ts := startServer(t)
	c := ts.setupOwner(t)
	centro := addLocation(t, c, "Centro", "America/Santiago")
	wantRedirect(t, c.post(t, "/catalog/providers", url.Values{
		"public_name": {"Ana"}, "active": {"1"}, "online_booking": {"1"}, "location_id": {centro}, "location_ids": {centro},
	}), "/catalog/providers")
	ana := linkID(t, c.get(t, "/catalog/providers").Body, "/catalog/providers/", "Ana")
	page := "/catalog/providers/" + ana
	wantBody(t, c.get(t, page), `data-testid="own-calendar"`, `data-testid="calendar-form"`)

	form := url.Values{"kind": {"ics"}, "url": {feed.URL + "/ana.ics"}, "all_day": {"1"}, "stale_blocks": {"1"}}
	wantRedirect(t, c.post(t, page+"/calendar", form), page+"#own-calendar")
	res := c.get(t, page)
	wantBody(t, res, "Not saved", "private targets need an explicit opt-in")
	if strings.Contains(res.Body, `data-testid="calendar-off"`) {
		t.Fatal("a loopback calendar was saved without the opt-in")
	}

	form.Set("allow_private", "1")
	wantRedirect(t, c.post(t, page+"/calendar", form), page+"#own-calendar")
	wantBody(t, c.get(t, page), "Calendar saved", `data-testid="calendar-off"`, `data-testid="calendar-state"`)
	select {
	case <-read:
	case <-time.After(20 * time.Second): // the worker's own next look is a minute away
		t.Fatal("the saved calendar was not read at once")
	}

	d := openDB(t, ts)
	if _, err := d.Write.Exec(`UPDATE calendar_connections SET stale = 1`); err != nil {
		t.Fatal(err)
	}
	wantBody(t, c.get(t, page), `data-testid="calendar-stale"`)

	caldav := url.Values{"kind": {"caldav"}, "url": {feed.URL}, "username": {"ana"}, "password": {"s3cret-app-pw"}, "allow_private": {"1"}}
	wantRedirect(t, c.post(t, page+"/calendar", caldav), page+"#own-calendar")
	res = c.get(t, page)
	wantBody(t, res, "Leave empty to keep the stored password")
	if strings.Contains(res.Body, "s3cret-app-pw") {
		t.Error("the page shows the stored password")
	}
	var sealed string
	if err := d.Write.QueryRow(`SELECT password_sealed FROM calendar_connections`).Scan(&sealed); err != nil || sealed == "" || strings.Contains(sealed, "s3cret") {
		t.Errorf("password stored as %q (%v)", sealed, err)
	}

	// The provider's own account may connect its calendar (when the owner lets providers edit
	// their hours) but never opts in to a private address: its save of the loopback feed is
	// refused, and the checkbox is not offered.
	anaID, _ := strconv.ParseInt(ana, 10, 64)
	pc := addStaff(t, ts, d, "ana@example.com", staff.RoleProvider, anaID)
	if err := staff.SetProvidersEditOwnHours(context.Background(), d, true, time.Now()); err != nil {
		t.Fatal(err)
	}
	res = pc.get(t, page)
	wantBody(t, res, `data-testid="calendar-form"`)
	if strings.Contains(res.Body, `name="allow_private"`) {
		t.Error("a provider account is offered the private-address opt-in")
	}
	wantRedirect(t, pc.post(t, page+"/calendar", form), page+"#own-calendar") // form has allow_private=1
	wantBody(t, pc.get(t, page), "Not saved", "private targets need an explicit opt-in")

	wantRedirect(t, c.post(t, page+"/calendar/off", nil), page+"#own-calendar")
	var n int
	if err := d.Write.QueryRow(`SELECT count(*) FROM calendar_connections`).Scan(&n); err != nil || n != 0 {
		t.Errorf("connections after disconnecting: %d (%v)", n, err)
	}
}

// A CalDAV account's page offers its calendars to write bookings to (docs/calendars.md,
// "Bookings in your calendar"): the account on a real Radicale is listed as soon as it is
// saved, "Work" is chosen and named with the writes waiting and the last failure, a calendar
// not of the account is refused without a change, and "None" stops the writing.
func TestOwnCalendarPushChoice(t *testing.T) {
	rad := radicaletest.Start(t)
	rad.MkCalendar("ana", "work", "Work")
	rad.MkCalendar("ana", "home", "Home")
	ts := startServer(t)
	c := ts.setupOwner(t)
	centro := addLocation(t, c, "Centro", "America/Santiago")
	wantRedirect(t, c.post(t, "/catalog/providers", url.Values{
		"public_name": {"Ana"}, "active": {"1"}, "online_booking": {"1"}, "location_id": {centro}, "location_ids": {centro},
	}), "/catalog/providers")
	ana := linkID(t, c.get(t, "/catalog/providers").Body, "/catalog/providers/", "Ana")
	page := "/catalog/providers/" + ana
	wantRedirect(t, c.post(t, page+"/calendar", url.Values{"kind": {"caldav"}, "url": {rad.URL}, "username": {"ana"},
		"password": {"app-password"}, "allow_private": {"1"}, "stale_blocks": {"1"}}), page+"#own-calendar")

	d := openDB(t, ts)
	ids := map[string]string{}
	deadline := time.Now().Add(20 * time.Second)
	for len(ids) < 2 {
		rows, err := d.Write.Query(`SELECT id, name FROM calendar_sources`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id, name string
			rows.Scan(&id, &name)
			ids[name] = id
		}
		rows.Close()
		if time.Now().After(deadline) {
			t.Fatalf("the account's calendars were not listed: %v", ids)
		}
		time.Sleep(20 * time.Millisecond) // the worker lists them on its own goroutine
	}
	res := c.get(t, page)
	wantBody(t, res, `name="push"`, ">None (write nothing)<", ">Work<")
	if strings.Contains(res.Body, `data-testid="calendar-push-state"`) {
		t.Error("a push calendar is named before one is chosen")
	}

	choose := func(push string) url.Values {
		return url.Values{"busy_" + ids["Work"]: {"1"}, "busy_" + ids["Home"]: {"1"}, "push": {push}}
	}
	wantRedirect(t, c.post(t, page+"/calendar/sources", choose(ids["Work"])), page+"#own-calendar")
	if _, err := d.Write.Exec(`INSERT INTO calendar_pushes (booking_id, provider_id, due_at, last_error, attempted_at)
		VALUES (987654, ?, 9000000000000000, 'dial tcp: connection refused', 1)`, ana); err != nil {
		t.Fatal(err)
	}
	wantBody(t, c.get(t, page), "Bookings are written to Work. Changes waiting to be written: 1.",
		"Last write failed: dial tcp: connection refused", `<option value="`+ids["Work"]+`" selected`)

	wantRedirect(t, c.post(t, page+"/calendar/sources", choose("999999")), page+"#own-calendar")
	wantBody(t, c.get(t, page), "Not saved", "not one of this account&#39;s calendars", "Bookings are written to Work")

	wantRedirect(t, c.post(t, page+"/calendar/sources", choose("")), page+"#own-calendar")
	if res := c.get(t, page); strings.Contains(res.Body, `data-testid="calendar-push-state"`) {
		t.Error("still writing after None was chosen")
	}
}
