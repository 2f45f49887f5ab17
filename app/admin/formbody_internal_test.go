package admin

import (
	"bufio"
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

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

// A form POST whose body is cut short, or comes too slowly for the server's read timeout, used
// to answer 500 and log an error (the page render saw the request's context cancelled). It is
// the client's fault: 400, and nothing at error level — before sign-in and after.
func TestCutShortAndSlowFormBodies(t *testing.T) {
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

	addr := strings.TrimPrefix(srv.URL, "http://")
	send := func(path, cookie string, slow bool) string {
		t.Helper()
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
	for _, tc := range []struct{ path, cookie string }{
		{"/login", ""}, {"/setup", ""}, {"/clients", session}, {"/catalog/services", session}, {"/account/password", session},
	} {
		for _, slow := range []bool{false, true} {
			if got := send(tc.path, tc.cookie, slow); got != "HTTP/1.1 400 Bad Request" {
				t.Errorf("POST %s (slow %v): got %q, want 400", tc.path, slow, got)
			}
		}
	}
	srv.Close() // every handler has returned
	if strings.Contains(logs.String(), `"level":"ERROR"`) {
		t.Errorf("error-level log lines for a client's broken body:\n%s", logs)
	}
}
