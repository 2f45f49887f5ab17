package admin_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Without a public URL every owner page says that links use the listen address; with one the
// notice is gone and the setup URL starts with it (docs/deploy.md "Public URL").
func TestPublicURLNotice(t *testing.T) {
	t.Run("not configured", func(t *testing.T) {
		ts := startServer(t)
		c := ts.setupOwner(t)
		for _, path := range []string{"/", "/settings/integrations/api-keys", "/payments"} {
			res := c.get(t, path)
			wantStatus(t, res, 200)
			wantBody(t, res, `data-testid="public-url-notice"`, "start with "+ts.URL+", the address it listens on", "--public-url")
		}
		if strings.Contains(ts.newClient(t).get(t, "/login").Body, "public-url-notice") {
			t.Error("the sign-in page, open to anyone, shows the public URL notice")
		}
	})
	t.Run("hidden for a week", func(t *testing.T) {
		ts := startServer(t)
		c := ts.setupOwner(t)
		// First in main on every page, before the tabs some sections have.
		for _, path := range []string{"/", "/catalog/services", "/settings/messages"} {
			wantBody(t, c.get(t, path), `<main id="main"><aside class="flash flash-info notice" role="note" data-testid="public-url-notice">`,
				`<form method="post" action="/notices/public-url/hide"><input type="hidden" name="back" value="`+path+`">`)
		}
		// A plain form POST, as a browser without JavaScript sends it: back where it was.
		res := c.post(t, "/notices/public-url/hide", url.Values{"back": {"/catalog/services?page=2"}})
		wantRedirect(t, res, "/catalog/services?page=2")
		cookie := res.Header.Get("Set-Cookie")
		for _, part := range []string{"frontdesk_public_url_notice=", "Max-Age=604800", "HttpOnly", "SameSite=Lax", "Path=/"} {
			if !strings.Contains(cookie, part) {
				t.Errorf("the hiding cookie %q lacks %s", cookie, part)
			}
		}
		for _, path := range []string{"/", "/catalog/services", "/settings/messages"} {
			if strings.Contains(c.get(t, path).Body, "public-url-notice") {
				t.Errorf("%s still shows the hidden notice", path)
			}
		}
		// Another browser, or one hidden for another listen address, still sees it.
		other := ts.newClient(t)
		other.login(t, ownerEmail, ownerPassword)
		wantBody(t, other.get(t, "/"), `data-testid="public-url-notice"`)
		u, _ := url.Parse(ts.URL)
		other.http.Jar.SetCookies(u, []*http.Cookie{{Name: "frontdesk_public_url_notice", Value: "http://127.0.0.1:1", Path: "/"}})
		wantBody(t, other.get(t, "/"), `data-testid="public-url-notice"`)
		// Where it comes back to is a page of this site only.
		wantRedirect(t, c.post(t, "/notices/public-url/hide", url.Values{"back": {"//evil.example/x"}}), "/")
	})
	t.Run("configured", func(t *testing.T) {
		ts := startServer(t, "FRONTDESK_PUBLIC_URL=https://book.example.test")
		if !strings.HasPrefix(ts.setupURL(t), "https://book.example.test/setup?token=") {
			t.Fatalf("setup URL %q does not start with the public URL", ts.setupURL(t))
		}
		c := ts.setupOwner(t)
		if res := c.get(t, "/"); strings.Contains(res.Body, "public-url-notice") {
			t.Error("the notice shows although a public URL is configured")
		}
	})
}
