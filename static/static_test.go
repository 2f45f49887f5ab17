package static

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestHandler(t *testing.T) {
	h := Handler()
	tests := []struct {
		name, path string
		status     int
		cache      string
		body       string
	}{
		{"current version", URL("app.css"), http.StatusOK, "immutable", "--accent"},
		{"htmx", URL("htmx.min.js"), http.StatusOK, "immutable", "htmx"},
		{"old version", Prefix + "app.css?v=old", http.StatusOK, "no-cache", "--accent"},
		{"unknown file", Prefix + "secret.txt", http.StatusNotFound, "", ""},
		{"no listing", Prefix, http.StatusNotFound, "", ""},
		{"no escape", Prefix + "../static.go", http.StatusNotFound, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tc.path, nil))
			if rec.Code != tc.status {
				t.Fatalf("got %d, want %d", rec.Code, tc.status)
			}
			if !strings.Contains(rec.Header().Get("Cache-Control"), tc.cache) {
				t.Errorf("got Cache-Control %q, want %q", rec.Header().Get("Cache-Control"), tc.cache)
			}
			if !strings.Contains(rec.Body.String(), tc.body) {
				t.Errorf("body lacks %q", tc.body)
			}
		})
	}
	if a, b := URL("app.css"), URL("app.js"); a == b || !strings.HasPrefix(a, "/static/app.css?v=") {
		t.Errorf("got URLs %q and %q, want distinct versioned URLs", a, b)
	}
}
