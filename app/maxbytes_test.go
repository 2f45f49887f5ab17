package app

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// maxBytes limits every body as http.MaxBytesHandler does, and passes a request without one
// through as it came.
func TestMaxBytes(t *testing.T) {
	var got *http.Request
	var readErr error
	h := maxBytes(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		_, readErr = io.ReadAll(r.Body)
	}), 10)
	for _, c := range []struct {
		name     string
		body     io.Reader
		tooLarge bool
	}{
		{"no body", nil, false},
		{"within the limit", strings.NewReader("0123456789"), false},
		{"over the limit", strings.NewReader("0123456789x"), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, "/v3/clients", c.body)
			h.ServeHTTP(httptest.NewRecorder(), req)
			var tooLarge *http.MaxBytesError
			if errors.As(readErr, &tooLarge) != c.tooLarge || (!c.tooLarge && readErr != nil) {
				t.Fatalf("got read error %v, want a MaxBytesError: %v", readErr, c.tooLarge)
			}
			if c.body == nil && got != req {
				t.Error("a request without a body was copied")
			}
		})
	}
}
