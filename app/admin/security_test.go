package admin_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/admin"
)

// publicRoutes are the only admin routes open without a session: first run and sign-in. The
// pages a customer opens from a link (checkout, opt-out) are not the admin's but app/customer's,
// whose URL is its credential.
var publicRoutes = map[string]bool{
	"GET /setup": true, "POST /setup": true,
	"GET /login": true, "POST /login": true,
	// The second sign-in step answers only a session that passed the password step.
	"GET /login/code": true, "POST /login/code": true,
	// Passkey sign-in: the answer is the credential.
	"POST /login/passkey/options": true, "POST /login/passkey": true,
	"GET /join": true, "POST /join": true, // a team link: its token is the credential
}

// adminRoutes lists the route table as "METHOD /path" with URL parameters filled in, so a
// page added to Routes is covered by the tests below without touching them.
func adminRoutes(t *testing.T) []string {
	t.Helper()
	param := regexp.MustCompile(`\{[^}]+\}`)
	var routes []string
	err := chi.Walk(admin.New(nil, admin.Options{}).Routes(), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		routes = append(routes, method+" "+param.ReplaceAllString(route, "1"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(routes) < 15 {
		t.Fatalf("walked %d routes, want the whole table: %v", len(routes), routes)
	}
	return routes
}

func TestEveryAdminRouteNeedsSession(t *testing.T) {
	ts := startServer(t)
	ts.setupOwner(t) // with an owner, so nothing is "first run"
	c := ts.newClient(t)
	for _, route := range adminRoutes(t) {
		if publicRoutes[route] {
			continue
		}
		t.Run(route, func(t *testing.T) {
			method, path, _ := strings.Cut(route, " ")
			var res response
			switch method {
			case http.MethodGet:
				res = c.get(t, path)
			case http.MethodPost:
				res = c.post(t, path, url.Values{"name": {"x"}})
			default:
				t.Fatalf("no test for method %s; extend this test", method)
			}
			want := "/login"
			if method == http.MethodGet && path != "/" {
				want += "?next=" + url.QueryEscape(path)
			}
			wantRedirect(t, res, want)
		})
	}
}

// An htmx request (a boosted link, the dashboard's refresh) without a session is told to load
// the sign-in page as a whole page, not swap it into the current one.
func TestHTMXRequestWithoutSession(t *testing.T) {
	ts := startServer(t)
	c := ts.newClient(t)
	req, err := http.NewRequest(http.MethodGet, ts.URL+"/owners", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("HX-Request", "true")
	res := c.do(t, req)
	if res.Status != http.StatusNoContent || res.Header.Get("HX-Redirect") != "/login?next=%2Fowners" {
		t.Errorf("got %d with HX-Redirect %q, want 204 with /login?next=%%2Fowners", res.Status, res.Header.Get("HX-Redirect"))
	}
}

func TestPublicRoutes(t *testing.T) {
	ts := startServer(t)
	setup := ts.setupURL(t)
	token := setup[strings.Index(setup, "token=")+len("token="):]
	wrong := "A" + token[1:]
	if wrong == token {
		wrong = "B" + token[1:]
	}
	c := ts.newClient(t)
	tests := []struct {
		name string
		path string
		want int
	}{
		{"setup without token", "/setup", http.StatusNotFound},
		{"setup with a wrong token", "/setup?token=" + wrong, http.StatusNotFound},
		{"setup with the token", "/setup?token=" + token, http.StatusOK},
		{"login", "/login", http.StatusOK},
		{"unknown page", "/no-such-page", http.StatusNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { wantStatus(t, c.get(t, tc.path), tc.want) })
	}

	form := url.Values{"token": {token}, "email": {ownerEmail}, "password": {ownerPassword}, "confirm": {ownerPassword}}
	wantRedirect(t, c.post(t, "/setup", form), "/")
	t.Run("setup after the first owner", func(t *testing.T) {
		wantStatus(t, c.get(t, "/setup?token="+token), http.StatusNotFound)
		form.Set("email", "intruder@example.com")
		wantStatus(t, ts.newClient(t).post(t, "/setup", form), http.StatusNotFound)
		wantStatus(t, ts.newClient(t).post(t, "/login", url.Values{"email": {"intruder@example.com"}, "password": {ownerPassword}}), http.StatusUnprocessableEntity)
	})
}

func TestCrossOriginPostRefused(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	form := url.Values{"name": {"From elsewhere"}, "access": {"full"}}
	tests := []struct {
		name   string
		header http.Header
		want   int
	}{
		{"Sec-Fetch-Site cross-site", http.Header{"Sec-Fetch-Site": {"cross-site"}, "Origin": {"http://evil.example"}}, http.StatusForbidden},
		{"Sec-Fetch-Site same-site", http.Header{"Sec-Fetch-Site": {"same-site"}, "Origin": {"http://sub.example"}}, http.StatusForbidden},
		{"Origin of another host, no Sec-Fetch-Site", http.Header{"Origin": {"http://evil.example"}}, http.StatusForbidden},
		{"same origin", http.Header{"Sec-Fetch-Site": {"same-origin"}, "Origin": {ts.URL}}, http.StatusSeeOther},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := c.postWith(t, "/settings/integrations/api-keys", form, tc.header)
			wantStatus(t, res, tc.want)
		})
	}
	list := c.get(t, "/settings/integrations/api-keys")
	if n := strings.Count(list.Body, `data-testid="api-key-row"`); n != 1 {
		t.Errorf("got %d keys after the requests, want 1 (only the same-origin one)", n)
	}
	t.Run("login from another site", func(t *testing.T) {
		res := ts.newClient(t).postWith(t, "/login", url.Values{"email": {ownerEmail}, "password": {ownerPassword}},
			http.Header{"Sec-Fetch-Site": {"cross-site"}})
		wantStatus(t, res, http.StatusForbidden)
	})
}

func TestSessionTokenChangesAtLogin(t *testing.T) {
	ts := startServer(t)
	ts.setupOwner(t)
	c := ts.newClient(t)
	// An anonymous session exists before sign-in (signing out leaves one, holding the
	// "signed out" message): the token an attacker could have planted.
	c.login(t, ownerEmail, ownerPassword)
	wantRedirect(t, c.post(t, "/logout", nil), "/login")
	before := c.cookie()
	if before == "" {
		t.Fatal("no session cookie before sign-in; the test needs one")
	}
	c.login(t, ownerEmail, ownerPassword)
	after := c.cookie()
	if after == "" || after == before {
		t.Fatalf("session token at sign-in: got %q from %q, want a new one", after, before)
	}
	wantStatus(t, c.get(t, "/settings/team"), http.StatusOK)

	old := ts.newClient(t)
	old.setCookie(before)
	wantRedirect(t, old.get(t, "/owners"), "/login?next=%2Fowners")
}

func TestLogoutEndsSessionOnServer(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	token := c.cookie()
	wantStatus(t, c.get(t, "/settings/team"), http.StatusOK)
	wantRedirect(t, c.post(t, "/logout", nil), "/login")

	replay := ts.newClient(t)
	replay.setCookie(token) // a copy of the cookie taken before signing out
	wantRedirect(t, replay.get(t, "/owners"), "/login?next=%2Fowners")
	wantRedirect(t, replay.post(t, "/owners", url.Values{"email": {"x@example.com"}, "password": {"long enough password"}}), "/login")
}

func TestLoginThrottled(t *testing.T) {
	ts := startServer(t)
	first := ts.setupOwner(t)
	wantRedirect(t, first.post(t, "/owners", url.Values{"owner_email": {"second@example.com"}, "password": {"second owner password"}}), "/settings/team")

	c := ts.newClient(t)
	for i := range 5 {
		res := c.post(t, "/login", url.Values{"email": {ownerEmail}, "password": {"wrong password " + string(rune('a'+i))}})
		wantStatus(t, res, http.StatusUnprocessableEntity)
		wantBody(t, res, "Wrong email or password.")
	}
	res := c.post(t, "/login", url.Values{"email": {ownerEmail}, "password": {ownerPassword}})
	wantStatus(t, res, http.StatusTooManyRequests)
	wantBody(t, res, "Too many failed sign-in attempts", "try again in 15 minutes")
	if res.Header.Get("Retry-After") == "" {
		t.Error("no Retry-After header on a throttled sign-in")
	}
	if c.cookie() != "" {
		t.Error("a throttled sign-in with the right password got a session")
	}
	// The account limit is per account: another owner still signs in from the same address.
	ts.newClient(t).login(t, "second@example.com", "second owner password")
}

func TestSessionCookieFlags(t *testing.T) {
	tests := []struct {
		name       string
		env        []string
		header     http.Header
		wantSecure bool
	}{
		{"plain http", nil, http.Header{}, false},
		// The test client connects from 127.0.0.1: a trusted proxy only when listed.
		{"https behind a trusted proxy", []string{"FRONTDESK_TRUSTED_PROXIES=127.0.0.1"}, http.Header{"X-Forwarded-Proto": {"https"}}, true},
		{"X-Forwarded-Proto from an untrusted address", nil, http.Header{"X-Forwarded-Proto": {"https"}}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts := startServer(t, tc.env...)
			ts.setupOwner(t)
			h := tc.header.Clone()
			h.Set("Sec-Fetch-Site", "same-origin")
			res := ts.newClient(t).postWith(t, "/login", url.Values{"email": {ownerEmail}, "password": {ownerPassword}}, h)
			wantRedirect(t, res, "/")
			var cookie *http.Cookie
			for _, c := range (&http.Response{Header: res.Header}).Cookies() {
				if c.Name == "frontdesk_session" {
					cookie = c
				}
			}
			if cookie == nil {
				t.Fatal("no session cookie set at sign-in")
			}
			if !cookie.HttpOnly || cookie.SameSite != http.SameSiteLaxMode || cookie.Secure != tc.wantSecure || cookie.Path != "/" {
				t.Errorf("got HttpOnly=%v SameSite=%v Secure=%v Path=%q; want HttpOnly, Lax, Secure=%v, /",
					cookie.HttpOnly, cookie.SameSite, cookie.Secure, cookie.Path, tc.wantSecure)
			}
			if age := time.Duration(cookie.MaxAge) * time.Second; age < 11*time.Hour || age > 12*time.Hour+time.Minute {
				t.Errorf("got cookie max age %v, want the 12 h idle timeout", age)
			}
		})
	}
}

// Bad input never yields a 500 or a partial write.
func TestHostileInput(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	h := http.Header{"Origin": {ts.URL}, "Sec-Fetch-Site": {"same-origin"}, "Content-Type": {"application/x-www-form-urlencoded"}}
	tests := []struct {
		name   string
		method string
		path   string
		body   string
		want   int
	}{
		{"oversized form", http.MethodPost, "/settings/integrations/api-keys", "name=" + strings.Repeat("x", 2<<20), http.StatusRequestEntityTooLarge},
		{"broken encoding", http.MethodPost, "/settings/integrations/api-keys", "name=%zz", http.StatusBadRequest},
		{"unsupported method", http.MethodDelete, "/owners", "", http.StatusMethodNotAllowed},
		{"huge id", http.MethodGet, "/settings/integrations/api-keys/99999999999999999999999/revoke", "", http.StatusNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, ts.URL+tc.path, strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header = h.Clone()
			wantStatus(t, c.do(t, req), tc.want)
		})
	}
	if n := strings.Count(c.get(t, "/settings/integrations/api-keys").Body, `data-testid="api-key-row"`); n != 0 {
		t.Errorf("got %d keys after refused requests, want 0", n)
	}
}
