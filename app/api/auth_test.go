package api

import (
	"net/http"
	"testing"
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
