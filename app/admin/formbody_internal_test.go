package admin

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"frontdesk/app/apikey"
	"frontdesk/app/owner"
	"frontdesk/db"
	"frontdesk/db/dbtest"
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

// formBodyServer is the admin over a new database with one owner, served with a short read
// timeout, and a session of that owner.
type formBodyServer struct {
	d       *db.DB
	srv     *httptest.Server
	logs    *lockedBuffer
	session string
	hc      *http.Client
}

func newFormBodyServer(t *testing.T) *formBodyServer {
	t.Helper()
	ctx := context.Background()
	d := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName))
	if _, err := owner.Create(ctx, d, "owner@example.com", "correct horse battery staple", time.Now()); err != nil {
		t.Fatal(err)
	}
	logs := &lockedBuffer{}
	a := New(d, Options{Log: slog.New(slog.NewJSONHandler(logs, nil))})
	srv := httptest.NewUnstartedServer(a.Routes())
	srv.Config.ReadTimeout = 500 * time.Millisecond
	srv.Start()
	t.Cleanup(srv.Close)

	// A session, signed in the ordinary way.
	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	form := url.Values{"email": {"owner@example.com"}, "password": {"correct horse battery staple"}}
	res, err := hc.PostForm(srv.URL+"/login", form)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	u, _ := url.Parse(srv.URL)
	var session string
	for _, c := range jar.Cookies(u) {
		if c.Name == sessionCookie {
			session = c.Value
		}
	}
	if res.StatusCode != http.StatusSeeOther || session == "" {
		t.Fatalf("sign-in: got %d and cookie %q, want 303 and a session", res.StatusCode, session)
	}
	return &formBodyServer{d: d, srv: srv, logs: logs, session: session, hc: hc}
}

