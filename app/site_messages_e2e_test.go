package app

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"

	"frontdesk/app/booking"
	"frontdesk/app/messages/smtptest"
	"frontdesk/db"
)

// siteServer serves the messages fixture (messages/testdata/business.json) with the booking site
// switched on, a public URL, and email to a real SMTP server in the test; prepare may change the
// database before the server starts. It returns the base URL, an API key and the SMTP server.
func siteServer(t *testing.T, prepare ...func(*db.DB)) (string, string, *smtptest.Server) {
	t.Helper()
	dir, key := messagesSetup(t)
	d, err := db.Open(context.Background(), filepath.Join(dir, db.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Write.Exec(`UPDATE site_settings SET enabled = 1`); err != nil {
		t.Fatal(err)
	}
	for _, f := range prepare {
		f(d)
	}
	d.Close()
	smtp := smtptest.Start(t)
	addr := freeAddr(t)
	base := "http://" + addr
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	stopped := make(chan int, 1)
	go func() {
		stopped <- Run(ctx, Env{
			Args:   []string{"serve", "--data", dir, "--addr", addr, "--public-url", base, "--smtp-url", smtp.URL(), "--mail-from", "Studio Ana <hola@studio-ana.example>"},
			Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" },
			Ready: func(addr string) { ready <- addr },
		})
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-stopped:
		case <-time.After(30 * time.Second):
			t.Errorf("serve did not stop")
		}
	})
	select {
	case <-ready:
	case code := <-stopped:
		t.Fatalf("serve exited %d", code)
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not start")
	}
	return base, key, smtp
}

// get fetches a page of the real server (following redirects) and returns its final URL and HTML.
func get(t *testing.T, raw string) (*url.URL, string) {
	t.Helper()
	resp, err := http.Get(raw)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d\n%s", raw, resp.StatusCode, body)
	}
	return resp.Request.URL, string(body)
}

var (
	hrefRE   = regexp.MustCompile(`href="([^"]+)"`)
	hiddenRE = regexp.MustCompile(`<input type="hidden" name="([a-z_]+)" value="([^"]*)"`)
)

// link is the first href of page containing every part (as written in the HTML, unescaped).
func link(t *testing.T, page string, parts ...string) string {
	t.Helper()
next:
	for _, m := range hrefRE.FindAllStringSubmatch(page, -1) {
		href := html.UnescapeString(m[1])
		for _, p := range parts {
			if !strings.Contains(href, p) {
				continue next
			}
		}
		return href
	}
	t.Fatalf("no link with %q in:\n%s", parts, page)
	return ""
}

