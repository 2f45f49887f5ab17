package admin_test

import (
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestBrowserBookingSiteSeveral walks the booking site's visit, repeat and waitlist pages in a
// real browser, as a customer does, and audits each with axe-core: a visit of two services is
// chosen in the visit form, its times shown and booked, and the manage page lists both
// services; the repeat page lists a series' dates; the waitlist form is filled and joined.
func TestBrowserBookingSiteSeveral(t *testing.T) {
	ts := startServer(t)
	owner := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	if _, err := d.Write.Exec(`INSERT INTO services (uuid, name, duration_min, price_cents, created_at, updated_at) VALUES ('beard', 'Beard Trim', 20, 1500, 0, 0)`); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Write.Exec(`INSERT INTO service_providers (service_id, provider_id) SELECT id, ? FROM services WHERE uuid = 'beard'`, w.anaID); err != nil {
		t.Fatal(err)
	}
	var beard string
	if err := d.Read.QueryRow(`SELECT id FROM services WHERE uuid = 'beard'`).Scan(&beard); err != nil {
		t.Fatal(err)
	}
	form := url.Values{"enabled": {"1"}, "repeat_online": {"1"}, "locations": {w.Location}, "accent": {"#2a7d4f"}}
	wantRedirect(t, owner.post(t, "/settings/booking-site", form), "/settings/booking-site")
	axe, err := os.ReadFile("testdata/axe-4.11.0.min.js")
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, 1280, 900)
	origins := watchOrigins(t, b)
	audit := func(page string) { t.Helper(); auditPage(t, b, axe, page) }

	b.do("services", chromedp.Navigate(ts.URL+"/book/"+w.Location), chromedp.WaitVisible(testID("visit-link")))
	b.do("visit", chromedp.Click(testID("visit-link")), chromedp.WaitVisible(testID("visit-form")))
	audit("visit form")
	b.do("visit services", chromedp.SetValue(css("#f-s1"), w.Service), chromedp.SetValue(css("#f-s2"), beard),
		chromedp.Click(testID("visit-times")), chromedp.WaitVisible(testID("visit-total")))
	b.do("visit provider", chromedp.SetValue(css("#f-provider"), w.Ana), chromedp.Click(testID("visit-times")), chromedp.WaitVisible(testID("picker")))
	b.do("visit day", chromedp.Click(css(`a[data-testid=day][href*="date=`+w.Day+`"]`)), chromedp.WaitVisible(testID("times-date")))
	audit("visit times")
	b.do("visit details", chromedp.Click(css(`a[data-testid=time][aria-label$=", 10:00"]`)), chromedp.WaitVisible(testID("details-form")))
	audit("visit details")
	fillDetails(b, "Lucia", "Vega", "lucia.vega@example.com", "+1 212 555 0134")
	b.do("visit booked", chromedp.Click(testID("confirm")), chromedp.WaitVisible(testID("manage-url")))
	audit("visit booked")
	segments := b.text("[data-testid=visit-segments]")
	if !strings.Contains(segments, "Haircut · Ana · 10:00") || !strings.Contains(segments, "Beard Trim · Ana · 10:30") {
		t.Errorf("the visit's page lists %q", segments)
	}

	at, err := time.ParseInLocation("2006-01-02 15:04", w.Day+" 14:00", w.zone)
	if err != nil {
		t.Fatal(err)
	}
	q := url.Values{"provider": {w.Ana}, "start": {at.Format(time.RFC3339)}}
	b.do("details", chromedp.Navigate(ts.URL+"/book/"+w.Location+"/"+w.Service+"/details?"+q.Encode()), chromedp.WaitVisible(testID("repeat-link")))
	b.do("repeat", chromedp.Click(testID("repeat-link")), chromedp.WaitVisible(testID("repeat-form")))
	b.do("repeat dates", chromedp.SetValue(css("#f-count"), "3"), chromedp.Click(testID("repeat-check")), chromedp.WaitVisible(testID("repeat-dates")))
	audit("repeat dates")
	b.do("repeat details", chromedp.Click(testID("repeat-continue")), chromedp.WaitVisible(testID("series-dates")))
	audit("series details")

	b.do("times", chromedp.Navigate(ts.URL+"/book/"+w.Location+"/"+w.Service+"/times?provider=0&date="+w.Day), chromedp.WaitVisible(testID("notify-link")))
	b.do("notify", chromedp.Click(testID("notify-link")), chromedp.WaitVisible(css("#f-first_day")))
	audit("waitlist form")
	fillDetails(b, "Tomás", "Núñez", "tomas@example.com", "+1 646 555 0199")
	b.do("notified", chromedp.Click(testID("confirm")), chromedp.WaitVisible(testID("site-message")))
	audit("waitlist joined")
	var n int
	if err := d.Read.QueryRow(`SELECT count(*) FROM appointment_waits WHERE source = 'online'`).Scan(&n); err != nil || n != 1 {
		t.Errorf("%d waits joined from the browser (%v), want 1", n, err)
	}
	origins.check(t, ts.URL)

	// 390 px with JavaScript off: the visit's times and the repeat page fit the phone.
	phone := newBrowser(t, 390, 844, chromedp.EmulateMobile)
	if _, err := chromedp.Call(phone.ctx, network.SetBlockedURLs, network.SetBlockedURLsParams{
		URLPatterns: []*network.BlockPattern{{URLPattern: "*://*:*/*.js", Block: true}},
	}); err != nil {
		t.Fatal(err)
	}
	visit := url.Values{"s1": {w.Service}, "s2": {beard}, "provider": {"0"}, "date": {w.Day}}
	repeat := url.Values{"provider": {w.Ana}, "start": {at.Format(time.RFC3339)}, "repeat": {"monthly"}, "count": {"3"}}
	for name, path := range map[string]string{
		"visit times": "/book/" + w.Location + "/visit?" + visit.Encode(),
		"repeat":      "/book/" + w.Location + "/" + w.Service + "/repeat?" + repeat.Encode(),
	} {
		phone.do("phone "+name, chromedp.Navigate(ts.URL+path), chromedp.WaitVisible(css("#main")))
		if got := evalJS[int](phone, "document.documentElement.scrollWidth"); got > 390 {
			t.Errorf("%s is %d px wide on a 390 px phone", name, got)
		}
		auditPage(t, phone, axe, name+" (390 px, no JavaScript)")
	}
}
