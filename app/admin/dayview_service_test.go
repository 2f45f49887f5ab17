package admin_test

import (
	"html"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Without the owner's choice, the day view shows the free times of a service that has some
// that day: the location's most-booked one that has any, passing over services nobody offers
// (which come first by name); when no service has a free time that day it says so. An owner's
// choice is kept, free times or not, and links to other days pick again unless the owner chose.
func TestDayViewDefaultsToAServiceWithFreeTimes(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	ms := time.Now().UnixMilli()
	exec := func(query string, args ...any) string {
		t.Helper()
		res, err := d.Write.Exec(query, args...)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		id, _ := res.LastInsertId()
		return strconv.FormatInt(id, 10)
	}
	// First by name, offered by no one: never a free time.
	nobody := exec(`INSERT INTO services (uuid, name, duration_min, price_cents, created_at, updated_at) VALUES ('aroma', 'Aromaterapia', 30, 1000, ?, ?)`, ms, ms)
	selected := func(body string) string {
		t.Helper()
		sel := between(body, `<select id="f-service" name="service"`, `</select>`)
		for _, opt := range strings.Split(sel, "<option ")[1:] {
			if strings.Contains(opt, " selected") {
				return between(opt, `value="`, `"`)
			}
		}
		return ""
	}
	day := "/bookings/day?" + url.Values{"location": {w.Location}, "date": {w.Day}}.Encode()

	page := c.get(t, day)
	wantStatus(t, page, 200)
	if got := selected(page.Body); got != w.Service {
		t.Errorf("free times are for service %q, want the Haircut (%s), which has some", got, w.Service)
	}
	wantBody(t, page, `data-testid="free-slot"`)
	if strings.Contains(page.Body, "No free times for") {
		t.Error("the default service has no free times")
	}
	nextDay := func(body string) string {
		t.Helper()
		m := regexp.MustCompile(`href="([^"]*)" data-testid="next-day"`).FindStringSubmatch(body)
		if m == nil {
			t.Fatal("no link to the next day")
		}
		return html.UnescapeString(m[1])
	}
	if next := nextDay(page.Body); strings.Contains(next, "service=") {
		t.Errorf("the next day's link %s keeps a service the owner did not choose", next)
	}

	// The location's most-booked service with free times comes before the others.
	shave := exec(`INSERT INTO services (uuid, name, duration_min, price_cents, created_at, updated_at) VALUES ('shave', 'Zen shave', 30, 1500, ?, ?)`, ms, ms)
	exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (?, ?)`, shave, w.brunoID)
	for _, at := range []string{"10:00", "11:00"} {
		f := w.booking(w.Bruno, w.Maria, at)
		f.Set("service", shave)
		if res := c.post(t, "/bookings", f); res.Status != 303 {
			t.Fatalf("booking the shave at %s: %d\n%.2000s", at, res.Status, res.Body)
		}
	}
	if got := selected(c.get(t, day).Body); got != shave {
		t.Errorf("free times are for service %q, want the most booked, the shave (%s)", got, shave)
	}

	// The owner's choice stands, and is kept on the way to other days.
	chosen := c.get(t, day+"&service="+nobody)
	if got := selected(chosen.Body); got != nobody {
		t.Errorf("the owner chose %s, the view shows %q", nobody, got)
	}
	wantBody(t, chosen, "No free times for Aromaterapia on this day.")
	if next := nextDay(chosen.Body); !strings.Contains(next, "service="+nobody) {
		t.Errorf("the next day's link %s drops the owner's choice", next)
	}

	// A closed day: no service has a free time, and the view says so.
	exec(`INSERT INTO location_closures (location_id, date) VALUES (?, ?)`, w.Location, w.Day)
	closed := c.get(t, day)
	wantBody(t, closed, "No service has free times on this day.")
	if got := selected(closed.Body); got != "0" {
		t.Errorf("on a closed day free times are for %q, want none (0)", got)
	}
	if strings.Contains(closed.Body, `data-testid="free-slot"`) {
		t.Error("a closed day shows free times")
	}
}
