package admin_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

// busyWeek is seedBookingWorld with 30 providers at Norte (the world's three and 27 more, all
// 09:00–17:00) and 300 bookings of 30 minutes on the world's day, ten each.
type busyWeek struct {
	bookingWorld
	// Short and Long are two 30-minute bookings: one with a short client name, one with a long
	// name and a status badge (reserved). TimeOff is Bruno's 10:00–11:00 that day.
	Short, Long string
}

func seedBusyWeek(t testing.TB, ts *testServer) busyWeek {
	t.Helper()
	w := busyWeek{bookingWorld: seedBookingWorld(t, ts)}
	d := openBookingDB(t, ts)
	ms := time.Now().UnixMilli()
	tx, err := d.Write.Begin()
	if err != nil {
		t.Fatal(err)
	}
	exec := func(query string, args ...any) int64 {
		t.Helper()
		res, err := tx.Exec(query, args...)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		id, _ := res.LastInsertId()
		return id
	}
	providers := []int64{w.anaID, w.brunoID, w.carlaID}
	for i := len(providers); i < 30; i++ {
		id := exec(`INSERT INTO providers (public_name, location_id, created_at, updated_at) VALUES (?, ?, ?, ?)`, fmt.Sprintf("Provider %02d", i+1), w.norteID, ms, ms)
		exec(`INSERT INTO provider_locations (provider_id, location_id) VALUES (?, ?)`, id, w.norteID)
		exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (?, ?)`, w.serviceID, id)
		for day := 0; day < 7; day++ {
			exec(`INSERT INTO provider_hours (provider_id, location_id, day_id, open_min, close_min) VALUES (?, ?, ?, 540, 1020)`, id, w.norteID, day)
		}
		providers = append(providers, id)
	}
	long := exec(`INSERT INTO clients (first_name, last_name, email, created_at, updated_at) VALUES ('Maximiliana Josefina', 'de la Fuente Errázuriz y Montalva', 'max@example.com', ?, ?)`, ms, ms)
	day, err := time.ParseInLocation(time.DateOnly, w.Day, w.zone)
	if err != nil {
		t.Fatal(err)
	}
	var first, last int64
	for p, provider := range providers {
		for k := range 10 {
			// 09:00, 09:30, … skipping Ana's break (12:00–13:00) and Bruno's time off.
			slot := k
			if k >= 2 {
				slot = k + 2 // 10:00 and 10:30 stay free for Bruno's time off
			}
			if slot >= 6 {
				slot += 2
			}
			start := day.Add(9*time.Hour + time.Duration(slot)*30*time.Minute)
			client, status := w.mariaID, 1
			if p == 1 && k == 0 {
				client, status = long, 2
			}
			id := exec(`INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at, block_start_at, block_end_at, price_cents, list_price_cents, source, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 2500, 2500, 'admin', ?, ?)`,
				w.norteID, w.serviceID, provider, client, status, start.UnixMilli(), start.Add(30*time.Minute).UnixMilli(), start.UnixMilli(), start.Add(30*time.Minute).UnixMilli(), ms, ms)
			if p == 0 && k == 0 {
				first = id
			}
			if p == 1 && k == 0 {
				last = id
			}
		}
	}
	off := day.Add(10 * time.Hour)
	exec(`INSERT INTO provider_time_off (provider_id, starts_at, ends_at, reason) VALUES (?, ?, ?, 'Dentist')`, w.brunoID, off.UnixMilli(), off.Add(time.Hour).UnixMilli())
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	w.Short, w.Long = fmt.Sprint(first), fmt.Sprint(last)
	return w
}

func (w busyWeek) weekPath(provider string) string {
	q := url.Values{"location": {w.Location}, "date": {w.Day}}
	if provider != "" {
		q.Set("provider", provider)
	}
	return "/bookings/week?" + q.Encode()
}

func (w busyWeek) agendaPath(provider string) string {
	return strings.Replace(w.weekPath(provider), "/bookings/week", "/bookings/agenda", 1)
}

// The week view of a busy location lists all 30 providers, seven days, every booking once,
// Ana's break and Bruno's time off shaded, and links to book each working day; with a provider
// chosen, only that provider's row.
func TestWeekViewShowsProvidersByDay(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBusyWeek(t, ts)

	res := c.get(t, w.weekPath(""))
	wantStatus(t, res, 200)
	for what, want := range map[string]int{
		`data-testid="week-row"`:    30,
		`data-testid="week-day"`:    7,
		`data-testid="week-cell"`:   210,
		`data-testid="cal-booking"`: 300,
		`data-testid="cal-timeoff"`: 1,
		`data-testid="week-new"`:    210,
		`data-testid="cal-break"`:   7, // Ana's, each day
		`>Not working<`:             0,
		`data-id="` + w.Long + `"`:  1,
		`<span class="badge">`:      1, // the one reserved booking
	} {
		if got := strings.Count(res.Body, what); got != want {
			t.Errorf("week view: %s appears %d times, want %d", what, got, want)
		}
	}
	wantBody(t, res, "Dentist", "Maximiliana Josefina", "Provider 30", `href="/bookings/quick?date=`+w.Day)

	one := c.get(t, w.weekPath(w.Bruno))
	wantStatus(t, one, 200)
	if got := strings.Count(one.Body, `data-testid="week-row"`); got != 1 {
		t.Errorf("the week of one provider has %d rows", got)
	}
	if got := strings.Count(one.Body, `data-testid="cal-booking"`); got != 10 {
		t.Errorf("Bruno's week shows %d bookings, want 10", got)
	}
	// An unknown date is a form error, not a 500.
	bad := c.get(t, "/bookings/week?date=2026-13-45")
	wantStatus(t, bad, 200)
	wantBody(t, bad, `aria-invalid="true"`)
}

