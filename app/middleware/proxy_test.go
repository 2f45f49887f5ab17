package middleware

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
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
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var gotIP string
			var gotHTTPS bool
			h := RealClient(trusted)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
