package api

import (
	"net/http"
	"strings"
	"testing"
)

// HEAD is answered wherever GET is (RFC 9110 §9.1: a server that supports GET supports HEAD),
// with GET's status and headers and no body: monitors and clients that check a resource or its
// tag with HEAD used to get 405.
func TestHeadIsAnsweredLikeGet(t *testing.T) {
	f := newFixture(t)
	for _, path := range []string{"/v3/openapi.json", "/v3/services", "/v3/services/1", "/v3/locations/1", "/v3/clients"} {
		get, getBody := f.call("GET", path, nil)
		wantStatus(t, get, getBody, http.StatusOK)
		head, headBody := f.call("HEAD", path, nil)
		wantStatus(t, head, headBody, http.StatusOK)
		if len(headBody) != 0 {
			t.Errorf("HEAD %s: body %q, want none", path, headBody)
		}
		if g, h := get.Header.Get("ETag"), head.Header.Get("ETag"); g != h {
			t.Errorf("HEAD %s: ETag %q, GET's is %q", path, h, g)
		}
		if ct := head.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("HEAD %s: Content-Type %q", path, ct)
		}
	}

	// The tag works with HEAD as with GET.
	get, raw := f.call("GET", "/v3/services/1", nil)
	wantStatus(t, get, raw, http.StatusOK)
	head, raw := f.call("HEAD", "/v3/services/1", nil, "If-None-Match", get.Header.Get("ETag"))
	wantStatus(t, head, raw, http.StatusNotModified)

	// Authentication and scopes hold for HEAD too.
	resp, raw := f.callWithKey("", "HEAD", "/v3/services/1", nil)
	wantStatus(t, resp, raw, http.StatusUnauthorized)
	resp, raw = f.callWithKey(f.newKey("clients:read"), "HEAD", "/v3/services/1", nil)
	wantStatus(t, resp, raw, http.StatusForbidden)
	resp, raw = f.call("HEAD", "/v3/services/999999", nil)
	wantStatus(t, resp, raw, http.StatusNotFound)

	// HEAD of a path without GET is still a 405.
	resp, raw = f.call("HEAD", "/v3/carts", nil)
	wantStatus(t, resp, raw, http.StatusMethodNotAllowed)
}

// A 405 names the methods the path has in Allow (RFC 9110 §15.5.6 requires it), so a client that
// used the wrong one can tell which is right.
func TestMethodNotAllowedSaysWhatIsAllowed(t *testing.T) {
	f := newFixture(t)
	cases := []struct{ method, path, allow string }{
		{"DELETE", "/v3/clients/1", "GET, HEAD, PATCH"},
		{"PUT", "/v3/bookings/1", "GET, HEAD, PATCH, CANCEL"},
		{"GET", "/v3/carts", "POST"},
		{"POST", "/v3/services", "GET, HEAD"},
		{"DELETE", "/v3/openapi.json", "GET, HEAD"},
	}
	for _, c := range cases {
		resp, raw := f.call(c.method, c.path, nil)
		wantError(t, resp, raw, http.StatusMethodNotAllowed, "method_not_allowed", c.method)
		if got := strings.Join(resp.Header.Values("Allow"), ", "); got != c.allow {
			t.Errorf("%s %s: Allow %q, want %q", c.method, c.path, got, c.allow)
		}
	}
}
