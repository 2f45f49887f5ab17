package admin_test

import (
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
