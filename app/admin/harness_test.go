package admin_test

// The test harness: the real appliance (app.Run, exactly what `frontdesk serve` runs) on a
// random loopback port with a temp data directory, plain-HTTP clients with cookie jars, and a
// headless Chromium driven by chromedp. Page-group tests in this package build on it.

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"frontdesk/app"
	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// testServer is one running appliance.
type testServer struct {
	URL  string // http://127.0.0.1:port
	Data string // its data directory
	logs *syncBuffer
	// LinkBase is what generated links start with: FRONTDESK_PUBLIC_URL if given, else URL.
	LinkBase string
}

// startServer runs `frontdesk serve` in-process with extra flags, and stops it when the test
// ends. Environment variables can be given as "FRONTDESK_X=value" entries in env.
func startServer(t testing.TB, env ...string) *testServer {
	t.Helper()
	dir := t.TempDir()
	// The database serve would create, migrated once per test binary and copied (dbtest).
	dbtest.NewFile(t, db.Path(dir))
	logs := &syncBuffer{}
	vars := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	ready := make(chan string, 1)
	done := make(chan int, 1)
	ctx, stop := context.WithCancel(context.Background())
	go func() {
		done <- app.Run(ctx, app.Env{
			Args:   []string{"serve", "--addr", "127.0.0.1:0", "--data", dir},
			Getenv: func(k string) string { return vars[k] },
			Stdout: io.Discard,
			Stderr: logs,
			Ready:  func(addr string) { ready <- addr },
		})
	}()
	t.Cleanup(func() {
		stop()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Error("server did not stop within 30 s")
		}
	})
	select {
	case addr := <-ready:
		base := vars["FRONTDESK_PUBLIC_URL"]
		if base == "" {
			base = "http://" + addr
		}
		return &testServer{URL: "http://" + addr, Data: dir, logs: logs, LinkBase: base}
	case code := <-done:
		t.Fatalf("server exited with status %d before listening:\n%s", code, logs)
	case <-time.After(60 * time.Second):
		t.Fatalf("server not listening after 60 s:\n%s", logs)
	}
	return nil
}

// setupURL is the first-run URL the server logged.
func (ts *testServer) setupURL(t testing.TB) string {
	t.Helper()
	var found string
	waitFor(t, "the setup URL in the log", func() bool {
		for _, line := range strings.Split(ts.logs.String(), "\n") {
			var entry struct {
				SetupURL string `json:"setup_url"`
			}
			if json.Unmarshal([]byte(line), &entry) == nil && entry.SetupURL != "" {
				found = entry.SetupURL
				return true
			}
		}
		return false
	})
	if !strings.HasPrefix(found, ts.LinkBase+"/setup?token=") {
		t.Fatalf("got setup URL %q, want it under %s/setup?token=", found, ts.LinkBase)
	}
	return found
}

// waitFor polls cond until it holds or 10 s pass.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// syncBuffer collects the server's log lines for tests to read while it runs.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// client is a browser-like HTTP client: it keeps cookies, does not follow redirects (tests
// look at them), and marks its requests same-origin as browsers do.
type client struct {
	ts   *testServer
	http *http.Client
}

func (ts *testServer) newClient(t testing.TB) *client {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &client{ts: ts, http: &http.Client{
		Jar:           jar,
		Timeout:       30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// response is what tests inspect.
type response struct {
	Status int
	Header http.Header
	Body   string
}

func (c *client) do(t testing.TB, req *http.Request) response {
	t.Helper()
	res, err := c.http.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{Status: res.StatusCode, Header: res.Header, Body: string(b)}
}

func (c *client) get(t testing.TB, path string) response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, c.ts.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	return c.do(t, req)
}

// post submits a form the way a page of this site does.
func (c *client) post(t testing.TB, path string, form url.Values) response {
	t.Helper()
	return c.postWith(t, path, form, http.Header{"Origin": {c.ts.URL}, "Sec-Fetch-Site": {"same-origin"}})
}

func (c *client) postWith(t testing.TB, path string, form url.Values, h http.Header) response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, c.ts.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = h.Clone()
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return c.do(t, req)
}

// cookie is the client's current session cookie ("" if none).
func (c *client) cookie() string {
	u, _ := url.Parse(c.ts.URL)
	for _, ck := range c.http.Jar.Cookies(u) {
		if ck.Name == "frontdesk_session" {
			return ck.Value
		}
	}
	return ""
}

// setCookie replaces the client's session cookie, to replay an old one.
func (c *client) setCookie(value string) {
	u, _ := url.Parse(c.ts.URL)
	c.http.Jar.SetCookies(u, []*http.Cookie{{Name: "frontdesk_session", Value: value, Path: "/"}})
}

// Credentials of the owner the tests create.
const (
	ownerEmail    = "owner@example.com"
	ownerPassword = "correct horse battery staple"
)

// setupOwner creates the first owner through /setup and returns a client signed in as them.
func (ts *testServer) setupOwner(t testing.TB) *client {
	t.Helper()
	u, err := url.Parse(ts.setupURL(t))
	if err != nil {
		t.Fatal(err)
	}
	c := ts.newClient(t)
	res := c.post(t, "/setup", url.Values{"token": {u.Query().Get("token")}, "email": {ownerEmail}, "password": {ownerPassword}, "confirm": {ownerPassword}})
	wantRedirect(t, res, "/")
	return c
}

// login signs c in and fails the test unless it worked.
func (c *client) login(t testing.TB, email, password string) {
	t.Helper()
	res := c.post(t, "/login", url.Values{"email": {email}, "password": {password}})
	wantRedirect(t, res, "/")
}

func wantStatus(t testing.TB, res response, want int) {
	t.Helper()
	if res.Status != want {
		t.Fatalf("got status %d, want %d; body:\n%.2000s", res.Status, want, res.Body)
	}
}

func wantRedirect(t testing.TB, res response, to string) {
	t.Helper()
	if res.Status != http.StatusSeeOther || res.Header.Get("Location") != to {
		t.Fatalf("got %d to %q, want 303 to %q; body:\n%.2000s", res.Status, res.Header.Get("Location"), to, res.Body)
	}
}

func wantBody(t testing.TB, res response, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(res.Body, p) {
			t.Errorf("body lacks %q:\n%.3000s", p, res.Body)
		}
	}
}
