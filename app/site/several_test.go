package site_test

import (
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"frontdesk/app/booking"
)

// visitForm fills the details form of a visit page (GET path) as a new visitor would.
func (f *fixture) visitForm(path string) url.Values {
	f.t.Helper()
	res := f.get(path)
	wantStatus(f.t, res, http.StatusOK)
	m := nonceRE.FindStringSubmatch(res.body)
	if m == nil {
		f.t.Fatalf("no nonce on %s:\n%s", path, res.body)
	}
	form := url.Values{
		"nonce": {m[1]}, "first_name": {"Camila"}, "last_name": {"Rojas"}, "email": {"camila@example.com"},
		"phone": {"+56 9 8765 4321"}, "attr_" + strconv.FormatInt(f.allerg, 10): {"none"},
	}
	for _, h := range regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)"`).FindAllStringSubmatch(res.body, -1) {
		if h[1] != "nonce" {
			form.Add(h[1], html.UnescapeString(h[2]))
		}
	}
	return form
}

// A visit of two services booked from the site, without JavaScript: the services page leads to
// the visit form; the times are the whole visit's; the details page and, after booking, the
// manage page describe both services with their provider and local times and the total; the
// database holds one visit of two bookings back to back. A form submitted twice books once.
func TestVisitFromTheSite(t *testing.T) {
	f := newFixture(t)
	res := f.get("/book/1")
	wantBody(t, res, `data-testid="visit-link"`, `href="/book/1/visit"`)
	res = f.get("/book/1/visit")
	wantStatus(t, res, http.StatusOK)
	wantBody(t, res, `data-testid="visit-form"`, "Haircut", "Massage")
	if strings.Contains(res.body, "Colour ·") {
		t.Error("a service paid online is offered in a visit")
	}
	ana := strconv.FormatInt(f.ana, 10)
	ask := url.Values{"s1": {strconv.Itoa(haircut)}, "s2": {strconv.Itoa(massage)}, "provider": {ana}, "date": {"2026-03-31"}}
	res = f.get("/book/1/visit?" + ask.Encode())
	wantStatus(t, res, http.StatusOK)
	wantBody(t, res, `data-testid="times"`, "The whole visit: 1 h 15 min · $45,000", "Tuesday, 31 March 2026")
	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	details := url.Values{"s1": {"1"}, "s2": {"3"}, "provider": {ana}, "start": {at.Format(time.RFC3339)}}
	path := "/book/1/visit/details?" + details.Encode()
	if !strings.Contains(res.body, strings.ReplaceAll(path, "&", "&amp;")) {
		t.Fatalf("no link to %s on the visit's times", path)
	}
	page := f.get(path)
	wantBody(t, page, `data-testid="visit-segment"`, "Haircut · Ana · 10:00–10:30", "Massage · Ana · 10:30–11:15", "$45,000")

	form := f.visitForm(path)
	post := f.post("/book/1/visit/details", form)
	wantStatus(t, post, http.StatusSeeOther)
	manage := post.location()
	if !strings.HasPrefix(manage, "/book/manage/") {
		t.Fatalf("booked, sent to %q", manage)
	}
	if again := f.post("/book/1/visit/details", form); again.status != http.StatusSeeOther {
		t.Fatalf("the same form again: %d", again.status)
	}
	if n := f.count(`SELECT count(*) FROM visits`); n != 1 {
		t.Fatalf("%d visits, want 1", n)
	}
	rows, err := f.db.Read.Query(`SELECT b.service_id, b.provider_id, b.start_at, b.end_at, b.source FROM visit_bookings vb JOIN bookings b ON b.id = vb.booking_id ORDER BY vb.position`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	type part struct {
		service, provider, start, end int64
		source                        string
	}
	var parts []part
	for rows.Next() {
		var p part
		if err := rows.Scan(&p.service, &p.provider, &p.start, &p.end, &p.source); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, p)
	}
	if len(parts) != 2 || parts[0].service != haircut || parts[1].service != massage {
		t.Fatalf("visit bookings %+v, want Haircut then Massage", parts)
	}
	if parts[0].start != at.UnixMilli() || parts[0].end != parts[1].start || parts[1].end != at.Add(75*time.Minute).UnixMilli() {
		t.Errorf("visit bookings %+v, want back to back from %v for 75 minutes", parts, at)
	}
	if parts[0].source != "online" || parts[0].provider != f.ana || parts[1].provider != f.ana {
		t.Errorf("visit bookings %+v, want online with Ana", parts)
	}
	done := f.get(manage)
	wantStatus(t, done, http.StatusOK)
	wantBody(t, done, "Haircut · Ana · 10:00–10:30", "Massage · Ana · 10:30–11:15", "1 h 15 min", "$45,000")

	// Cancelling through the link cancels the whole visit.
	wantStatus(t, f.post(strings.TrimSuffix(manage, "?done=booked")+"/cancel", nil), http.StatusSeeOther)
	if n := f.count(`SELECT count(*) FROM visit_bookings vb JOIN bookings b ON b.id = vb.booking_id WHERE b.status_id = 5`); n != 2 {
		t.Errorf("%d of the visit's 2 bookings cancelled through its link, want both", n)
	}

	// Add-ons the business declares for a service are offered with it and follow it, in the
	// order chosen; the details form carries them all.
	ms := start.UnixMilli()
	wash := f.exec(`INSERT INTO services (uuid, name, price_cents, duration_min, online_booking, created_at, updated_at)
		VALUES ('s5', 'Wash', 500000, 15, 1, ?, ?)`, ms, ms)
	f.exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (?, ?)`, wash, f.ana)
	f.exec(`INSERT INTO service_addons (service_id, addon_id) VALUES (?, ?), (?, ?)`, haircut, massage, haircut, wash)
	f.exec(`UPDATE site_settings SET updated_at = updated_at + 1`) // a new catalog version
	wantBody(t, f.get("/book/1/visit?s1=1"), `name="a1" value="3"`, `name="a1" value="5"`)
	withAddOns := url.Values{"s1": {"1"}, "a1": {"5", "3"}, "provider": {ana}, "start": {at.Add(24 * time.Hour).Format(time.RFC3339)}}
	addOnPath := "/book/1/visit/details?" + withAddOns.Encode()
	wantBody(t, f.get(addOnPath), "+ Wash · Ana · 10:30–10:45", "+ Massage · Ana · 10:45–11:30")
	wantStatus(t, f.post("/book/1/visit/details", f.visitForm(addOnPath)), http.StatusSeeOther)
	if n := f.count(`SELECT count(*) FROM visit_bookings WHERE addon_of IS NOT NULL`); n != 2 {
		t.Errorf("%d add-ons booked, want 2", n)
	}

	// Bad input is a clear 4xx: a service not offered, an add-on not declared.
	if r := f.get("/book/1/visit?s1=" + strconv.Itoa(offline)); r.status != http.StatusNotFound {
		t.Errorf("a service not online: %d", r.status)
	}
	if r := f.get("/book/1/visit?s1=3&a1=1"); r.status != http.StatusNotFound {
		t.Errorf("an add-on not declared: %d", r.status)
	}
}

// A series from the site with one date taken: the repeat page names the date not free; "all
// or nothing" refuses (409) naming it and books nothing; "the free ones" books the others.
func TestSeriesFromTheSite(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	ana := strconv.FormatInt(f.ana, 10)
	repeat := "/book/1/1/repeat?" + url.Values{"provider": {ana}, "start": {at.Format(time.RFC3339)}, "repeat": {"weekly"}, "count": {"4"}}.Encode()
	if r := f.get(repeat); r.status != http.StatusNotFound {
		t.Fatalf("repeat while the owner has not allowed it: %d", r.status)
	}
	if r := f.get(detailsPath(haircut, f.ana, at)); strings.Contains(r.body, `data-testid="repeat-link"`) {
		t.Fatal("the details page offers to repeat while the owner has not allowed it")
	}
	f.exec(`UPDATE site_settings SET repeat_online = 1, updated_at = updated_at + 1`)
	ms := start.UnixMilli()
	f.exec(`INSERT INTO clients (first_name, email, created_at, updated_at) VALUES ('Held', 'held@example.com', ?, ?)`, ms, ms)
	taken := at.AddDate(0, 0, 7)
	if _, err := booking.Create(ctx, f.db, start, booking.NewBooking{LocationID: centro, ServiceID: haircut, ProviderID: f.ana, ClientID: 1,
		StatusID: booking.StatusConfirmed, Start: taken, Source: booking.SourceAdmin}); err != nil {
		t.Fatal(err)
	}
	wantBody(t, f.get(detailsPath(haircut, f.ana, at)), `data-testid="repeat-link"`)
	res := f.get(repeat)
	wantStatus(t, res, http.StatusOK)
	wantBody(t, res, `data-testid="repeat-dates"`, "Tuesday, 7 April 2026, 10:00 — not free: already booked", `data-testid="repeat-continue"`)
	if n := strings.Count(res.body, `data-free="true"`); n != 3 {
		t.Errorf("%d free dates shown, want 3", n)
	}
	path := "/book/1/1/details?" + url.Values{"provider": {ana}, "start": {at.Format(time.RFC3339)}, "repeat": {"weekly"}, "count": {"4"}}.Encode()
	if !strings.Contains(res.body, strings.ReplaceAll(path, "&", "&amp;")) {
		t.Fatalf("no way on to %s", path)
	}
	form := f.visitForm(path)
	form.Set("repeat_mode", "all_or_nothing")
	refused := f.post("/book/1/1/details", form)
	wantStatus(t, refused, http.StatusConflict)
	wantBody(t, refused, "Nothing was booked: these dates are not free: Tuesday, 7 April 2026.")
	if n := f.count(`SELECT count(*) FROM bookings WHERE source = 'online'`); n != 0 {
		t.Fatalf("all or nothing refused, yet %d bookings were made", n)
	}
	if n := f.count(`SELECT count(*) FROM clients`); n != 1 {
		t.Fatalf("all or nothing refused, yet the visitor was stored as a client (%d clients)", n)
	}
	form.Set("repeat_mode", "free_ones")
	booked := f.post("/book/1/1/details", form)
	wantStatus(t, booked, http.StatusSeeOther)
	if n := f.count(`SELECT count(*) FROM bookings WHERE source = 'online' AND series_id IS NOT NULL AND provider_id = ?`, f.ana); n != 3 {
		t.Fatalf("%d occurrences booked, want the 3 free ones", n)
	}
	if n := f.count(`SELECT count(*) FROM bookings WHERE source = 'online' AND start_at = ?`, taken.UnixMilli()); n != 0 {
		t.Error("the taken date was booked twice")
	}
	manage := f.get(booked.location())
	wantBody(t, manage, `data-testid="series-dates"`, "Tuesday, 14 April 2026, 10:00")

	bad := f.get(strings.Replace(repeat, "count=4", "count=99", 1))
	wantStatus(t, bad, http.StatusUnprocessableEntity)
	wantBody(t, bad, "Please give a number of dates from 2 to 52.")
}

// "Tell me when a time opens" from the site: the times page leads to the form; joining records
// the wait for a new client, with source online; a later cancel in the range sends the claim
// link. Days out of range are refused on the form.
func TestWaitlistFromTheSite(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	times := f.get("/book/1/1/times?provider=0&date=2026-04-02")
	notify := "/book/1/1/notify?date=2026-04-02&provider=0"
	wantBody(t, times, `data-testid="notify-link"`, strings.ReplaceAll(notify, "&", "&amp;"))
	page := f.get(notify)
	wantStatus(t, page, http.StatusOK)
	wantBody(t, page, `name="first_day"`, `value="2026-04-02"`, `value="2026-04-15"`)
	form := f.visitForm(notify)
	form.Set("first_day", "2026-04-05")
	form.Set("last_day", "2026-04-01")
	bad := f.post("/book/1/1/notify", form)
	wantStatus(t, bad, http.StatusUnprocessableEntity)
	wantBody(t, bad, "at most 92 days, the last not before the first")
	if n := f.count(`SELECT count(*) FROM clients`); n != 0 {
		t.Fatal("a refused wait stored the visitor")
	}
	form.Set("first_day", "2026-04-02")
	form.Set("last_day", "2026-04-04")
	joined := f.post("/book/1/1/notify", form)
	wantStatus(t, joined, http.StatusSeeOther)
	done := f.get(joined.location())
	wantStatus(t, done, http.StatusOK)
	wantBody(t, done, "You are on the list for Haircut from Thursday, 2 April 2026 to Saturday, 4 April 2026.")
	if n := f.count(`SELECT count(*) FROM appointment_waits w JOIN clients c ON c.id = w.client_id
		WHERE w.status = 'waiting' AND w.source = 'online' AND w.service_id = 1 AND w.provider_id IS NULL
		AND w.first_day = '2026-04-02' AND w.last_day = '2026-04-04' AND c.email = 'camila@example.com'`); n != 1 {
		t.Fatalf("%d waits recorded, want 1", n)
	}
	if again := f.post("/book/1/1/notify", form); again.status != http.StatusUnprocessableEntity || !strings.Contains(again.body, "already on the list") {
		t.Errorf("the same wait again: %d", again.status)
	}
	ms := start.UnixMilli()
	held := f.exec(`INSERT INTO clients (first_name, email, created_at, updated_at) VALUES ('Held', 'held@example.com', ?, ?)`, ms, ms)
	v, err := booking.Create(ctx, f.db, start, booking.NewBooking{LocationID: centro, ServiceID: haircut, ProviderID: f.bruno, ClientID: held,
		StatusID: booking.StatusConfirmed, Start: time.Date(2026, 4, 3, 12, 0, 0, 0, santiago), Source: booking.SourceAdmin})
	if err != nil {
		t.Fatal(err)
	}
	if err := booking.Cancel(ctx, f.db, start, v.Booking.ID, booking.SourceAdmin); err != nil {
		t.Fatal(err)
	}
	var detail string
	if err := f.db.Read.QueryRow(`SELECT m.detail_json FROM messages m JOIN appointment_offers o ON o.id = m.offer_id
		JOIN appointment_waits w ON w.id = o.wait_id WHERE w.source = 'online'`).Scan(&detail); err != nil {
		t.Fatalf("no claim link sent after the cancel: %v", err)
	}
	var d struct{ Token string }
	if err := json.Unmarshal([]byte(detail), &d); err != nil || d.Token == "" {
		t.Fatalf("claim message %s: %v", detail, err)
	}
	wantBody(t, f.get("/book/claim/"+d.Token), `data-testid="claim-form"`, "Haircut")
}
