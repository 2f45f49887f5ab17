package app

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Behind a proxy (docs/deploy.md "Behind a proxy"): X-Forwarded-For/-Proto and a forged Host
// from an address not in --trusted-proxies change no link, no client address and no cookie
// flag; from a trusted proxy the client address and the cookie flag follow the headers. Links
// follow neither: they come from the public URL alone.
func TestTrustedProxies(t *testing.T) {
	cases := []struct {
		name        string
		trusted     string
		wantClient  string
		wantSecure  bool
		wantNotSeen string
	}{
		// The test client connects from 127.0.0.1.
		{"untrusted", "10.0.0.0/8", "127.0.0.1", false, "198.51.100.7"},
		{"trusted", "127.0.0.1/32,::1", "198.51.100.7", true, "127.0.0.1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := newDataDir(t)
			if code, stderr := ownerCmd(t, "first password\n", "create", "--data", dir, "--email", "ana@example.com"); code != 0 {
				t.Fatalf("owner create: exit %d, %s", code, stderr)
			}
			srv := serveInProcess(t, dir, []string{"--addr", "127.0.0.1:0", "--trusted-proxies", c.trusted,
				"--public-url", "https://book.example.test"})
			client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			post := func(password string) *http.Response {
				req, _ := http.NewRequest(http.MethodPost, srv.URL+"/login",
					strings.NewReader(url.Values{"email": {"ana@example.com"}, "password": {password}}.Encode()))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				req.Host = "evil.example"
				req.Header.Set("X-Forwarded-For", "203.0.113.1, 198.51.100.7")
				req.Header.Set("X-Forwarded-Proto", "https")
				req.Header.Set("X-Forwarded-Host", "evil.example")
				res, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				res.Body.Close()
				return res
			}
			if res := post("wrong password"); res.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("wrong password: got %d, want 422", res.StatusCode)
			}
			res := post("first password")
			if res.StatusCode != http.StatusSeeOther {
				t.Fatalf("sign in: got %d, want 303", res.StatusCode)
			}
			if loc := res.Header.Get("Location"); loc != "/" {
				t.Errorf("redirect after sign-in to %q, want the path / (never a forged host)", loc)
			}
			var cookie *http.Cookie
			for _, ck := range res.Cookies() {
				if ck.Name != "" && ck.Value != "" {
					cookie = ck
				}
			}
			if cookie == nil {
				t.Fatal("no session cookie after signing in")
			}
			if cookie.Secure != c.wantSecure {
				t.Errorf("session cookie Secure=%v, want %v", cookie.Secure, c.wantSecure)
			}

			failed := srv.logEntries("sign-in failed")
			if len(failed) != 1 || failed[0]["ip"] != c.wantClient {
				t.Errorf("sign-in failure logged as %v, want one entry with ip %s", failed, c.wantClient)
			}
			var remotes []any
			for _, e := range srv.logEntries("http") {
				if e["path"] == "/login" {
					remotes = append(remotes, e["remote"])
				}
			}
			if len(remotes) != 2 || remotes[0] != c.wantClient || remotes[1] != c.wantClient {
				t.Errorf("access log remotes %v, want %s twice", remotes, c.wantClient)
			}
			if logs := srv.logs.String(); strings.Contains(logs, `"`+c.wantNotSeen+`"`) || strings.Contains(logs, "203.0.113.1") {
				t.Errorf("the log names an address it should not (%s or the client-written 203.0.113.1):\n%s", c.wantNotSeen, logs)
			}
			if strings.Contains(srv.logs.String(), "evil.example") {
				t.Errorf("the forged host reached the log or a link:\n%s", srv.logs)
			}
		})
	}
}
