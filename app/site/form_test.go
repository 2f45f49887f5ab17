package site_test

import (
	"bufio"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"frontdesk/app/site"
)

// lockedBuffer collects log lines written from the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// withLog sends the site's log to logs, as JSON lines.
func withLog(logs *lockedBuffer) func(*site.Options) {
	return func(o *site.Options) { o.Log = slog.New(slog.NewJSONHandler(logs, nil)) }
}

// sendBroken posts to path on srv a form body that stops after a few of its 1000 bytes: the
// rest never comes (slow false) or comes too slowly for the server's read timeout (slow true).
// It returns the answer's status line.
func sendBroken(t *testing.T, srv *httptest.Server, path string, slow bool) string {
	t.Helper()
	addr := strings.TrimPrefix(srv.URL, "http://")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	head := "POST " + path + " HTTP/1.1\r\nHost: " + addr + "\r\nSec-Fetch-Site: same-origin\r\n" +
		"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n"
	if _, err := c.Write([]byte(head + "provider=0&first_name=Cam")); err != nil {
		t.Fatal(err)
	}
	if !slow {
		c.(*net.TCPConn).CloseWrite() // the rest never comes
	}
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		t.Fatalf("POST %s: reading the answer: %v", path, err)
	}
	return strings.TrimSpace(line)
}

// A POST whose body is cut short, or comes too slowly for the server's read timeout, used to
// answer 500 and log an error per request (the form's read error was dropped, and what came
// after failed on the cancelled request), and a cancel — whose button sends no field — went
// through on a body that never arrived. Every POST's body is now read whole first: 400, nothing
// changes, and nothing is logged at error level.
func TestCutShortAndSlowFormBodies(t *testing.T) {
	logs := &lockedBuffer{}
	f := newFixture(t, withLog(logs))
	manage := f.bookAt(time.Date(2026, 3, 31, 10, 0, 0, 0, santiago))
	before := f.bookings()
	srv := httptest.NewUnstartedServer(f.handler)
	srv.Config.ReadTimeout = 500 * time.Millisecond
	srv.Start()
	t.Cleanup(srv.Close)

	for _, path := range []string{"/book/1/1/details", "/book/1/1/waitlist", manage + "/reschedule", manage + "/cancel"} {
		for _, slow := range []bool{false, true} {
			if got := sendBroken(t, srv, path, slow); got != "HTTP/1.1 400 Bad Request" {
				t.Errorf("POST %s (slow %v): got %q, want 400", path, slow, got)
			}
		}
	}
	srv.Close() // every handler has returned
	if after := f.bookings(); !slices.Equal(after, before) {
		t.Errorf("after bodies that never arrived: %+v, want the one booking unchanged: %+v", after, before)
	}
	if strings.Contains(logs.String(), `"level":"ERROR"`) {
		t.Errorf("error-level log lines for a client's broken body:\n%s", logs)
	}
}

// A field sent twice used to be resolved silently — the first copy won — so an empty first
// "website" let a robot's filled second one past the honeypot. The form is refused with a 400
// naming the field, and nothing is written.
func TestRepeatedFieldRefused(t *testing.T) {
	f := newFixture(t)
	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	manage := f.bookAt(at)
	before := f.bookings()
	form := f.details(haircut, f.ana, at.Add(time.Hour))
	form["website"] = []string{"", "http://spam.example"}
	res := f.post("/book/1/1/details", form)
	wantStatus(t, res, http.StatusBadRequest)
	wantBody(t, res, "The form sent the field “website” more than once")

	moved := url.Values{"start": {at.Add(2 * time.Hour).Format(time.RFC3339), at.Add(3 * time.Hour).Format(time.RFC3339)}, "provider": {"0"}}
	res = f.post(manage+"/reschedule", moved)
	wantStatus(t, res, http.StatusBadRequest)
	wantBody(t, res, "The form sent the field “start” more than once")

	f.exec(`UPDATE company SET language = 'es'`)
	res = f.post(manage+"/cancel", url.Values{"x": {"1", "2"}})
	wantStatus(t, res, http.StatusBadRequest)
	wantBody(t, res, "El formulario envió el campo “x” más de una vez")

	if after := f.bookings(); !slices.Equal(after, before) {
		t.Errorf("after forms with a field twice: %+v, want the one booking unchanged: %+v", after, before)
	}
	if n := f.count(`SELECT count(*) FROM clients`); n != 1 {
		t.Errorf("%d clients, want the one who booked", n)
	}
}

// An IPv6 client has a whole /64 to choose addresses from: the per-address limit on POSTs
// counts the /64, not each address in it. IPv4 addresses are counted one by one.
func TestPerAddressLimitCountsIPv6By64(t *testing.T) {
	f := newFixture(t, func(o *site.Options) {
		o.PostsPerHour = 60
		o.ClientIP = func(r *http.Request) string { return r.Header.Get("X-Test-Client") }
	})
	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	bad := f.details(haircut, f.ana, at)
	bad.Set("email", "not an email") // refused by validation: costs a request, books nothing
	post := func(client string) response {
		t.Helper()
		return f.postWith("/book/1/1/details", bad, http.Header{"Sec-Fetch-Site": {"same-origin"}, "X-Test-Client": {client}})
	}
	for i := range 10 { // the burst, each from another address of one /64
		client := fmt.Sprintf("2001:db8:1:2::%x", i+1)
		if res := post(client); res.status != http.StatusUnprocessableEntity {
			t.Fatalf("POST %d from %s: status %d, want 422", i+1, client, res.status)
		}
	}
	res := post("2001:db8:1:2:ffff:ffff:ffff:ffff")
	wantStatus(t, res, http.StatusTooManyRequests)
	// The next /64 is someone else.
	wantStatus(t, post("2001:db8:1:3::1"), http.StatusUnprocessableEntity)
	for i := range 11 {
		client := fmt.Sprintf("198.51.100.%d", i+1)
		if res := post(client); res.status != http.StatusUnprocessableEntity {
			t.Fatalf("POST from %s: status %d, want 422 (each IPv4 address is its own client)", client, res.status)
		}
	}
}