// The acceptance line of issue 12 for the booking site: a booking made on the site — driven
// over HTTP through every step, as a visitor without JavaScript would — produces a
// confirmation at a real SMTP server naming the right local time, with an .ics that parses to
// the booked instant, and the client's manage link in it opens the manage page of that booking.
func TestBookingThroughSiteSendsConfirmation(t *testing.T) {
	base, _, smtp := siteServer(t)
	santiago, _ := time.LoadLocation("America/Santiago")
	day := time.Now().In(santiago).AddDate(0, 0, 3)
	start := time.Date(day.Year(), day.Month(), day.Day(), 16, 45, 0, 0, santiago)

	// Location (skipped: one) → service → provider (skipped: one) → the day's times.
	at, page := get(t, base+"/book")
	if at.Path != "/book/1" {
		t.Fatalf("/book led to %s, want the only location", at.Path)
	}
	at, page = get(t, base+link(t, page, "/book/1/1"))
	if at.Path != "/book/1/1/times" {
		t.Fatalf("the service led to %s, want its times (one provider)", at.Path)
	}
	_, page = get(t, base+link(t, page, "/times?", "date="+start.Format(time.DateOnly)))
	_, page = get(t, base+link(t, page, "/details?", "start="+url.QueryEscape(start.Format(time.RFC3339))))

	form := url.Values{"first_name": {"Rosa"}, "last_name": {"Díaz"}, "email": {"rosa@example.com"}, "phone": {"+56 9 8765 4321"}}
	for _, m := range hiddenRE.FindAllStringSubmatch(page, -1) {
		form.Set(m[1], html.UnescapeString(m[2]))
	}
	if form.Get("start") != start.Format(time.RFC3339) || form.Get("nonce") == "" {
		t.Fatalf("details form carries %v", form)
	}
	resp, err := http.PostForm(base+"/book/1/1/details", form)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Request.URL.Path, "/book/manage/") {
		t.Fatalf("booking: %d at %s\n%s", resp.StatusCode, resp.Request.URL, body)
	}

	got := waitSMTP(t, smtp, 1)[0]
	if len(got.To) != 1 || got.To[0] != "rosa@example.com" {
		t.Fatalf("confirmation to %v, want the visitor", got.To)
	}
	p, err := smtptest.Parse(got.Data)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(p.Subject, "Booking confirmed: Haircut on") || !strings.HasSuffix(p.Subject, "at 16:45") {
		t.Errorf("subject %q, want the local start 16:45", p.Subject)
	}
	_, offset := start.Zone()
	zone := "UTC−3"
	if offset == -4*3600 {
		zone = "UTC−4"
	}
	if !strings.Contains(p.Text, "16:45 (America/Santiago, "+zone+")") {
		t.Errorf("text lacks the local time with its zone:\n%s", p.Text)
	}
	if at, ev := calendarEvent(t, p.Attachments["booking.ics"]); !at.Equal(start) {
		t.Errorf(".ics starts %v, want the booked %v", at, start)
	} else if u := ev.GetProperty("URL"); u == nil || !strings.HasPrefix(u.Value, base+"/book/manage/") {
		t.Errorf(".ics URL %+v, want the manage link", u)
	}

	// The manage link in the email is the client's own and opens their booking.
	m := regexp.MustCompile(regexp.QuoteMeta(base) + `(/book/manage/[A-Za-z0-9_-]{43})`).FindStringSubmatch(p.Text)
	if m == nil {
		t.Fatalf("no manage link in the confirmation:\n%s", p.Text)
	}
	at, page = get(t, base+m[1])
	if at.Path != m[1] || !strings.Contains(page, "Haircut") || !strings.Contains(page, "16:45") ||
		!strings.Contains(page, `data-testid="manage-reschedule"`) {
		t.Errorf("the emailed link opened %s without the booking:\n%s", at, page)
	}
	if !strings.Contains(page, start.Format("2")+" "+start.Format("January")) {
		t.Errorf("the manage page does not name the booked date %s", start.Format("2 January"))
	}
}

// calendarEvent parses an .ics with an independent library and returns its one event's start.
func calendarEvent(t *testing.T, raw []byte) (time.Time, *ics.VEvent) {
	t.Helper()
	cal, err := ics.ParseCalendar(strings.NewReader(string(raw)))
	if err != nil || len(cal.Events()) != 1 {
		t.Fatalf("booking.ics: %v\n%s", err, raw)
	}
	ev := cal.Events()[0]
	at, err := ev.GetStartAt()
	if err != nil {
		t.Fatal(err)
	}
	return at, ev
}