// send posts to path a body that stops after 34 of its 1000 bytes: the rest never comes (slow
// false) or comes too slowly (slow true). It returns the answer's status line.
func (fs *formBodyServer) send(t *testing.T, path, cookie string, slow bool) string {
	t.Helper()
	addr := strings.TrimPrefix(fs.srv.URL, "http://")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	head := "POST " + path + " HTTP/1.1\r\nHost: " + addr + "\r\nSec-Fetch-Site: same-origin\r\n" +
		"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n"
	if cookie != "" {
		head += "Cookie: " + sessionCookie + "=" + cookie + "\r\n"
	}
	if _, err := c.Write([]byte(head + "\r\nemail=owner%40example.com&first_na")); err != nil {
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

// noErrors fails the test when the server logged anything at error level; it stops the server
// first, so every handler has returned.
func (fs *formBodyServer) noErrors(t *testing.T) {
	t.Helper()
	fs.srv.Close()
	if strings.Contains(fs.logs.String(), `"level":"ERROR"`) {
		t.Errorf("error-level log lines for a client's broken body:\n%s", fs.logs)
	}
}

// A form POST whose body is cut short, or comes too slowly for the server's read timeout, used
// to answer 500 and log an error (the page render saw the request's context cancelled). It is
// the client's fault: 400, and nothing at error level — before sign-in and after.
func TestCutShortAndSlowFormBodies(t *testing.T) {
	fs := newFormBodyServer(t)
	session, send := fs.session, func(path, cookie string, slow bool) string { return fs.send(t, path, cookie, slow) }
	for _, tc := range []struct{ path, cookie string }{
		{"/login", ""}, {"/setup", ""}, {"/clients", session}, {"/catalog/services", session}, {"/account/password", session},
	} {
		for _, slow := range []bool{false, true} {
			if got := send(tc.path, tc.cookie, slow); got != "HTTP/1.1 400 Bad Request" {
				t.Errorf("POST %s (slow %v): got %q, want 400", tc.path, slow, got)
			}
		}
	}
	fs.noErrors(t)
}

// post submits a form with the signed-in session and returns the answer with its body read.
func (fs *formBodyServer) post(t *testing.T, path string, form url.Values) (int, http.Header, string) {
	t.Helper()
	res, err := fs.hc.PostForm(fs.srv.URL+path, form)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, res.Header, string(b)
}

// A button that sends no field — deactivating a client, revoking an API key — used to act on a
// POST whose body never arrived in full: the handler read nothing, so nothing noticed. Every
// POST's body is now read whole before a handler runs: 400, and nothing changes.
func TestCutShortBodyChangesNothing(t *testing.T) {
	fs := newFormBodyServer(t)
	st, h, body := fs.post(t, "/clients", url.Values{"first_name": {"Ana"}, "last_name": {"Díaz"}, "gender": {"0"}})
	client, ok := strings.CutPrefix(h.Get("Location"), "/clients/")
	if st != http.StatusSeeOther || !ok {
		t.Fatalf("create a client: %d to %q, want 303 to the client:\n%.2000s", st, h.Get("Location"), body)
	}
	if st, _, body := fs.post(t, "/settings/integrations/api-keys", url.Values{"name": {"Reader"}, "access": {accessScopes},
		"scopes": {apikey.Scopes[0], apikey.Scopes[1]}}); st != http.StatusSeeOther {
		t.Fatalf("create an API key: %d, want 303:\n%.2000s", st, body)
	}
	var key int64
	if err := fs.d.Read.QueryRow(`SELECT id FROM api_keys WHERE name = 'Reader'`).Scan(&key); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/clients/" + client + "/deactivate", "/settings/integrations/api-keys/" + strconv.FormatInt(key, 10) + "/revoke"} {
		for _, slow := range []bool{false, true} {
			if got := fs.send(t, path, fs.session, slow); got != "HTTP/1.1 400 Bad Request" {
				t.Errorf("POST %s (slow %v): got %q, want 400", path, slow, got)
			}
		}
	}
	var active, revoked int
	if err := fs.d.Read.QueryRow(`SELECT (SELECT active FROM clients WHERE id = ?), (SELECT count(*) FROM api_keys WHERE revoked_at IS NOT NULL)`,
		client).Scan(&active, &revoked); err != nil {
		t.Fatal(err)
	}
	if active != 1 || revoked != 0 {
		t.Errorf("after bodies that never arrived: client active %d, %d keys revoked; want the client active and no key revoked", active, revoked)
	}
	fs.noErrors(t)
}

// A field sent twice used to be resolved silently (the first copy won). Which one was meant
// cannot be known: the form is refused with a 400 that names the field, and nothing is saved.
// Checkbox groups (multiValued) still send as many values as are ticked.
func TestRepeatedFormFieldRefused(t *testing.T) {
	fs := newFormBodyServer(t)
	for _, tc := range []struct {
		path  string
		form  url.Values
		field string
	}{
		{"/clients", url.Values{"first_name": {"Ana", "Eve"}, "last_name": {"Díaz"}, "gender": {"0"}}, "first_name"},
		{"/settings/integrations/api-keys", url.Values{"name": {"One", "Two"}, "access": {accessFull}}, "name"},
		{"/login", url.Values{"email": {"owner@example.com", "other@example.com"}, "password": {"correct horse battery staple"}}, "email"},
	} {
		st, _, body := fs.post(t, tc.path, tc.form)
		if st != http.StatusBadRequest || !strings.Contains(body, "The form sent the field “"+tc.field+"” more than once") {
			t.Errorf("POST %s with %s twice: %d, want 400 naming the field:\n%.2000s", tc.path, tc.field, st, body)
		}
	}
	var n int
	if err := fs.d.Read.QueryRow(`SELECT (SELECT count(*) FROM clients) + (SELECT count(*) FROM api_keys)`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("%d clients and keys saved from forms with a field twice, want none", n)
	}
	// A checkbox group is many values of one field, as the browser sends it.
	if st, _, body := fs.post(t, "/settings/integrations/api-keys", url.Values{"name": {"Reader"}, "access": {accessScopes},
		"scopes": {apikey.Scopes[0], apikey.Scopes[1]}}); st != http.StatusSeeOther {
		t.Fatalf("API key with two scopes ticked: %d, want 303:\n%.2000s", st, body)
	}
	fs.noErrors(t)
}
