package middleware

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestRealClient(t *testing.T) {
	trusted, err := ParseTrustedProxies("10.0.0.0/8, 127.0.0.1, ::1")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name      string
		remote    string
		tls       bool
		xff       []string
		proto     string
		wantIP    string
		wantHTTPS bool
	}{
		{"direct, no headers", "203.0.113.7:5555", false, nil, "", "203.0.113.7", false},
		{"direct TLS", "203.0.113.7:5555", true, nil, "", "203.0.113.7", true},
		{"untrusted peer forges both", "203.0.113.7:5555", false, []string{"198.51.100.1"}, "https", "203.0.113.7", false},
		{"untrusted peer cannot downgrade TLS", "203.0.113.7:5555", true, nil, "http", "203.0.113.7", true},
		{"trusted proxy", "10.1.2.3:4000", false, []string{"198.51.100.1"}, "https", "198.51.100.1", true},
		{"trusted proxy, client prepends a lie", "10.1.2.3:4000", false, []string{"1.2.3.4, 198.51.100.1"}, "https", "198.51.100.1", true},
		{"two trusted hops", "127.0.0.1:4000", false, []string{"1.2.3.4, 198.51.100.1, 10.9.9.9"}, "http", "198.51.100.1", false},
		{"repeated headers", "10.1.2.3:4000", false, []string{"1.2.3.4", "198.51.100.1"}, "https", "198.51.100.1", true},
		{"ports and brackets", "[::1]:4000", false, []string{"[2001:db8::5]:443"}, "https", "2001:db8::5", true},
		{"v4-mapped proxy", "[::ffff:10.0.0.1]:4000", false, []string{"198.51.100.1"}, "", "198.51.100.1", false},
		{"garbage entry stops the walk", "10.1.2.3:4000", false, []string{"1.2.3.4, not-an-ip, 10.0.0.2"}, "", "10.0.0.2", false},
		{"trusted proxy without XFF", "10.1.2.3:4000", false, nil, "", "10.1.2.3", false},
		{"proto list takes the last", "10.1.2.3:4000", false, nil, "http, https", "10.1.2.3", true},
		{"direct IPv6", "[2001:db8::9]:5555", false, nil, "", "2001:db8::9", false},
		{"direct v4-mapped", "[::ffff:203.0.113.7]:5555", false, nil, "", "203.0.113.7", false},
	}
	// Alone, RealClient keeps the client in a context value of its own; inside WithRequestID,
	// in the request's record. Both must say the same.
	for _, chain := range []struct {
		name string
		wrap func(http.Handler) http.Handler
	}{
		{"alone", RealClient(trusted)},
		{"inside WithRequestID", func(h http.Handler) http.Handler { return WithRequestID(RealClient(trusted)(h)) }},
	} {
		for _, c := range cases {
			t.Run(chain.name+"/"+c.name, func(t *testing.T) {
				var gotIP string
				var gotHTTPS bool
				h := chain.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					gotIP, gotHTTPS = ClientIP(r), IsHTTPS(r)
				}))
				req := httptest.NewRequest(http.MethodGet, "/", nil)
				req.RemoteAddr = c.remote
				if c.tls {
					req.TLS = &tls.ConnectionState{}
				}
				for _, v := range c.xff {
					req.Header.Add("X-Forwarded-For", v)
				}
				if c.proto != "" {
					req.Header.Set("X-Forwarded-Proto", c.proto)
				}
				h.ServeHTTP(httptest.NewRecorder(), req)
				if gotIP != c.wantIP || gotHTTPS != c.wantHTTPS {
					t.Fatalf("got client %q https=%v, want %q https=%v", gotIP, gotHTTPS, c.wantIP, c.wantHTTPS)
				}
			})
		}
	}
}

