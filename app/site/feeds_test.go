package site_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"

	"frontdesk/app/booking"
	"frontdesk/app/feeds"
)

// feedOf turns on the feed of s and returns its path.
func (f *fixture) feedOf(s feeds.Subject) string {
	f.t.Helper()
	token, err := feeds.Issue(context.Background(), f.db, s, f.clock.now())
	if err != nil {
		f.t.Fatal(err)
	}
	return feeds.Path(token)
}

// bookFor books service for a new client of provider at at, as the owner would.
func (f *fixture) bookFor(provider int64, first, last string, at time.Time) int64 {
	f.t.Helper()
	ms := start.UnixMilli()
	client := f.exec(`INSERT INTO clients (first_name, last_name, email, phone, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
		first, last, strings.ToLower(first)+"@example.com", "+56 9 8765 4321", ms, ms)
	v, err := booking.Create(context.Background(), f.db, f.clock.now(), booking.NewBooking{
		LocationID: centro, ServiceID: haircut, ProviderID: provider, ClientID: client, StatusID: booking.StatusConfirmed,
		Start: at, Source: booking.SourceAdmin,
	})
	if err != nil {
		f.t.Fatalf("book %s at %v: %v", first, at, err)
	}
	return v.Booking.ID
}

// feedEvent is what a test reads of an event.
type feedEvent struct {
	start, end time.Time
	sequence   int
	status     string
	summary    string
}

// feed fetches path and parses it with an independent iCalendar library: UID → event.
func (f *fixture) feed(path string) (map[string]feedEvent, response) {
	f.t.Helper()
	r := f.get(path)
	wantStatus(f.t, r, http.StatusOK)
	if ct := r.header.Get("Content-Type"); ct != "text/calendar; charset=utf-8" {
		f.t.Errorf("Content-Type %q, want text/calendar; charset=utf-8", ct)
	}
	cal, err := ics.ParseCalendar(strings.NewReader(r.body))
	if err != nil {
		f.t.Fatalf("parse: %v\n%s", err, r.body)
	}
	out := map[string]feedEvent{}
	for _, ev := range cal.Events() {
		var e feedEvent
		if e.start, err = ev.GetStartAt(); err != nil {
			f.t.Fatalf("DTSTART: %v", err)
		}
		if e.end, err = ev.GetEndAt(); err != nil {
			f.t.Fatalf("DTEND: %v", err)
		}
		prop := func(p ics.ComponentProperty) string {
			if v := ev.GetProperty(p); v != nil {
				return v.Value
			}
			return ""
		}
		e.sequence, _ = strconv.Atoi(prop(ics.ComponentPropertySequence))
		e.status, e.summary = prop(ics.ComponentPropertyStatus), prop(ics.ComponentPropertySummary)
		out[prop(ics.ComponentPropertyUniqueId)] = e
	}
	return out, r
}

func (f *fixture) uid(bookingID int64) string {
	f.t.Helper()
	var cal string
	if err := f.db.Read.QueryRow(`SELECT calendar_id FROM site_settings`).Scan(&cal); err != nil {
		f.t.Fatal(err)
	}
	return "booking-" + strconv.FormatInt(bookingID, 10) + "@" + cal + ".frontdesk"
}

// A provider's feed holds their bookings at the booked instants, written in the location's zone
// (America/Santiago) on both sides of the April fall-back, the repeated hour included.
func TestFeedTimesInLocationZoneAcrossDST(t *testing.T) {
	f := newFixture(t)
	path := f.feedOf(feeds.Subject{ProviderID: f.ana})
	starts := []time.Time{
		time.Date(2026, 4, 4, 10, 0, 0, 0, santiago), // -03
		time.Date(2026, 4, 5, 2, 30, 0, 0, time.UTC), // 23:30 on the 4th, the first time
		time.Date(2026, 4, 5, 3, 30, 0, 0, time.UTC), // 23:30 on the 4th, the second time
		time.Date(2026, 4, 6, 10, 0, 0, 0, santiago), // -04
		time.Date(2026, 9, 7, 10, 0, 0, 0, santiago), // -03 again
	}
	ids := make([]int64, len(starts))
	for i, at := range starts {
		ids[i] = f.bookFor(f.ana, "C"+strconv.Itoa(i), "X", at)
	}
	events, r := f.feed(path)
	if len(events) != len(starts) {
		t.Fatalf("%d events, want %d", len(events), len(starts))
	}
	for i, id := range ids {
		e, ok := events[f.uid(id)]
		if !ok {
			t.Fatalf("no event for booking %d", id)
		}
		if !e.start.Equal(starts[i]) || !e.end.Equal(starts[i].Add(30*time.Minute)) {
			t.Errorf("booking %d: %v–%v, want %v–%v", id, e.start, e.end, starts[i], starts[i].Add(30*time.Minute))
		}
	}
	for _, want := range []string{
		"DTSTART;TZID=America/Santiago:20260404T100000", "DTSTART;TZID=America/Santiago:20260406T100000",
		"DTSTART;TZID=America/Santiago:20260907T100000", "BEGIN:VTIMEZONE\r\nTZID:America/Santiago\r\n",
		"TZOFFSETFROM:-0300\r\nTZOFFSETTO:-0400\r\n",
	} {
		if !strings.Contains(r.body, want) {
			t.Errorf("feed lacks %q", want)
		}
	}
}

// A moved booking keeps its UID with a higher SEQUENCE; a cancelled one becomes
// STATUS:CANCELLED with a higher SEQUENCE still, and leaves the feed CancelledFor later.
func TestFeedMoveAndCancelRaiseSequence(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	path := f.feedOf(feeds.Subject{ProviderID: f.ana})
	at := time.Date(2026, 4, 10, 10, 0, 0, 0, santiago)
	id := f.bookFor(f.ana, "Carla", "Pérez", at)
	uid := f.uid(id)

	events, _ := f.feed(path)
	before := events[uid]
	if before.status != "CONFIRMED" || !before.start.Equal(at) {
		t.Fatalf("new booking: %+v", before)
	}

	moved := at.Add(2 * time.Hour)
	if _, err := booking.Update(ctx, f.db, f.clock.now(), id, booking.Change{Start: &moved}, booking.SourceAdmin); err != nil {
		t.Fatal(err)
	}
	events, _ = f.feed(path)
	after, ok := events[uid]
	if !ok || len(events) != 1 {
		t.Fatalf("after the move: %v, want the one event under UID %s", events, uid)
	}
	if !after.start.Equal(moved) || after.sequence <= before.sequence {
		t.Errorf("after the move: start %v seq %d, want %v and above %d", after.start, after.sequence, moved, before.sequence)
	}

	if err := booking.Cancel(ctx, f.db, f.clock.now(), id, booking.SourceAdmin); err != nil {
		t.Fatal(err)
	}
	events, _ = f.feed(path)
	cancelled := events[uid]
	if cancelled.status != "CANCELLED" || cancelled.sequence <= after.sequence {
		t.Errorf("after the cancel: status %s seq %d, want CANCELLED above %d", cancelled.status, cancelled.sequence, after.sequence)
	}

	f.clock.set(f.clock.now().Add(feeds.CancelledFor + 24*time.Hour))
	if events, _ = f.feed(path); len(events) != 0 {
		t.Errorf("%d events once the cancel is %v old, want none", len(events), feeds.CancelledFor+24*time.Hour)
	}
}

// Only the current token opens a feed: a rotated, wrong, malformed or turned-off one is 404.
func TestFeedTokens(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	ana := feeds.Subject{ProviderID: f.ana}
	old := f.feedOf(ana)
	wantStatus(t, f.get(old), http.StatusOK)

	rotated := f.feedOf(ana)
	wantStatus(t, f.get(rotated), http.StatusOK)
	wantStatus(t, f.get(old), http.StatusNotFound)

	for _, path := range []string{
		feeds.Path(strings.Repeat("A", 43)), feeds.Path("short"), strings.TrimSuffix(rotated, ".ics"),
		strings.TrimSuffix(rotated, ".ics") + ".json", "/feeds/",
	} {
		if r := f.get(path); r.status != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, r.status)
		}
	}

	if err := feeds.TurnOff(ctx, f.db, ana); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, f.get(rotated), http.StatusNotFound)
}

// A reader whose copy is current gets 304 (If-None-Match or If-Modified-Since); after a
// change, 200 with a new tag and a later Last-Modified.
func TestFeedConditionalGet(t *testing.T) {
	f := newFixture(t)
	path := f.feedOf(feeds.Subject{ProviderID: f.ana})
	f.bookFor(f.ana, "Carla", "Pérez", time.Date(2026, 4, 10, 10, 0, 0, 0, santiago))
	_, first := f.feed(path)
	tag, modified := first.header.Get("ETag"), first.header.Get("Last-Modified")
	if tag == "" || modified == "" || !strings.Contains(first.header.Get("Cache-Control"), "private") {
		t.Fatalf("headers %v: want ETag, Last-Modified and a private Cache-Control", first.header)
	}
	conditional := func(name, value string) response {
		req, err := http.NewRequest(http.MethodGet, f.srv.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set(name, value)
		return f.do(req)
	}
	if r := conditional("If-None-Match", tag); r.status != http.StatusNotModified || r.body != "" {
		t.Errorf("If-None-Match current: %d %q, want an empty 304", r.status, r.body)
	}
	if r := conditional("If-Modified-Since", modified); r.status != http.StatusNotModified {
		t.Errorf("If-Modified-Since current: %d, want 304", r.status)
	}

	f.bookFor(f.ana, "Diego", "Soto", time.Date(2026, 4, 11, 10, 0, 0, 0, santiago))
	r := conditional("If-None-Match", tag)
	wantStatus(t, r, http.StatusOK)
	if r.header.Get("ETag") == tag || !strings.Contains(r.body, "Diego") {
		t.Errorf("after a booking: ETag %s (was %s), want a new one and the new booking", r.header.Get("ETag"), tag)
	}
	if r := conditional("If-Modified-Since", modified); r.status != http.StatusOK {
		t.Errorf("If-Modified-Since the old copy after a change: %d, want 200", r.status)
	}
	if r := conditional("If-None-Match", r.header.Get("ETag")); r.status != http.StatusNotModified {
		t.Errorf("If-None-Match the new tag: %d, want 304", r.status)
	}

	// What an event shows besides the booking row moves the tag too: a client's name, a
	// service's name (written with plain SQL, as another process would).
	for _, change := range []struct{ sql, shown string }{
		{`UPDATE clients SET first_name = 'Carlota' WHERE first_name = 'Carla'`, "Carlota"},
		{`UPDATE services SET name = 'Corte' WHERE id = 1`, "Corte"},
	} {
		tag := f.get(path).header.Get("ETag")
		f.exec(change.sql)
		r := conditional("If-None-Match", tag)
		if r.status != http.StatusOK || !strings.Contains(r.body, change.shown) {
			t.Errorf("after %s: %d, want 200 showing %q", change.sql, r.status, change.shown)
		}
	}
}

// By default an event names the client by first name only: no last name, email, phone or notes
// (the URL is a bearer secret). The owner's opt-in adds the full name, phone and notes.
func TestFeedShowsFirstNameByDefault(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	ana := feeds.Subject{ProviderID: f.ana}
	path := f.feedOf(ana)
	id := f.bookFor(f.ana, "Carla", "Pérez", time.Date(2026, 4, 10, 10, 0, 0, 0, santiago))
	f.exec(`UPDATE bookings SET notes = 'Alergia al tinte' WHERE id = ?`, id)

	events, r := f.feed(path)
	if got := events[f.uid(id)].summary; got != "Carla · Haircut" {
		t.Errorf("summary %q, want %q", got, "Carla · Haircut")
	}
	for _, secret := range []string{"Pérez", "carla@example.com", "8765", "Alergia"} {
		if strings.Contains(r.body, secret) {
			t.Errorf("the default feed shows %q:\n%s", secret, r.body)
		}
	}

	if err := feeds.SetDetails(ctx, f.db, ana, true, f.clock.now()); err != nil {
		t.Fatal(err)
	}
	events, r = f.feed(path)
	if got := events[f.uid(id)].summary; got != "Carla Pérez · Haircut" {
		t.Errorf("summary with details %q, want %q", got, "Carla Pérez · Haircut")
	}
	for _, shown := range []string{"+56 9 8765 4321", "Alergia al tinte"} {
		if !strings.Contains(r.body, shown) {
			t.Errorf("the detailed feed lacks %q", shown)
		}
	}
	if strings.Contains(r.body, "carla@example.com") {
		t.Error("the detailed feed shows the email")
	}
}

// A location's feed holds every provider's bookings there, each naming its provider; a
// provider's feed holds only their own.
func TestLocationFeedHoldsEveryProvider(t *testing.T) {
	f := newFixture(t)
	at := time.Date(2026, 4, 10, 10, 0, 0, 0, santiago)
	a := f.bookFor(f.ana, "Carla", "Pérez", at)
	b := f.bookFor(f.bruno, "Diego", "Soto", at)

	events, _ := f.feed(f.feedOf(feeds.Subject{LocationID: centro}))
	if len(events) != 2 || events[f.uid(a)].summary != "Carla · Haircut · Ana" || events[f.uid(b)].summary != "Diego · Haircut · Bruno" {
		t.Errorf("location feed: %+v, want Ana's and Bruno's bookings", events)
	}
	events, _ = f.feed(f.feedOf(feeds.Subject{ProviderID: f.ana}))
	if _, ok := events[f.uid(b)]; len(events) != 1 || ok {
		t.Errorf("Ana's feed: %+v, want only her booking", events)
	}
}

// A class session is one event in its teacher's and its location's feeds, with the seats taken
// in its title; its seats are not events of their own; cancelling it makes it CANCELLED with a
// higher SEQUENCE and a new tag.
func TestFeedClassSessions(t *testing.T) {
	f, morning, _ := classFixture(t)
	ctx := context.Background()
	f.seatFor("Carla", morning)
	f.seatFor("Diego", morning)
	var session int64
	if err := f.db.Read.QueryRow(`SELECT id FROM class_sessions WHERE start_at = ?`, morning.UnixMilli()).Scan(&session); err != nil {
		t.Fatal(err)
	}
	var cal string
	if err := f.db.Read.QueryRow(`SELECT calendar_id FROM site_settings`).Scan(&cal); err != nil {
		t.Fatal(err)
	}
	uid := "session-" + strconv.FormatInt(session, 10) + "@" + cal + ".frontdesk"

	location := f.feedOf(feeds.Subject{LocationID: centro})
	path := f.feedOf(feeds.Subject{ProviderID: f.ana})
	events, r := f.feed(path)
	e, ok := events[uid]
	if !ok || len(events) != 2 || !e.start.Equal(morning) || e.summary != "Yoga (class, 2 booked)" || e.status != "CONFIRMED" {
		t.Fatalf("Ana's feed: %+v, want the two sessions, the morning one as Yoga (class, 2 booked)", events)
	}
	if strings.Contains(r.body, "Carla") {
		t.Error("a seat shows as an event of its own")
	}
	if events, _ := f.feed(location); events[uid].summary != "Yoga (class, 2 booked) · Ana" {
		t.Errorf("the location's feed: %+v, want the session with its teacher", events)
	}

	tag := r.header.Get("ETag")
	if _, err := booking.CancelSession(ctx, f.db, f.clock.now(), session); err != nil {
		t.Fatal(err)
	}
	events, r = f.feed(path)
	if c := events[uid]; c.status != "CANCELLED" || c.sequence <= e.sequence || r.header.Get("ETag") == tag {
		t.Errorf("after cancelling the session: %+v, tag %s (was %s); want CANCELLED, a higher SEQUENCE and a new tag", c, r.header.Get("ETag"), tag)
	}
}