// Classes × booking site × messages, through the real server: a visitor joins a full class
// session's waitlist on the booking site; when an API client cancels a seat, the visitor is
// booked in that transaction and gets "you got a seat" at the SMTP server — the session's local
// time, an .ics at its instant — and the manage link in it opens the new booking. The visitor's
// waitlist link then says they have a seat.
func TestWaitlistSeatThroughSiteAndEmail(t *testing.T) {
	santiago, _ := time.LoadLocation("America/Santiago")
	day := time.Now().In(santiago).AddDate(0, 0, 3)
	start := time.Date(day.Year(), day.Month(), day.Day(), 18, 30, 0, 0, santiago)
	base, key, smtp := siteServer(t, func(d *db.DB) {
		if _, err := d.Write.Exec(`UPDATE services SET capacity = 2 WHERE id = 1`); err != nil {
			t.Fatal(err)
		}
		if _, err := booking.CreateSession(context.Background(), d, time.Now(), booking.SessionInput{
			LocationID: 1, ServiceID: 1, ProviderID: 1, Start: start,
		}); err != nil {
			t.Fatal(err)
		}
	})
	seats := make([]int64, 2)
	for i, client := range []int{1, 2} {
		seats[i] = apiSeat(t, base, key, client, start)
	}

	_, page := get(t, base+"/book/1/1/times?provider=0&date="+start.Format(time.DateOnly))
	_, page = get(t, base+link(t, page, "/waitlist?", "start="+url.QueryEscape(start.Format(time.RFC3339))))
	form := url.Values{"first_name": {"Rosa"}, "last_name": {"Díaz"}, "email": {"rosa@example.com"}, "phone": {"+56 9 8765 4321"}}
	for _, m := range hiddenRE.FindAllStringSubmatch(page, -1) {
		form.Set(m[1], html.UnescapeString(m[2]))
	}
	resp, err := http.PostForm(base+"/book/1/1/waitlist", form)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	place := resp.Request.URL.Path
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(place, "/book/waitlist/") || !strings.Contains(string(body), "You are next in the queue.") {
		t.Fatalf("joining: %d at %s\n%s", resp.StatusCode, resp.Request.URL, body)
	}

	req, _ := http.NewRequest(http.MethodPatch, base+"/v3/bookings/"+strconv.FormatInt(seats[1], 10)+"/cancel", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNoContent {
		t.Fatalf("cancel: %d", res.StatusCode)
	}

	var seat smtptest.Parsed
	deadline := time.Now().Add(20 * time.Second)
	for seat.Subject == "" {
		for _, m := range smtp.Messages() {
			if p, err := smtptest.Parse(m.Data); err == nil && len(m.To) == 1 && m.To[0] == "rosa@example.com" {
				seat = p
			}
		}
		if seat.Subject == "" && time.Now().After(deadline) {
			t.Fatal("no email reached the promoted visitor")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.HasPrefix(seat.Subject, "You got a seat: Haircut on") || !strings.HasSuffix(seat.Subject, "at 18:30") {
		t.Errorf("subject %q, want you got a seat at 18:30", seat.Subject)
	}
	if at, _ := calendarEvent(t, seat.Attachments["booking.ics"]); !at.Equal(start) {
		t.Errorf(".ics starts %v, want the session's %v", at, start)
	}
	m := regexp.MustCompile(regexp.QuoteMeta(base) + `(/book/manage/[A-Za-z0-9_-]{43})`).FindStringSubmatch(seat.Text)
	if m == nil {
		t.Fatalf("no manage link in:\n%s", seat.Text)
	}
	if _, page := get(t, base+m[1]); !strings.Contains(page, "18:30") || !strings.Contains(page, `data-testid="manage-cancel"`) {
		t.Errorf("the emailed link does not open the seat's booking:\n%s", page)
	}
	if _, page := get(t, base+place); !strings.Contains(page, "You got a seat: you are booked") {
		t.Errorf("the waitlist link does not say the seat came:\n%s", page)
	}
}

// apiSeat books client into the class session at start through POST /v3/bookings.
func apiSeat(t *testing.T, base, key string, client int, start time.Time) int64 {
	t.Helper()
	body := `{"location_id":1,"service_id":1,"provider_id":1,"client_id":` + strconv.Itoa(client) + `,"status_id":1,"start_time":"` + start.Format(time.RFC3339) + `"}`
	req, _ := http.NewRequest(http.MethodPost, base+"/v3/bookings", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /v3/bookings: %d %s", resp.StatusCode, raw)
	}
	var b struct{ ID int64 }
	if err := json.Unmarshal(raw, &b); err != nil {
		t.Fatal(err)
	}
	return b.ID
}
