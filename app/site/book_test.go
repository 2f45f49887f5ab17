package site_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The whole flow without JavaScript, as plain HTTP: one location leads straight to its
// services; the service to its providers; a provider to the day's times; a time to the details
// form; the form to a booking with source online, a new client, client.created and
// booking.created in the outbox, and a manage page that shows the link.
func TestBookThroughEveryStep(t *testing.T) {
	f := newFixture(t)
	res := f.get("/book")
	wantStatus(t, res, http.StatusFound)
	if res.location() != "/book/1" {
		t.Fatalf("one location redirects to %q, want /book/1", res.location())
	}
	res = f.get("/book/1")
	wantStatus(t, res, http.StatusOK)
	wantBody(t, res, "Hair", "Haircut", "Colour", "Massage", "Other services", "$15,000")
	if strings.Contains(res.body, "Offline") {
		t.Error("a service not bookable online is listed")
	}
	res = f.get("/book/1/1")
	wantStatus(t, res, http.StatusOK)
	wantBody(t, res, "Anyone available", "Ana", "Bruno")

	res = f.get("/book/1/1/times?provider=" + strconv.FormatInt(f.ana, 10) + "&date=2026-03-31")
	wantStatus(t, res, http.StatusOK)
	wantBody(t, res, "All times are Santiago time (UTC−3).", `aria-current="date"`, "Tuesday, 31 March 2026")
	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	link := detailsPath(haircut, f.ana, at)
	if !strings.Contains(res.body, strings.ReplaceAll(link, "&", "&amp;")) {
		t.Fatalf("the times page has no link to %s", link)
	}
	form := f.details(haircut, f.ana, at)
	manage := f.book(haircut, form)

	got := f.bookings()
	if len(got) != 1 {
		t.Fatalf("%d bookings, want 1", len(got))
	}
	b := got[0]
	if b.source != "online" || b.status != 1 || b.provider != f.ana || b.start != at.UnixMilli() {
		t.Errorf("booking %+v, want source online, confirmed, Ana, at %v", b, at)
	}
	var email, phone, first string
	if err := f.db.Read.QueryRow(`SELECT first_name, email, phone FROM clients WHERE id = ?`, b.client).Scan(&first, &email, &phone); err != nil {
		t.Fatal(err)
	}
	if first != "Camila" || email != "camila.rojas@example.com" || phone != "+56987654321" {
		t.Errorf("client %q %q %q, want Camila, the email lower-cased, the phone in E.164", first, email, phone)
	}
	if v := f.count(`SELECT count(*) FROM client_attribute_values WHERE client_id = ? AND attribute_id = ? AND value = 'none'`, b.client, f.allerg); v != 1 {
		t.Error("the answer to the asked attribute was not stored")
	}
	created := f.events("client.created")
	booked := f.events("booking.created")
	if len(created) != 1 || len(booked) != 1 {
		t.Fatalf("events: %d client.created, %d booking.created, want 1 each", len(created), len(booked))
	}
	if booked[0]["id"] != float64(b.id) || booked[0]["client_id"] != float64(b.client) || booked[0]["start_time"] != "2026-03-31T10:00:00-03:00" {
		t.Errorf("booking.created data %v", booked[0])
	}

	res = f.get(manage + "?done=booked")
	wantStatus(t, res, http.StatusOK)
	wantBody(t, res, "You are booked", "https://desk.example.com"+manage, "Tuesday, 31 March 2026, 10:00", "Haircut", "Ana", "Av. Providencia 1234, Santiago")
	if strings.Contains(res.body, "Camila") || strings.Contains(res.body, "example.com\"") {
		t.Error("the manage page shows the client's details")
	}
	if res.header.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("manage page Referrer-Policy %q, want no-referrer", res.header.Get("Referrer-Policy"))
	}
}

// Services are searched by name and keywords, without regard to case or accents.
func TestServiceSearch(t *testing.T) {
	f := newFixture(t)
	for q, want := range map[string][]string{
		"corte":      {"Haircut"},
		"PELUQUERIA": {"Haircut"},
		"relajacion": {"Massage"},
		"colour":     {"Colour"},
		"xyz":        {},
	} {
		res := f.get("/book/1?" + url.Values{"q": {q}}.Encode())
		wantStatus(t, res, http.StatusOK)
		for _, name := range []string{"Haircut", "Massage", "Colour"} {
			shown := strings.Contains(res.body, "<strong>"+name+"</strong>")
			wanted := false
			for _, w := range want {
				wanted = wanted || w == name
			}
			if shown != wanted {
				t.Errorf("search %q: %s shown %v, want %v", q, name, shown, wanted)
			}
		}
		if len(want) == 0 && !strings.Contains(res.body, "No service matches your search.") {
			t.Errorf("search %q: no message for no match", q)
		}
	}
}

// The date picker marks days without a free time as such, never as links.
func TestFullDaysAreNotLinks(t *testing.T) {
	f := newFixture(t)
	// Ana takes a week off from Wednesday 1 April.
	f.exec(`INSERT INTO provider_time_off (provider_id, starts_at, ends_at) VALUES (?, ?, ?)`, f.ana,
		time.Date(2026, 4, 1, 0, 0, 0, 0, santiago).UnixMilli(), time.Date(2026, 4, 8, 0, 0, 0, 0, santiago).UnixMilli())
	res := f.get("/book/1/1/times?provider=" + strconv.FormatInt(f.ana, 10))
	wantStatus(t, res, http.StatusOK)
	wantBody(t, res, "Wednesday, 1 April 2026: closed", "Tuesday, 7 April 2026: closed") // nobody to book: not "full"
	if strings.Contains(res.body, "date=2026-04-01") {
		t.Error("a day with nothing free is a link")
	}
	if !strings.Contains(res.body, "date=2026-04-08") {
		t.Error("a day with free times is not a link")
	}
}
