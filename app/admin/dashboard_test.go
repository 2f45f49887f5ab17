package admin_test

import (
	"context"
	"database/sql"
	"net/http"
	"strings"
	"testing"
	"time"

	"frontdesk/db"
)

// seedDay writes, straight into the running server's database, two locations with bookings
// today (in each location's own zone), one booking yesterday, and some webhook traffic.
func seedDay(t *testing.T, ts *testServer) {
	t.Helper()
	ctx := context.Background()
	d, err := db.Open(ctx, db.Path(ts.Data))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	now := time.Now()
	ms := now.UnixMilli()
	exec := func(query string, args ...any) sql.Result {
		t.Helper()
		res, err := d.Write.ExecContext(ctx, query, args...)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		return res
	}
	id := func(res sql.Result) int64 {
		n, _ := res.LastInsertId()
		return n
	}
	country := id(exec(`INSERT INTO countries (code, name) VALUES ('CL', 'Chile')`))
	service := id(exec(`INSERT INTO services (uuid, name, duration_min, created_at, updated_at) VALUES ('s1', 'Haircut <b>deluxe</b>', 45, ?, ?)`, ms, ms))
	client := id(exec(`INSERT INTO clients (first_name, last_name, created_at, updated_at) VALUES ('Ana', 'Rojas', ?, ?)`, ms, ms))
	for i, l := range []struct{ name, zone, provider string }{
		{"Santiago Centro", "America/Santiago", "Camila"},
		{"Kathmandu Studio", "Asia/Kathmandu", "Bikash"},
	} {
		loc := id(exec(`INSERT INTO locations (uuid, name, timezone, country_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
			"l"+l.zone, l.name, l.zone, country, ms, ms))
		prov := id(exec(`INSERT INTO providers (public_name, location_id, created_at, updated_at) VALUES (?, ?, ?, ?)`, l.provider, loc, ms, ms))
		zone, err := time.LoadLocation(l.zone)
		if err != nil {
			t.Fatal(err)
		}
		local := now.In(zone)
		midnight := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, zone)
		book := func(start time.Time, status int) {
			end := start.Add(45 * time.Minute)
			exec(`INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at, block_start_at, block_end_at,
				price_cents, list_price_cents, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?, ?)`,
				loc, service, prov, client, status, start.UnixMilli(), end.UnixMilli(), start.UnixMilli(), end.UnixMilli(), ms, ms)
		}
		book(midnight.Add(9*time.Hour+time.Duration(i)*15*time.Minute), 1)
		book(midnight.Add(11*time.Hour), 5)
		book(midnight.Add(-2*time.Hour), 1) // yesterday
	}

	active := id(exec(`INSERT INTO webhooks (url, events_json, created_at, updated_at) VALUES ('https://a.example/hook', '["*"]', ?, ?)`, ms, ms))
	exec(`INSERT INTO webhooks (url, events_json, state, deactivated_reason, created_at, updated_at) VALUES ('https://b.example/hook', '["*"]', 'deactivated', 'gone', ?, ?)`, ms, ms)
	exec(`INSERT INTO events (id, type, body, created_at) VALUES ('evt_1', 'booking.created', '{}', ?)`, ms)
	delivery := id(exec(`INSERT INTO deliveries (event_id, webhook_id, state, created_at, updated_at) VALUES ('evt_1', ?, 'succeeded', ?, ?)`, active, ms, ms))
	exec(`INSERT INTO deliveries (event_id, webhook_id, state, next_attempt_at, created_at, updated_at) VALUES ('evt_1', ?, 'pending', ?, ?, ?)`, active, ms, ms-3*3600_000, ms)
	for i, status := range []int{500, 200, 204} {
		exec(`INSERT INTO delivery_attempts (delivery_id, attempt, started_at, duration_ms, status_code) VALUES (?, ?, ?, 12, ?)`,
			delivery, i+1, ms-int64(i)*1000, status)
	}
	exec(`INSERT INTO delivery_attempts (delivery_id, attempt, started_at, duration_ms, status_code) VALUES (?, 9, ?, 12, 500)`,
		delivery, ms-48*3600_000) // older than a day: not counted
}

func TestDashboard(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	empty := c.get(t, "/")
	wantStatus(t, empty, http.StatusOK)
	wantBody(t, empty, "No active locations yet.", `data-testid="webhooks-success-rate">–<`)

	seedDay(t, ts)
	res := c.get(t, "/")
	wantStatus(t, res, http.StatusOK)
	wantBody(t, res,
		"Santiago Centro", "Kathmandu Studio",
		"09:00–09:45", "09:15–10:00", "11:00–11:45", // local times of each location
		"Camila", "Bikash", "Ana Rojas", "Cancelled",
		"Haircut &lt;b&gt;deluxe&lt;/b&gt;",
		`data-testid="webhooks-active">1<`, `data-testid="webhooks-deactivated">1<`,
		`data-testid="webhooks-success-rate">67 %<`, "(2 of 3 attempts)",
		`data-testid="webhooks-pending">1<`, "(oldest 3 h)",
	)
	if n := strings.Count(res.Body, "Ana Rojas"); n != 4 {
		t.Errorf("got %d bookings listed, want 4 (two per location today, none from yesterday)", n)
	}

	// The panel refreshes itself as a background poll, which does not extend the session;
	// a page view does.
	wantBody(t, res, `hx-headers="{&#34;X-Frontdesk-Poll&#34;: &#34;1&#34;}"`)
	req, err := http.NewRequest(http.MethodGet, ts.URL+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Frontdesk-Poll", "1")
	if poll := c.do(t, req); poll.Status != http.StatusOK || poll.Header.Get("Set-Cookie") != "" {
		t.Errorf("poll: got %d with Set-Cookie %q, want 200 without renewing the session", poll.Status, poll.Header.Get("Set-Cookie"))
	}
	if view := c.get(t, "/"); view.Header.Get("Set-Cookie") == "" {
		t.Error("page view: no Set-Cookie, want the idle timeout renewed")
	}
}
