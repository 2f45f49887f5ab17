package admin_test

import (
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// On a 390-px phone, with JavaScript on: the provider page turns the feed on and shows its
// address, which fits the screen; rotating shows another address; the page stays axe-clean
// with the address shown.
func TestBrowserCalendarFeed(t *testing.T) {
	ts := startServer(t, "FRONTDESK_PUBLIC_URL=https://desk.example.com")
	c := ts.setupOwner(t)
	centro := addLocation(t, c, "Centro", "America/Santiago")
	wantRedirect(t, c.post(t, "/catalog/providers", url.Values{
		"public_name": {"Ana"}, "active": {"1"}, "online_booking": {"1"}, "location_id": {centro}, "location_ids": {centro},
	}), "/catalog/providers")
	page := "/catalog/providers/" + linkID(t, c.get(t, "/catalog/providers").Body, "/catalog/providers/", "Ana")
	axe, err := os.ReadFile("testdata/axe-4.11.0.min.js")
	if err != nil {
		t.Fatal(err)
	}

	b := newBrowser(t, 390, 844, chromedp.EmulateMobile)
	b.do("login", chromedp.Navigate(ts.URL+page), chromedp.WaitVisible(testID("login-form")),
		chromedp.SendKeys(css("#f-email"), ownerEmail), chromedp.SendKeys(css("#f-password"), ownerPassword),
		chromedp.Submit(testID("login-form")), chromedp.WaitVisible(testID("calendar-feed")))
	b.do("turn on", chromedp.Click(testID("feed-on")), chromedp.WaitVisible(testID("feed-url")))
	first := b.text(`[data-testid=feed-url]`)
	if !strings.HasPrefix(first, "https://desk.example.com/feeds/") || !strings.HasSuffix(first, ".ics") {
		t.Fatalf("shown address %q, want https://desk.example.com/feeds/….ics", first)
	}
	checkPage(t, b, axe, page)

	// Opened again, the page no longer shows the address; rotating shows another one.
	b.do("reopen", chromedp.Navigate(ts.URL+page), chromedp.WaitVisible(testID("feed-rotate")))
	if b.present(`[data-testid=feed-url]`) {
		t.Error("the address is shown a second time")
	}
	b.do("rotate", chromedp.Click(testID("feed-rotate")), chromedp.WaitVisible(testID("feed-url")))
	second := b.text(`[data-testid=feed-url]`)
	if second == first {
		t.Errorf("after rotating: %q, want a new address", second)
	}
	if !strings.HasPrefix(second, "https://desk.example.com/feeds/") {
		t.Errorf("after rotating: %q, want an address under the public URL", second)
	}
	if got := c.get(t, strings.TrimPrefix(first, "https://desk.example.com")).Status; got != 404 {
		t.Errorf("the first address after rotating: %d, want 404", got)
	}
}
