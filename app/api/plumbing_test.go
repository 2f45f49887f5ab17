package api

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"frontdesk/app/apikey"
	"frontdesk/db"
)

func TestAuthentication(t *testing.T) {
	f := newFixture(t)
	revoked := f.newKey(apikey.FullAccess)
	keys, _ := f.db.R.ListAPIKeys(context.Background())
	if _, err := f.db.W.RevokeAPIKey(context.Background(), db.RevokeAPIKeyParams{RevokedAt: nullMillis(f.now), ID: keys[len(keys)-1].ID}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		header string
	}{
		{"missing", ""},
		{"not bearer", "Basic " + f.key},
		{"malformed", "Bearer"},
		{"unknown key", "Bearer apk_live_" + strings.Repeat("x", 43)},
		{"wrong prefix", "Bearer sk_live_abc"},
		{"revoked", "Bearer " + revoked},
		{"huge", "Bearer apk_live_" + strings.Repeat("a", 5000)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, raw := f.callWithKey("", "GET", "/v3/locations", nil, "Authorization", c.header)
			wantError(t, resp, raw, http.StatusUnauthorized, "unauthorized", "invalid_api_key")
			if got := resp.Header.Get("WWW-Authenticate"); !strings.HasPrefix(got, "Bearer") {
				t.Fatalf("WWW-Authenticate = %q, want Bearer…", got)
			}
		})
	}
	resp, raw := f.call("GET", "/v3/locations", nil)
	wantStatus(t, resp, raw, http.StatusOK)
}

func TestKeysAreStoredHashed(t *testing.T) {
	f := newFixture(t)
	var n int
	if err := f.db.Read.QueryRow(`SELECT count(*) FROM api_keys WHERE key_hash = ? OR prefix = ? OR name = ?`, f.key, f.key, f.key).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("found the key in clear in %d rows", n)
	}
	var dump string
	if err := f.db.Read.QueryRow(`SELECT group_concat(name || prefix || key_hash || scopes, '|') FROM api_keys`).Scan(&dump); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(dump, f.key[len("apk_live_"):]) {
		t.Fatal("the key's secret part is stored")
	}
}

func TestScopes(t *testing.T) {
	f := newFixture(t)
	key := f.newKey("services:read")
	resp, raw := f.callWithKey(key, "GET", "/v3/categories", nil)
	wantStatus(t, resp, raw, http.StatusOK)
	resp, raw = f.callWithKey(key, "GET", "/v3/locations", nil)
	wantError(t, resp, raw, http.StatusForbidden, "forbidden", "scope_denied")
}

func TestRateLimit(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.Limits = Limits{PerMinute: 3, PerDay: 100} })
	for i := 0; i < 3; i++ {
		resp, raw := f.call("GET", "/v3/categories", nil)
		wantStatus(t, resp, raw, http.StatusOK)
		if got, want := resp.Header.Get("X-RateLimit-Burst-Remaining"), string(rune('2'-i)); got != want {
			t.Fatalf("request %d: X-RateLimit-Burst-Remaining = %q, want %q", i, got, want)
		}
		if resp.Header.Get("X-RateLimit-Limit") != "100" {
			t.Fatalf("X-RateLimit-Limit = %q, want 100", resp.Header.Get("X-RateLimit-Limit"))
		}
	}
	resp, raw := f.call("GET", "/v3/categories", nil)
	wantError(t, resp, raw, http.StatusTooManyRequests, "rate_limited", "burst_limit_exceeded")
	if resp.Header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}
	// Limits are per key: another key still gets through.
	resp, raw = f.callWithKey(f.newKey(apikey.FullAccess), "GET", "/v3/categories", nil)
	wantStatus(t, resp, raw, http.StatusOK)
}

func TestPagingValidation(t *testing.T) {
	f := newFixture(t)
	for _, q := range []string{"page=0", "page=-1", "page=abc", "page=99999999999999999999", "per_page=0", "per_page=101", "per_page=1.5", "page=1%00"} {
		resp, raw := f.call("GET", "/v3/categories?"+q, nil)
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: got %d, want 400 (%s)", q, resp.StatusCode, raw)
		}
	}
	resp, raw := f.call("GET", "/v3/categories?per_page=2&page=2", nil)
	body := string(wantStatus(t, resp, raw, http.StatusOK))
	for _, want := range []string{`"current_page":2`, `"per_page":2`, `"next_page":null`, `"prev_page":1`, `"total_records":3`, `"total_pages":2`, `"name":"Wellness"`} {
		if !strings.Contains(body, want) {
			t.Errorf("page 2 of categories: missing %s in %s", want, body)
		}
	}
}

func TestQueryStringsGoDropsAreRefused(t *testing.T) {
	f := newFixture(t)
	for _, q := range []string{"active=true;x", "page=%zz", "sort_by=x;"} {
		resp, raw := f.call("GET", "/v3/locations?"+q, nil)
		wantError(t, resp, raw, http.StatusBadRequest, "bad_request", "invalid_query")
	}
}
