package admin_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
)

var sessionEndRe = regexp.MustCompile(`action="(/account/sessions/\d+/end)"`)

// getAs is a GET with a browser's User-Agent.
func (c *client) getAs(t *testing.T, path, ua string) response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, c.ts.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("User-Agent", ua)
	return c.do(t, req)
}

const (
	firefoxWindows = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"
	safariIPhone   = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
)

func TestAccountSessionsSignOutEverywhereElse(t *testing.T) {
	ts := startServer(t)
	laptop := ts.setupOwner(t)
	phone := ts.newClient(t)
	phone.login(t, ownerEmail, ownerPassword)
	wantStatus(t, phone.getAs(t, "/", safariIPhone), 200)
	third := ts.newClient(t)
	third.login(t, ownerEmail, ownerPassword)

	page := laptop.getAs(t, "/account", firefoxWindows)
	wantStatus(t, page, 200)
	wantBody(t, page, "Firefox on Windows", "Safari on iPhone", "127.0.0.1", `data-testid="session-current"`)
	if n := strings.Count(page.Body, `data-testid="session-row"`); n != 3 {
		t.Fatalf("account page lists %d sessions, want 3", n)
	}

	wantRedirect(t, laptop.post(t, "/account/sessions/others/end", nil), "/account#sessions")
	wantRedirect(t, phone.get(t, "/"), "/login")
	wantRedirect(t, third.get(t, "/bookings"), "/login?next=%2Fbookings")
	page = laptop.get(t, "/account")
	wantStatus(t, page, 200)
	if n := strings.Count(page.Body, `data-testid="session-row"`); n != 1 {
		t.Fatalf("after signing out the others the page lists %d sessions, want 1", n)
	}
}

func TestAccountSessionsSignOutOne(t *testing.T) {
	ts := startServer(t)
	laptop := ts.setupOwner(t)
	phone := ts.newClient(t)
	phone.login(t, ownerEmail, ownerPassword)
	wantStatus(t, phone.getAs(t, "/", safariIPhone), 200)

	page := laptop.get(t, "/account")
	// The phone's row: the one not marked as this browser.
	var m []string
	for _, row := range strings.Split(page.Body, `data-testid="session-row"`)[1:] {
		if !strings.Contains(row, `data-testid="session-current"`) {
			m = sessionEndRe.FindStringSubmatch(row)
		}
	}
	if m == nil {
		t.Fatalf("no sign-out button for the other session:\n%.3000s", page.Body)
	}
	wantRedirect(t, laptop.post(t, m[1], nil), "/account#sessions")
	wantRedirect(t, phone.get(t, "/"), "/login")
	wantStatus(t, laptop.get(t, "/"), 200)
	// Someone else's (or a gone) session: not found, nothing changes.
	wantStatus(t, laptop.post(t, m[1], nil), 404)
	wantStatus(t, laptop.post(t, "/account/sessions/x/end", nil), 404)
}
