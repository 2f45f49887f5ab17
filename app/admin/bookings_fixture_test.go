package admin_test

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"testing"
	"time"

	"frontdesk/db"
)

// bookingWorld is what seedBookingWorld wrote: ids as the forms send them, and a day to book.
type bookingWorld struct {
	Location, Night          string // Norte (open 08:00–20:00), Nocturno (open all day); both in New York
	Service                  string // Haircut, 30 minutes
	Ana, Bruno, Carla, Nora  string // providers; Nora works at Nocturno
	Maria, Pedro             string // clients
	Day                      string // a future date of 24 hours in New York, YYYY-MM-DD
	zone                     *time.Location
	norteID, anaID, mariaID  int64
	serviceID, nocturnoID    int64
	brunoID, carlaID, noraID int64
}

// openBookingDB opens the running server's database file for the test to look into.
func openBookingDB(t testing.TB, ts *testServer) *db.DB {
	t.Helper()
	d, err := db.Open(context.Background(), db.Path(ts.Data))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// seedBookingWorld writes a small business straight into the server's database: company
// policies (15-minute step, no notice, 90 days ahead); location Norte in New York open every day
// 08:00–20:00 where Ana (09:00–17:00, break 12:00–13:00), Bruno and Carla (09:00–17:00) work
// and offer the Haircut; location Nocturno, New York too, open and staffed (Nora) around the
// clock; clients Maria Lopez and Pedro Diaz.
func seedBookingWorld(t testing.TB, ts *testServer) bookingWorld {
	t.Helper()
	d := openBookingDB(t, ts)
	ms := time.Now().UnixMilli()
	exec := func(query string, args ...any) int64 {
		t.Helper()
		res, err := d.Write.Exec(query, args...)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		id, _ := res.LastInsertId()
		return id
	}
	w := bookingWorld{}
	exec(`INSERT INTO company (name, slot_step_min, min_notice_min, max_advance_days, created_at, updated_at) VALUES ('Studio', 15, 0, 90, ?, ?)`, ms, ms)
	country := exec(`INSERT INTO countries (code, name) VALUES ('US', 'United States')`)
	w.norteID = exec(`INSERT INTO locations (uuid, name, timezone, country_id, created_at, updated_at) VALUES ('norte', 'Norte', 'America/New_York', ?, ?, ?)`, country, ms, ms)
	w.nocturnoID = exec(`INSERT INTO locations (uuid, name, timezone, country_id, created_at, updated_at) VALUES ('nocturno', 'Nocturno', 'America/New_York', ?, ?, ?)`, country, ms, ms)
	w.serviceID = exec(`INSERT INTO services (uuid, name, duration_min, price_cents, created_at, updated_at) VALUES ('haircut', 'Haircut', 30, 2500, ?, ?)`, ms, ms)
	for day := 0; day < 7; day++ {
		exec(`INSERT INTO location_hours (location_id, day_id, open_min, close_min) VALUES (?, ?, 480, 1200), (?, ?, 0, 1440)`, w.norteID, day, w.nocturnoID, day)
	}
	provider := func(name string, location int64, open, close int, breaks ...[2]int) int64 {
		id := exec(`INSERT INTO providers (public_name, location_id, created_at, updated_at) VALUES (?, ?, ?, ?)`, name, location, ms, ms)
		exec(`INSERT INTO provider_locations (provider_id, location_id) VALUES (?, ?)`, id, location)
		exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (?, ?)`, w.serviceID, id)
		for day := 0; day < 7; day++ {
			shift := exec(`INSERT INTO provider_hours (provider_id, location_id, day_id, open_min, close_min) VALUES (?, ?, ?, ?, ?)`, id, location, day, open, close)
			for _, b := range breaks {
				exec(`INSERT INTO provider_breaks (hours_id, start_min, end_min) VALUES (?, ?, ?)`, shift, b[0], b[1])
			}
		}
		return id
	}
	w.anaID = provider("Ana", w.norteID, 540, 1020, [2]int{720, 780})
	w.brunoID = provider("Bruno", w.norteID, 540, 1020)
	w.carlaID = provider("Carla", w.norteID, 540, 1020)
	w.noraID = provider("Nora", w.nocturnoID, 0, 1440)
	w.mariaID = exec(`INSERT INTO clients (first_name, last_name, email, created_at, updated_at) VALUES ('Maria', 'Lopez', 'maria@example.com', ?, ?)`, ms, ms)
	pedro := exec(`INSERT INTO clients (first_name, last_name, phone, created_at, updated_at) VALUES ('Pedro', 'Diaz', '+56911112222', ?, ?)`, ms, ms)

	zone, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	w.zone = zone
	day := time.Now().In(zone).AddDate(0, 0, 2)
	for {
		start := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, zone)
		if start.AddDate(0, 0, 1).Sub(start) == 24*time.Hour {
			break
		}
		day = day.AddDate(0, 0, 1)
	}
	id := func(n int64) string { return fmt.Sprint(n) }
	w.Location, w.Night, w.Service = id(w.norteID), id(w.nocturnoID), id(w.serviceID)
	w.Ana, w.Bruno, w.Carla, w.Nora = id(w.anaID), id(w.brunoID), id(w.carlaID), id(w.noraID)
	w.Maria, w.Pedro = id(w.mariaID), id(pedro)
	w.Day = day.Format(time.DateOnly)
	return w
}

// booking is a create form for the Haircut at Norte on the world's day.
func (w bookingWorld) booking(provider, client, clock string) url.Values {
	return url.Values{
		"location": {w.Location}, "service": {w.Service}, "provider": {provider}, "client": {client},
		"date": {w.Day}, "time": {clock}, "status": {"1"}, "notes": {"Kept <notes>"},
	}
}

// dayPath is the day view of Norte on the world's day.
func (w bookingWorld) dayPath() string {
	return "/bookings/day?" + url.Values{"location": {w.Location}, "date": {w.Day}, "service": {w.Service}}.Encode()
}

// eventTypes lists the outbox's event types in order.
func eventTypes(t testing.TB, d *db.DB) []string {
	t.Helper()
	rows, err := d.Read.Query(`SELECT type FROM events ORDER BY created_at, rowid`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// bookingRow reads one stored booking's status, provider and start.
func bookingRow(t testing.TB, d *db.DB, id string) (status, provider int64, start time.Time) {
	t.Helper()
	var ms int64
	err := d.Read.QueryRow(`SELECT status_id, provider_id, start_at FROM bookings WHERE id = ?`, id).Scan(&status, &provider, &ms)
	if err == sql.ErrNoRows {
		t.Fatalf("no booking %s", id)
	} else if err != nil {
		t.Fatal(err)
	}
	return status, provider, time.UnixMilli(ms)
}