// The agenda lists the day per provider in time order: bookings, the break and time off where
// they fall, and a booking link per provider; with a provider chosen, that provider alone.
func TestAgendaListsTheDayInOrder(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBusyWeek(t, ts)

	res := c.get(t, w.agendaPath(""))
	wantStatus(t, res, 200)
	for what, want := range map[string]int{
		`data-testid="agenda-section"`: 30,
		`data-testid="cal-booking"`:    300,
		`data-testid="cal-break"`:      1,
		`data-testid="cal-timeoff"`:    1,
		`data-testid="agenda-new"`:     30,
	} {
		if got := strings.Count(res.Body, what); got != want {
			t.Errorf("agenda: %s appears %d times, want %d", what, got, want)
		}
	}
	bruno := c.get(t, w.agendaPath(w.Bruno))
	if got := strings.Count(bruno.Body, `data-testid="agenda-section"`); got != 1 {
		t.Fatalf("Bruno's agenda has %d sections", got)
	}
	// In order: 09:00, 09:30, the time off at 10:00, then 11:00.
	order := []string{"09:00–09:30", "09:30–10:00", "Dentist", "11:00–11:30", "15:30–16:00"}
	at := 0
	for _, s := range order {
		i := strings.Index(bruno.Body[at:], s)
		if i < 0 {
			t.Fatalf("Bruno's agenda: %q missing or out of order", s)
		}
		at += i
	}
	// The Calendar tab returns to the view last used.
	wantRedirect(t, c.get(t, "/bookings/calendar?location="+w.Location), "/bookings/agenda?location="+w.Location)
	c.get(t, w.weekPath(""))
	wantRedirect(t, c.get(t, "/bookings/calendar"), "/bookings/week")
}

// BenchmarkWeekView renders the week of 30 providers and 300 bookings.
func BenchmarkWeekView(b *testing.B) {
	ts := startServer(b)
	c := ts.setupOwner(b)
	w := seedBusyWeek(b, ts)
	path := w.weekPath("")
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		if res := c.get(b, path); res.Status != 200 {
			b.Fatalf("got %d", res.Status)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/render")
}
