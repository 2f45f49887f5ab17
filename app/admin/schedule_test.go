package admin_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"frontdesk/app/staff"
)

// scheduleWorld is seedBookingWorld with a booking each for Ana (Maria, 09:00) and Bruno
// (Pedro, 10:00) on the world's day, and an hour of time off each that day with a reason that
// names whose it is; ana is Ana's provider account, owner the owner's client.
type scheduleWorld struct {
	bookingWorld
	owner, ana    *client
	mine, theirs  string
	anaOff, brOff string
}

func seedSchedule(t *testing.T, ts *testServer) scheduleWorld {
	t.Helper()
	s := scheduleWorld{owner: ts.setupOwner(t)}
	s.bookingWorld = seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	book := func(provider, client, clock string) string {
		t.Helper()
		res := s.owner.post(t, "/bookings", s.booking(provider, client, clock))
		if res.Status != http.StatusSeeOther {
			t.Fatalf("create booking: got %d; body:\n%.2000s", res.Status, res.Body)
		}
		var id int64
		if err := d.Read.QueryRow(`SELECT max(id) FROM bookings`).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(id)
	}
	s.mine = book(s.Ana, s.Maria, "09:00")
	s.theirs = book(s.Bruno, s.Pedro, "10:00")
	day, err := time.ParseInLocation(time.DateOnly, s.Day, s.zone)
	if err != nil {
		t.Fatal(err)
	}
	s.anaOff, s.brOff = "Ana at the dentist", "Bruno at the bank"
	for id, reason := range map[int64]string{s.anaID: s.anaOff, s.brunoID: s.brOff} {
		off := day.Add(14 * time.Hour)
		if _, err := d.Write.Exec(`INSERT INTO provider_time_off (provider_id, starts_at, ends_at, reason) VALUES (?, ?, ?, ?)`,
			id, off.UnixMilli(), off.Add(time.Hour).UnixMilli(), reason); err != nil {
			t.Fatal(err)
		}
	}
	s.ana = addStaff(t, ts, d, "ana@example.com", staff.RoleProvider, s.anaID)
	return s
}

// schedulePath is /schedule with the query's pairs (name, value, …).
func schedulePath(pairs ...string) string {
	q := url.Values{}
	for i := 0; i+1 < len(pairs); i += 2 {
		q.Set(pairs[i], pairs[i+1])
	}
	return "/schedule?" + q.Encode()
}

// A provider account lands on its own schedule, the first item of its navigation, and sees
// there only its own bookings, breaks and time off — for the day and the week, whatever
// provider the query names; another provider's booking, client and time off are absent.
// Owners open any provider's schedule, choosing whose.
func TestProviderSchedule(t *testing.T) {
	ts := startServer(t)
	s := seedSchedule(t, ts)

	wantRedirect(t, s.ana.get(t, "/"), "/schedule")
	home := s.ana.get(t, "/schedule")
	wantStatus(t, home, http.StatusOK)
	wantBody(t, home, `data-testid="cal-now"`, `data-testid="schedule-day"`, `data-testid="schedule-week"`)
	nav := home.Body[strings.Index(home.Body, `<nav class="primary"`):]
	nav = nav[:strings.Index(nav, "</nav>")]
	if first := strings.Index(nav, "<li>"); first < 0 || !strings.HasPrefix(nav[first:], `<li><a href="/schedule" aria-current`) {
		t.Errorf("a provider's first navigation item is not its schedule:\n%s", nav)
	}
	if strings.Contains(nav, `href="/"`) {
		t.Errorf("a provider's navigation still offers the dashboard:\n%s", nav)
	}

	for _, path := range []string{
		schedulePath("date", s.Day),
		schedulePath("date", s.Day, "view", "week"),
		schedulePath("date", s.Day, "provider", s.Bruno),
		schedulePath("date", s.Day, "provider", s.Bruno, "view", "week"),
		schedulePath("date", s.Day, "location", s.Location, "provider", s.Bruno, "view", "week"),
	} {
		res := s.ana.get(t, path)
		wantStatus(t, res, http.StatusOK)
		wantBody(t, res, "Maria", `data-id="`+s.mine+`"`, s.anaOff, `data-testid="cal-break"`, `data-provider="`+s.Ana+`"`)
		for _, other := range []string{"Pedro", "Bruno", s.brOff, `data-id="` + s.theirs + `"`, `data-provider="` + s.Bruno + `"`, `href="/bookings/new`} {
			if strings.Contains(res.Body, other) {
				t.Errorf("%s shows %q to Ana's account:\n%.4000s", path, other, res.Body)
			}
		}
	}
	week := s.ana.get(t, schedulePath("date", s.Day, "view", "week"))
	if n := strings.Count(week.Body, `data-testid="agenda-section"`); n != 7 {
		t.Errorf("the week shows %d days, want 7", n)
	}
	// Moving on keeps the week.
	wantBody(t, week, `data-testid="cal-next"`, "view=week")

	// The owner chooses whose schedule; Bruno's shows his day, not Ana's.
	wantStatus(t, s.owner.get(t, "/"), http.StatusOK)
	bruno := s.owner.get(t, schedulePath("date", s.Day, "provider", s.Bruno))
	wantStatus(t, bruno, http.StatusOK)
	wantBody(t, bruno, "Pedro", s.brOff, `data-id="`+s.theirs+`"`, `name="provider"`)
	if strings.Contains(bruno.Body, s.anaOff) || strings.Contains(bruno.Body, `data-id="`+s.mine+`"`) {
		t.Errorf("Bruno's schedule shows Ana's day:\n%.4000s", bruno.Body)
	}
	wantBody(t, s.owner.get(t, "/bookings/agenda?"+url.Values{"location": {s.Location}, "date": {s.Day}, "provider": {s.Bruno}}.Encode()),
		`data-testid="view-schedule"`)
}