// The middleware every request passes through costs few allocations: inside WithRequestID,
// RealClient and AccessLog keep what they need in the request's one record, so for an IPv4
// client they add no allocation of their own besides the log line's attributes.
func TestSharedMiddlewareAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates for itself")
	}
	log := slog.New(slog.NewJSONHandler(io.Discard, nil))
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.RemoteAddr = "203.0.113.7:5555"
	w := &headerOnlyWriter{h: http.Header{}}
	allocs := func(h http.Handler) float64 {
		return testing.AllocsPerRun(200, func() {
			clear(w.h)
			h.ServeHTTP(w, req)
		})
	}
	// Every figure is measured against the chain without the middleware it names.
	withID := allocs(WithRequestID(ok))
	if got := allocs(WithRequestID(RealClient(nil)(ok))) - withID; got != 0 {
		t.Errorf("RealClient inside WithRequestID: got %v allocations per request, want 0", got)
	}
	// AccessLog alone would cost its recorder; its line's attributes past slog's five inline
	// ones are the one allocation it keeps.
	if got := allocs(WithRequestID(RealClient(nil)(AccessLog(log, nil)(ok)))) - withID; got > 1 {
		t.Errorf("AccessLog inside WithRequestID: got %v allocations per request, want at most 1", got)
	}
}

// headerOnlyWriter is a ResponseWriter that keeps headers and drops the body, and allocates nothing.
type headerOnlyWriter struct{ h http.Header }

func (w *headerOnlyWriter) Header() http.Header         { return w.h }
func (w *headerOnlyWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *headerOnlyWriter) WriteHeader(int)             {}

func TestParseTrustedProxies(t *testing.T) {
	if p, err := ParseTrustedProxies(""); err != nil || len(p) != 0 {
		t.Fatalf("empty: got %v, %v; want nothing trusted", p, err)
	}
	for _, bad := range []string{"10.0.0.0/33", "example.com", "10.0.0.0/8,,x"} {
		if _, err := ParseTrustedProxies(bad); err == nil {
			t.Errorf("ParseTrustedProxies(%q): want an error", bad)
		}
	}
}

func TestRedactQuery(t *testing.T) {
	cases := []struct{ in, want string }{
		{"page=2&per_page=30", "page=2&per_page=30"},
		{"token=abc123&x=1", "token=REDACTED&x=1"},
		{"api_key=apk_live_x&apiKey=y&X-Token=z", "api_key=REDACTED&apiKey=REDACTED&X-Token=REDACTED"},
		{"manage%5Ftoken=secret&next=%2F", "manage%5Ftoken=REDACTED&next=%2F"},
		{"password=hunter2&password=again", "password=REDACTED&password=REDACTED"},
		{"flag&token", "flag&token"},
		{"q=token", "q=token"},
	}
	for _, c := range cases {
		if got := RedactQuery(c.in); got != c.want {
			t.Errorf("RedactQuery(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// The access log line carries the real client (from RealClient) and a redacted query.
func TestAccessLogClientAndQuery(t *testing.T) {
	trusted, _ := ParseTrustedProxies("10.0.0.1")
	var out bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&out, nil))
	h := RealClient(trusted)(AccessLog(log, nil)(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})))
	for _, remote := range []string{"10.0.0.1:1000", "203.0.113.9:1000"} {
		req := httptest.NewRequest(http.MethodGet, "/setup?token=s3cret&lang=es", nil)
		req.RemoteAddr = remote
		req.Header.Set("X-Forwarded-For", "198.51.100.4")
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("got %d log lines, want 2", len(lines))
	}
	for i, want := range []string{"198.51.100.4", "203.0.113.9"} {
		var line struct{ Remote, Query string }
		if err := json.Unmarshal([]byte(lines[i]), &line); err != nil {
			t.Fatal(err)
		}
		if line.Remote != want || line.Query != "token=REDACTED&lang=es" {
			t.Errorf("line %d: got remote %q query %q, want %q and the token redacted", i, line.Remote, line.Query, want)
		}
	}
	if strings.Contains(out.String(), "s3cret") {
		t.Fatalf("the token is in the log: %s", out.String())
	}
}
