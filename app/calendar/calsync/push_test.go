package calsync

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	gosync "sync"
	"testing"
	"time"

	"frontdesk/app/calendar"
	"frontdesk/app/secrets"
)

// methodCounter is a reverse proxy in front of a CalDAV server that counts requests by method.
type methodCounter struct {
	mu gosync.Mutex
	n  map[string]int
}

func (m *methodCounter) count(method string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.n[method]
}

func countingProxy(t *testing.T, target string) (*httptest.Server, *methodCounter) {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	m := &methodCounter{n: map[string]int{}}
	proxy := httputil.NewSingleHostReverseProxy(u)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.mu.Lock()
		m.n[r.Method]++
		m.mu.Unlock()
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, m
}

// TestPushCoalescesAndOverwrites: the pusher against a real Radicale, through a proxy counting
// its requests. Bookings already coming when the push calendar is chosen are written; three
// changes of one booking before a push make one PUT of its latest state; an event the provider
// edited in their calendar (its ETag moved) is written over (If-Match refused, then written);
// choosing None deletes the events (one already deleted by hand answers 404: done) and forgets
// the rows.
func TestPushCoalescesAndOverwrites(t *testing.T) {
	ctx := context.Background()
	rad := startRadicale(t)
	rad.mkcalendar("ana", "work", "Work")
	proxy, requests := countingProxy(t, rad.URL)
	d := openDB(t)
	ms := testNow.UnixMilli()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := d.Write.Exec(q, args...); err != nil {
			t.Fatalf("%v\n%s", err, q)
		}
	}
	exec(`INSERT INTO services (id, uuid, name, duration_min, created_at, updated_at) VALUES (1, 's1', 'Haircut', 30, ?, ?)`, ms, ms)
	exec(`INSERT INTO clients (id, first_name, last_name, phone, created_at, updated_at) VALUES (1, 'Maria', 'Lopez', '+56911111111', ?, ?)`, ms, ms)
	at := func(day, hour int) int64 {
		return time.Date(2027, 3, day, hour, 0, 0, 0, time.UTC).UnixMilli()
	}
	book := func(id int64, start int64) {
		t.Helper()
		exec(`INSERT INTO bookings (id, location_id, service_id, provider_id, client_id, status_id, start_at, end_at, block_start_at, block_end_at,
			price_cents, list_price_cents, created_at, updated_at) VALUES (?, 1, 1, 1, 1, 1, ?, ?, ?, ?, 0, 0, ?, ?)`,
			id, start, start+30*60000, start, start+30*60000, ms, ms)
	}
	move := func(id int64, start int64) {
		t.Helper()
		exec(`UPDATE bookings SET start_at = ?, end_at = ?, block_start_at = ?, block_end_at = ? WHERE id = ?`, start, start+30*60000, start, start+30*60000, id)
	}
	book(1, at(10, 13)) // before any push calendar: not queued
	var n int
	if err := d.Write.QueryRow(`SELECT count(*) FROM calendar_pushes`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("queued without a push calendar: %d (%v)", n, err)
	}

	box, err := secrets.New(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	now := testNow
	if _, err := calendar.Connect(ctx, d, box, 1, calendar.Settings{Kind: calendar.KindCalDAV, URL: proxy.URL, Username: "ana", Password: "pw",
		AllowPrivate: true, StaleBlocks: true}, now); err != nil {
		t.Fatal(err)
	}
	w := New(d, box, nil, func() time.Time { return now })
	if err := w.Poll(ctx, connection(t, d, 1)); err != nil {
		t.Fatal(err)
	}
	sources, err := calendar.Sources(ctx, d.R, connection(t, d, 1).ID)
	if err != nil || len(sources) != 1 {
		t.Fatalf("calendars: %+v, %v", sources, err)
	}
	if err := calendar.ChooseSources(ctx, d, connection(t, d, 1).ID, map[int64]bool{sources[0].ID: true}, sources[0].ID, now); err != nil {
		t.Fatal(err)
	}

	book(2, at(11, 13))
	move(2, at(11, 14))
	move(2, at(11, 15))
	p := NewPusher(d, box, nil, func() time.Time { return now })
	if err := p.PushDue(ctx); err != nil {
		t.Fatal(err)
	}
	if got := requests.count(http.MethodPut); got != 2 {
		t.Errorf("%d PUTs for a coming booking and three changes of another, want 2", got)
	}
	cal := rad.Calendar("ana", "work")
	for _, want := range []string{"UID:booking-1@", "UID:booking-2@", "DTSTART;TZID=America/Santiago:20270311T120000", "SUMMARY:Haircut · Maria"} {
		if !strings.Contains(cal, want) {
			t.Errorf("the calendar lacks %q:\n%s", want, cal)
		}
	}
	if strings.Contains(cal, "20270311T100000") || strings.Contains(cal, "20270311T110000") || strings.Contains(cal, "Lopez") {
		t.Errorf("an earlier state or more than the first name was written:\n%s", cal)
	}

	// The provider edits booking 2's event in their calendar; the next change of the booking
	// writes it over.
	var href string
	if err := d.Write.QueryRow(`SELECT href FROM calendar_pushes WHERE booking_id = 2`).Scan(&href); err != nil {
		t.Fatal(err)
	}
	object := href[strings.LastIndexByte(href, '/')+1:]
	name, _ := url.PathUnescape(object)
	rad.put("ana", "work", name, vcal(vevent("UID:"+strings.TrimSuffix(name, ".ics"), "SUMMARY:Edited by hand",
		"DTSTART:20270311T200000Z", "DTEND:20270311T210000Z")))
	move(2, at(12, 13))
	puts := requests.count(http.MethodPut)
	if err := p.PushDue(ctx); err != nil {
		t.Fatal(err)
	}
	if got := requests.count(http.MethodPut) - puts; got != 2 {
		t.Errorf("%d PUTs over an edited event, want 2 (If-Match refused, then written)", got)
	}
	cal = rad.Calendar("ana", "work")
	if strings.Contains(cal, "Edited by hand") || !strings.Contains(cal, "DTSTART;TZID=America/Santiago:20270312T100000") {
		t.Errorf("the edited event was not written over:\n%s", cal)
	}

	// None: the events go, and so do the rows; one the provider already deleted by hand counts
	// as deleted (404).
	if err := d.Write.QueryRow(`SELECT href FROM calendar_pushes WHERE booking_id = 1`).Scan(&href); err != nil {
		t.Fatal(err)
	}
	rad.Do(http.MethodDelete, strings.TrimPrefix(href, proxy.URL), "ana", "", "", http.StatusOK, http.StatusNoContent)
	if err := calendar.ChooseSources(ctx, d, connection(t, d, 1).ID, map[int64]bool{sources[0].ID: true}, 0, now); err != nil {
		t.Fatal(err)
	}
	if err := p.PushDue(ctx); err != nil {
		t.Fatal(err)
	}
	if cal := rad.Calendar("ana", "work"); strings.Contains(cal, "BEGIN:VEVENT") {
		t.Errorf("events left after None:\n%s", cal)
	}
	if got := requests.count(http.MethodDelete); got != 2 {
		t.Errorf("%d DELETEs, want 2", got)
	}
	if err := d.Write.QueryRow(`SELECT count(*) FROM calendar_pushes`).Scan(&n); err != nil || n != 0 {
		t.Errorf("rows after None: %d (%v)", n, err)
	}

	// Work again, then the connection is switched to another account: the events stay in the
	// old one, untouched (the new password never goes to it), and its calendars are forgotten
	// until the new account is listed.
	if err := calendar.ChooseSources(ctx, d, connection(t, d, 1).ID, map[int64]bool{sources[0].ID: true}, sources[0].ID, now); err != nil {
		t.Fatal(err)
	}
	if err := p.PushDue(ctx); err != nil {
		t.Fatal(err)
	}
	if cal := rad.Calendar("ana", "work"); strings.Count(cal, "BEGIN:VEVENT") != 2 {
		t.Fatalf("after choosing Work again:\n%s", cal)
	}
	if _, err := calendar.Connect(ctx, d, box, 1, calendar.Settings{Kind: calendar.KindCalDAV, URL: proxy.URL, Username: "bob", Password: "other",
		AllowPrivate: true, StaleBlocks: true}, now); err != nil {
		t.Fatal(err)
	}
	move(2, at(12, 14))
	sent := requests.count(http.MethodPut) + requests.count(http.MethodDelete)
	if err := p.PushDue(ctx); err != nil {
		t.Fatal(err)
	}
	if got := requests.count(http.MethodPut) + requests.count(http.MethodDelete) - sent; got != 0 {
		t.Errorf("%d writes after the account changed, want none", got)
	}
	if left, err := calendar.Sources(ctx, d.R, connection(t, d, 1).ID); err != nil || len(left) != 0 {
		t.Errorf("the old account's calendars after the change: %+v (%v)", left, err)
	}
}
