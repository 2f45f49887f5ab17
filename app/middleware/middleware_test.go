package middleware

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"
	"time"
)

var generatedID = regexp.MustCompile(`^[0-9a-f]{24}$`)

func TestWithRequestID(t *testing.T) {
	cases := []struct {
		name     string
		incoming string
		keep     bool
	}{
		{"none", "", false},
		{"sane", "abc-DEF_123", true},
		{"too long", string(bytes.Repeat([]byte("a"), 65)), false},
		{"bad character", "abc def", false},
		{"header injection", "abc\r\nX-Evil: 1", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var inContext string
			h := WithRequestID(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				inContext = RequestID(r.Context())
			}))
			req := httptest.NewRequest(http.MethodGet, "/", nil)
			if c.incoming != "" {
				req.Header["X-Request-Id"] = []string{c.incoming}
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			got := w.Header().Get("X-Request-Id")
			switch {
			case c.keep && got != c.incoming:
				t.Fatalf("got id %q, want the incoming %q", got, c.incoming)
			case !c.keep && !generatedID.MatchString(got):
				t.Fatalf("got id %q, want 24 hex digits", got)
			}
			if inContext != got {
				t.Fatalf("got id %q in the context, want %q as in the header", inContext, got)
			}
		})
	}
}

func TestNewRequestIDsDiffer(t *testing.T) {
	seen := map[string]bool{}
	for range 10000 {
		id := newRequestID()
		if !generatedID.MatchString(id) {
			t.Fatalf("got id %q, want 24 hex digits", id)
		}
		if seen[id] {
			t.Fatalf("got id %q twice", id)
		}
		seen[id] = true
	}
}

func TestAccessLogLine(t *testing.T) {
	var out bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&out, nil))
	var observed int
	h := WithRequestID(AccessLog(log, func(r *http.Request, status int, _ time.Duration) { observed = status })(
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusTeapot)
			w.Write([]byte("short and stout"))
		})))
	req := httptest.NewRequest(http.MethodGet, "/pot?x=1", nil)
	req.Header.Set("X-Request-Id", "req-1")
	h.ServeHTTP(httptest.NewRecorder(), req)
	var line struct {
		Msg       string `json:"msg"`
		RequestID string `json:"request_id"`
		Method    string `json:"method"`
		Path      string `json:"path"`
		Status    int    `json:"status"`
		Bytes     int    `json:"bytes"`
		Remote    string `json:"remote"`
	}
	if err := json.Unmarshal(out.Bytes(), &line); err != nil {
		t.Fatalf("got log %q: %v", out.String(), err)
	}
	want := line
	want.Msg, want.RequestID, want.Method, want.Path = "http", "req-1", "GET", "/pot"
	want.Status, want.Bytes, want.Remote = http.StatusTeapot, 15, "192.0.2.1"
	if line != want {
		t.Fatalf("got %+v, want %+v", line, want)
	}
	if observed != http.StatusTeapot {
		t.Fatalf("got observed status %d, want %d", observed, http.StatusTeapot)
	}
}

// A calendar feed's token never reaches the access log; other paths are logged as they came.
func TestAccessLogRedactsFeedTokens(t *testing.T) {
	for path, want := range map[string]string{
		"/feeds/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde.ics": "/feeds/REDACTED.ics",
		"/feeds/AbCdEf":      "/feeds/REDACTED",
		"/feeds/":            "/feeds/",
		"/book/1/2":          "/book/1/2",
		"/feedsx/secret.ics": "/feedsx/secret.ics",
	} {
		var out bytes.Buffer
		h := AccessLog(slog.New(slog.NewJSONHandler(&out, nil)), nil)(http.NotFoundHandler())
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, path, nil))
		var line struct{ Path string }
		if err := json.Unmarshal(out.Bytes(), &line); err != nil {
			t.Fatalf("got log %q: %v", out.String(), err)
		}
		if line.Path != want {
			t.Errorf("%s logged as %q, want %q", path, line.Path, want)
		}
	}
}
