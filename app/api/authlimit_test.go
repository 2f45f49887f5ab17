package api

import (
	"net/http"
	"testing"
	"time"

	"frontdesk/app/keyauth"
)

// An address that keeps failing authentication is refused with 429 before any lookup, until
// the minute is over; other addresses are not affected.
func TestAuthFailuresLimitedPerAddress(t *testing.T) {
	f := newFixture(t)
	for i := range keyauth.MaxFailuresPerMinute {
		resp, raw := f.callWithKey("apk_live_wrong", http.MethodGet, "/v3/services", nil)
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("failure %d: got %d %s, want 401", i+1, resp.StatusCode, raw)
		}
	}
	resp, raw := f.callWithKey("apk_live_wrong", http.MethodGet, "/v3/services", nil)
	wantStatus(t, resp, raw, http.StatusTooManyRequests)
	if resp.Header.Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}
	if f.api.keys.FailuresBlock("198.51.100.1") != 0 {
		t.Error("another address is blocked")
	}
	f.now = f.now.Add(time.Minute)
	resp, raw = f.call(http.MethodGet, "/v3/services", nil)
	wantStatus(t, resp, raw, http.StatusOK)
}
