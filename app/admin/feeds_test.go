package admin_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

var feedURLRE = regexp.MustCompile(`data-testid="feed-url">(https://desk\.example\.com(/feeds/[A-Za-z0-9_-]{43}\.ics))<`)

// feedURL is the feed address a page shows once, as (absolute URL, path); "" when none.
func feedURL(body string) (string, string) {
	m := feedURLRE.FindStringSubmatch(body)
	if m == nil {
		return "", ""
	}
	return m[1], m[2]
}

// The provider and location pages turn a feed on and show its address once, under the public
// URL; rotating makes a new address and stops the old one; the detail switch and turning off
// work; a provider that does not exist is a 404.
func TestCalendarFeedPages(t *testing.T) {
	ts := startServer(t, "FRONTDESK_PUBLIC_URL=https://desk.example.com")
	c := ts.setupOwner(t)
	centro := addLocation(t, c, "Centro", "America/Santiago")
	wantRedirect(t, c.post(t, "/catalog/providers", url.Values{
		"public_name": {"Ana"}, "active": {"1"}, "online_booking": {"1"}, "location_id": {centro}, "location_ids": {centro},
	}), "/catalog/providers")
	ana := linkID(t, c.get(t, "/catalog/providers").Body, "/catalog/providers/", "Ana")
	page := "/catalog/providers/" + ana
	feed := func(path string) int { return c.get(t, path).Status }

	res := c.get(t, page)
	wantBody(t, res, `data-testid="calendar-feed"`, `data-testid="feed-on"`)
	if u, _ := feedURL(res.Body); u != "" {
		t.Fatalf("a feed that is off shows an address: %s", u)
	}

	wantRedirect(t, c.post(t, page+"/feed", nil), page+"#calendar-feed")
	res = c.get(t, page)
	shown, first := feedURL(res.Body)
	if shown == "" {
		t.Fatalf("no feed address after turning it on:\n%.3000s", res.Body)
	}
	wantBody(t, res, `data-testid="feed-rotate"`, `data-testid="feed-off"`)
	if u, _ := feedURL(c.get(t, page).Body); u != "" {
		t.Error("the address is shown a second time")
	}
	if got := feed(first); got != http.StatusOK {
		t.Fatalf("GET %s: %d, want 200", first, got)
	}

	wantRedirect(t, c.post(t, page+"/feed", nil), page+"#calendar-feed")
	res = c.get(t, page)
	_, second := feedURL(res.Body)
	wantBody(t, res, "the old one no longer works")
	if second == "" || second == first {
		t.Fatalf("rotation showed %q, want a new address (was %q)", second, first)
	}
	if got := feed(first); got != http.StatusNotFound {
		t.Errorf("the old address after rotation: %d, want 404", got)
	}
	if got := feed(second); got != http.StatusOK {
		t.Errorf("the new address: %d, want 200", got)
	}

	wantRedirect(t, c.post(t, page+"/feed/details", url.Values{"details": {"1"}}), page+"#calendar-feed")
	if !regexp.MustCompile(`name="details" value="1"\s+checked`).MatchString(c.get(t, page).Body) {
		t.Error("the detail switch is not shown on after saving it")
	}

	wantRedirect(t, c.post(t, page+"/feed/off", nil), page+"#calendar-feed")
	wantBody(t, c.get(t, page), `data-testid="feed-on"`)
	if got := feed(second); got != http.StatusNotFound {
		t.Errorf("the address after turning off: %d, want 404", got)
	}

	location := "/catalog/locations/" + centro
	wantRedirect(t, c.post(t, location+"/feed", nil), location+"#calendar-feed")
	_, loc := feedURL(c.get(t, location).Body)
	if loc == "" || feed(loc) != http.StatusOK {
		t.Errorf("location feed %q: not shown or not served", loc)
	}

	for _, path := range []string{"/catalog/providers/999/feed", "/catalog/locations/999/feed", "/catalog/providers/999/feed/details"} {
		if res := c.post(t, path, nil); res.Status != http.StatusNotFound {
			t.Errorf("POST %s: %d, want 404", path, res.Status)
		}
	}
	if strings.Contains(c.get(t, page).Body, "/feeds/") {
		t.Error("the provider page shows a feed address after turning it off")
	}
}
