package admin_test

import (
	"net/http"
	"regexp"
	"testing"
)

// Every booking on the dashboard links to its page, and "New booking" opens a working form.
func TestDashboardLinks(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	seedDay(t, ts)
	home := c.get(t, "/")
	wantBody(t, home, `href="/bookings/new" data-testid="new-booking"`)
	links := regexp.MustCompile(`<a href="(/bookings/\d+)" data-testid="dashboard-booking">`).FindAllStringSubmatch(home.Body, -1)
	rows := regexp.MustCompile(`<tr[ >]`).FindAllString(between(home.Body, `data-testid="day-bookings"`, `data-testid="webhook-health"`), -1)
	if len(links) == 0 || len(links) != len(rows)-countHeaderRows(home.Body) {
		t.Fatalf("%d booking links for %d table rows on the dashboard", len(links), len(rows))
	}
	for _, l := range links {
		wantStatus(t, c.get(t, l[1]), http.StatusOK)
	}
	wantBody(t, c.get(t, "/bookings/new"), `data-testid="booking-form"`)
	wantBody(t, c.get(t, "/bookings/day"), `data-testid="new-booking"`)
}

// countHeaderRows counts the dashboard's tables (one header row each).
func countHeaderRows(body string) int {
	return len(regexp.MustCompile(`<thead>`).FindAllString(between(body, `data-testid="day-bookings"`, `data-testid="webhook-health"`), -1))
}
