package app

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/alexedwards/scs/v2"

	"frontdesk/app/admin"
	"frontdesk/app/owner"
	"frontdesk/app/staff"
	"frontdesk/db"
)

// The team's migration on the committed upgrade fixture: every account that was an owner is
// an owner, signs in with the same password, and a session opened before the upgrade is still
// signed in after it, with an owner's pages.
func TestUpgradeKeepsOwnersAndSessions(t *testing.T) {
	ctx := context.Background()
	dir := copyFixture(t)
	path := db.Path(dir)

	// A session as the old build left it: the owner's id and password stamp, gob-encoded by scs.
	old, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	type account struct {
		id          int64
		email, hash string
	}
	var accounts []account
	rows, err := old.Query(`SELECT id, email, password_hash FROM owners ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var a account
		if err := rows.Scan(&a.id, &a.email, &a.hash); err != nil {
			t.Fatal(err)
		}
		accounts = append(accounts, a)
	}
	if err := rows.Err(); err != nil || len(accounts) == 0 {
		t.Fatalf("fixture owners: %d, %v; want at least one", len(accounts), err)
	}
	first := accounts[0]
	sum := sha256.Sum256([]byte(first.hash))
	expiry := time.Now().Add(time.Hour)
	data, err := scs.GobCodec{}.Encode(expiry, map[string]interface{}{"owner_id": first.id, "owner_stamp": hex.EncodeToString(sum[:8])})
	if err != nil {
		t.Fatal(err)
	}
	const token = "fixture-session-token-0123456789abcdef"
	stored := sha256.Sum256([]byte(token)) // scs keeps only the token's hash (HashTokenInStore)
	if _, err := old.Exec(`INSERT INTO sessions (token, data, expiry_at) VALUES (?, ?, ?)`,
		base64.RawURLEncoding.EncodeToString(stored[:]), data, expiry.UnixMilli()); err != nil {
		t.Fatal(err)
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}

	d, err := db.Open(ctx, path) // upgrades from the fixture's schema
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, a := range accounts {
		acc, err := staff.Get(ctx, d, a.id)
		if err != nil {
			t.Fatal(err)
		}
		if staff.RoleOf(acc) != staff.RoleOwner || acc.Disabled || acc.ProviderID != 0 {
			t.Errorf("%s after the upgrade: role %q, disabled %v, provider %d; want an active owner", a.email, acc.Role, acc.Disabled, acc.ProviderID)
		}
	}
	if _, err := owner.Authenticate(ctx, d, first.email, "fixture password"); err != nil {
		t.Errorf("sign in with the fixture's password after the upgrade: %v", err)
	}

	srv := httptest.NewServer(admin.New(d, admin.Options{}).Routes())
	defer srv.Close()
	get := func(p string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, srv.URL+p, nil)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		req.AddCookie(&http.Cookie{Name: "frontdesk_session", Value: token})
		res, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	for _, p := range []string{"/", "/settings/team", "/settings/integrations/api-keys"} {
		if res := get(p); res.StatusCode != http.StatusOK {
			t.Errorf("GET %s with the session from before the upgrade: %d (to %q), want 200", p, res.StatusCode, res.Header.Get("Location"))
		}
	}
	form := url.Values{"email": {first.email}, "password": {"fixture password"}}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/login", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/" {
		t.Errorf("sign in after the upgrade: %d to %q, want 303 to /", res.StatusCode, res.Header.Get("Location"))
	}
}
