package admin_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// A client's page tells their story with exact figures: visits are the past bookings kept,
// no-shows and late cancellations (within 24 hours of the start) are counted apart, and the
// total spent is what their paid and partly paid sales took in, refunds and cancelled sales
// left out; another client's history counts for nothing. Every admin page has a client
// search in its top bar.
func TestClientPageTellsTheirStory(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	now := time.Now()
	ms := now.UnixMilli()
	exec := func(query string, args ...any) int64 {
		t.Helper()
		res, err := d.Write.Exec(query, args...)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		id, _ := res.LastInsertId()
		return id
	}
	pedro := w.Pedro
	book := func(client string, start time.Time, status int, updated time.Time, notes string) {
		t.Helper()
		end := start.Add(30 * time.Minute)
		exec(`INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at, block_start_at, block_end_at, price_cents, list_price_cents, notes, source, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 2500, 2500, ?, 'admin', ?, ?)`,
			w.norteID, w.serviceID, w.anaID, client, status, start.UnixMilli(), end.UnixMilli(), start.UnixMilli(), end.UnixMilli(), notes, ms, updated.UnixMilli())
	}
	day := 24 * time.Hour
	maria := w.Maria
	for i := range 3 { // attended
		book(maria, now.Add(-time.Duration(10+i)*day), 3, now, "")
	}
	book(maria, now.Add(-20*day), 1, now, "Prefers the window seat") // confirmed, never marked
	book(maria, now.Add(-30*day), 4, now, "")                        // no-shows
	book(maria, now.Add(-31*day), 4, now, "")
	late := now.Add(-5 * day)
	book(maria, late, 5, late.Add(-2*time.Hour), "") // cancelled two hours before: late
	early := now.Add(-6 * day)
	book(maria, early, 5, early.Add(-3*day), "") // cancelled three days before
	book(maria, now.Add(3*day), 1, now, "")      // upcoming
	book(maria, now.Add(4*day), 2, now, "")
	book(maria, now.Add(5*day), 5, now, "") // cancelled well ahead
	book(pedro, now.Add(-2*day), 3, now, "")
	book(pedro, now.Add(-3*day), 4, now, "")
	sale := func(client, status string, paid int) {
		t.Helper()
		cart := exec(`INSERT INTO carts (uuid, client_id, location_id, created_at, updated_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
			fmt.Sprintf("cart-%d-%s", paid, status), client, w.norteID, ms, ms, ms+3600000)
		exec(`INSERT INTO sales (cart_id, client_id, location_id, status, paid_cents, paid_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			cart, client, w.norteID, status, paid, ms, ms, ms)
	}
	sale(maria, "paid", 4000)
	sale(maria, "partially_paid", 1500)
	sale(maria, "refunded", 9999)
	sale(maria, "canceled", 5555)
	sale(pedro, "paid", 7000)

	res := c.get(t, "/clients/"+maria)
	wantStatus(t, res, 200)
	for id, want := range map[string]string{
		"story-visits": "4", "story-upcoming": "2", "story-no-shows": "2", "story-late-cancels": "1", "story-spent": "$55.00",
	} {
		got := between(res.Body, `data-testid="`+id+`">`, "</dd>")
		if got != want {
			t.Errorf("%s: got %q, want %q", id, got, want)
		}
	}
	if n := strings.Count(between(res.Body, `data-testid="story-next"`, "</ul>"), "<li>"); n != 2 {
		t.Errorf("%d upcoming bookings listed, want 2", n)
	}
	if n := strings.Count(between(res.Body, `data-testid="story-past"`, "</ul>"), "<li>"); n != 8 {
		t.Errorf("%d past bookings listed, want 8", n)
	}
	wantBody(t, res, "Prefers the window seat")

	// The top bar's client search, on any page, lists the clients found.
	home := c.get(t, "/")
	wantBody(t, home, `data-testid="topbar-search"`, `action="/clients"`, `name="q"`)
	found := c.get(t, "/clients?q=Pedro")
	wantBody(t, found, "Pedro")
	if strings.Contains(found.Body, "Maria Lopez") {
		t.Error("searching for Pedro lists Maria")
	}
}
