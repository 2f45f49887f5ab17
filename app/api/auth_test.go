package api

import (
	"net/http"
	"testing"

	"frontdesk/app/apikey"
)

// TestRevocationElsewhereStopsTheNextRequest checks that a key revoked through the database file
// by another process (`frontdesk apikey revoke`) is refused on the very next request, and that
// cached catalog answers do not outlive it.
func TestRevocationElsewhereStopsTheNextRequest(t *testing.T) {
	f := newFixture(t)
	other := otherProcess(t, f)
	for _, path := range []string{"/v3/services/1", "/v3/services/1", "/v3/locations"} {
		resp, body := f.call(http.MethodGet, path, nil)
		wantStatus(t, resp, body, http.StatusOK)
	}
	if _, err := other.Exec(`UPDATE api_keys SET revoked_at = 1`); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/v3/services/1", "/v3/locations"} {
		resp, body := f.call(http.MethodGet, path, nil)
		wantError(t, resp, body, http.StatusUnauthorized, "unauthorized", "invalid_api_key")
	}
}

// TestKeyChangesElsewhereShowOnTheNextRequest: keys are kept between requests (app/keyauth),
// yet a change of scopes or a revocation made through the database file by another process
// decides the very next request, on both the kept-answer path (/v3/services/1) and a handler
// path (/v3/available_slots).
func TestKeyChangesElsewhereShowOnTheNextRequest(t *testing.T) {
	f := newFixture(t)
	other := otherProcess(t, f)
	key := f.newKey("services:read,bookings:read")
	paths := []string{"/v3/services/1", "/v3/available_slots?location_id=1&service_id=1&start_date=2026-11-24"}
	get := func(path string) (*http.Response, []byte) { return f.callWithKey(key, http.MethodGet, path, nil) }
	for range 3 { // the key is kept by now
		for _, p := range paths {
			resp, body := get(p)
			wantStatus(t, resp, body, http.StatusOK)
		}
	}
	if _, err := other.Exec(`UPDATE api_keys SET scopes = 'services:read' WHERE key_hash = ?`, apikey.Hash(key)); err != nil {
		t.Fatal(err)
	}
	resp, body := get(paths[1])
	wantError(t, resp, body, http.StatusForbidden, "forbidden", "scope_denied")
	resp, body = get(paths[0])
	wantStatus(t, resp, body, http.StatusOK)
	if _, err := other.Exec(`UPDATE api_keys SET revoked_at = 1 WHERE key_hash = ?`, apikey.Hash(key)); err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		resp, body := get(p)
		wantError(t, resp, body, http.StatusUnauthorized, "unauthorized", "invalid_api_key")
	}
	// The fixture's own key was never touched and still works.
	resp, body = f.call(http.MethodGet, paths[1], nil)
	wantStatus(t, resp, body, http.StatusOK)
}
