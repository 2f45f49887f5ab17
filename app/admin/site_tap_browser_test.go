package admin_test

// Every step of the booking site on a phone (docs/booking-site.md, "Quality"): each link and
// button is a target a finger can hit.

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"frontdesk/app/booking"
)

// tapTargetsJS lists the links and buttons shown on the page that are smaller than 44 × 44 CSS
// px, described for the failure message. The skip link counts as it is shown: focused.
const tapTargetsJS = `(() => {
	const skip = document.querySelector(".skip");
	if (skip) skip.focus();
	const small = [];
	for (const e of document.querySelectorAll("a[href], button, input[type=submit], input[type=button]")) {
		const r = e.getBoundingClientRect();
		if (r.width === 0 && r.height === 0) continue; // not shown (display: none, hidden)
		if (r.width < 44 || r.height < 44) {
			small.push((e.dataset.testid || e.className || e.tagName) + " «" + e.textContent.trim().slice(0, 30) + "» " +
				Math.round(r.width) + "×" + Math.round(r.height));
		}
	}
	if (skip) skip.blur();
	return small.join("; ");
})()`

// TestBrowserTapTargets walks every step of the booking site at 390 px, in English with
// JavaScript and then — switched with the link on the page — in Spanish without it: locations, services,
// providers, day and time, details (and with its errors), the manage page after booking, the
// reschedule picker and its confirmation, the cancel confirmation, the cancelled booking, a
// refused change, a page not found, and for a class the waitlist form, the place on it and the
// question before leaving. On each, every link and button shown measures at least 44 × 44
// CSS px, the page is no wider than the phone, and axe-core finds no serious violation.
func TestBrowserTapTargets(t *testing.T) {
	ts := startServer(t)
	owner := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	res, err := d.Write.Exec(`INSERT INTO services (uuid, name, duration_min, price_cents, capacity, created_at, updated_at)
		VALUES ('yoga', 'Morning Yoga', 60, 1200, 2, 0, 0)`)
	if err != nil {
		t.Fatal(err)
	}
	yoga, _ := res.LastInsertId()
	if _, err := d.Write.Exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (?, ?)`, yoga, w.carlaID); err != nil {
		t.Fatal(err)
	}
	day, _ := time.ParseInLocation(time.DateOnly, w.Day, w.zone)
	class := time.Date(day.Year(), day.Month(), day.Day(), 10, 0, 0, 0, w.zone)
	ctx := context.Background()
	if _, err := booking.CreateSession(ctx, d, time.Now(), booking.SessionInput{LocationID: w.norteID, ServiceID: yoga, ProviderID: w.carlaID, Start: class}); err != nil {
		t.Fatal(err)
	}
	for _, client := range []int64{w.mariaID, mustID(t, w.Pedro)} { // full: its waitlist is open
		if _, err := booking.Create(ctx, d, time.Now(), booking.NewBooking{LocationID: w.norteID, ServiceID: yoga, ProviderID: w.carlaID,
			ClientID: client, StatusID: booking.StatusConfirmed, Start: class, Source: booking.SourceAdmin}); err != nil {
			t.Fatal(err)
		}
	}
	wantRedirect(t, owner.post(t, "/settings/booking-site", url.Values{
		"enabled": {"1"}, "locations": {w.Location, w.Night}, "accent": {"#2a7d4f"}, "policy_text": {"Cancel 24 hours ahead."},
	}), "/settings/booking-site")
	axe, err := os.ReadFile("testdata/axe-4.11.0.min.js")
	if err != nil {
		t.Fatal(err)
	}

	phone := newBrowser(t, 390, 844, chromedp.EmulateMobile)
	lang := "en"
	check := func(page string) {
		t.Helper()
		page += " (" + lang + ")"
		if got := evalJS[string](phone, "document.documentElement.lang"); got != lang {
			t.Errorf("%s is in %q", page, got)
		}
		if small := evalJS[string](phone, tapTargetsJS); small != "" {
			t.Errorf("%s: targets under 44×44 px: %s", page, small)
		}
		if got := evalJS[int](phone, "document.documentElement.scrollWidth"); got > 390 {
			t.Errorf("%s is %d px wide on a 390 px phone", page, got)
		}
		auditPage(t, phone, axe, page+" at 390 px")
	}
	at := func(clock string) string {
		c, _ := time.Parse("15:04", clock)
		return time.Date(day.Year(), day.Month(), day.Day(), c.Hour(), c.Minute(), 0, 0, w.zone).Format(time.RFC3339)
	}
	walk := func(bookAt, moveTo, email, waitPhone string) {
		t.Helper()
		timeLink := func(clock string) chromedp.CSS { return css(`a[data-testid=time][data-start="` + at(clock) + `"]`) }
		phone.do(lang+"-locations", chromedp.Navigate(ts.URL+"/book"), chromedp.WaitVisible(testID("site-locations")))
		check("locations")
		phone.do(lang+"-services", chromedp.Click(css(`a[href="/book/`+w.Location+`"]`)), chromedp.WaitVisible(testID("service-list")))
		check("services")
		phone.do(lang+"-providers", chromedp.Navigate(ts.URL+"/book/"+w.Location+"/"+w.Service), chromedp.WaitVisible(testID("site-providers")))
		check("providers")
		phone.do(lang+"-times", chromedp.Click(css(`a[data-testid=provider][href*="provider=`+w.Ana+`"]`)), chromedp.WaitVisible(testID("picker")))
		phone.do(lang+"-day", chromedp.Click(css(`a[data-testid=day][href*="date=`+w.Day+`"]`)), chromedp.WaitVisible(timeLink(bookAt)))
		check("day and time")
		// A day chosen in place (JavaScript): the language link leads to that day too.
		if href := evalJS[string](phone, `document.querySelector("[data-testid=site-language]").getAttribute("href")`); !strings.Contains(href, "date="+w.Day) {
			t.Errorf("%s: after choosing %s the language link is %s", lang, w.Day, href)
		}
		phone.do(lang+"-details", chromedp.Click(timeLink(bookAt)), chromedp.WaitVisible(testID("details-form")))
		check("details")
		phone.do(lang+"-invalid", chromedp.Click(testID("confirm")), chromedp.WaitVisible(testID("error-email")))
		check("details with errors")
		fillDetails(phone, "Lucia", "Vega", email, "+1 212 555 0134")
		phone.do(lang+"-booked", chromedp.Click(testID("confirm")), chromedp.WaitVisible(testID("manage-url")))
		check("manage after booking")
		manage := strings.TrimPrefix(phone.text("[data-testid=manage-url]"), ts.URL)
		phone.do(lang+"-reschedule", chromedp.Click(testID("manage-reschedule")), chromedp.WaitVisible(timeLink(moveTo)))
		check("reschedule")
		phone.do(lang+"-reschedule-confirm", chromedp.Click(timeLink(moveTo)), chromedp.WaitVisible(testID("confirm-form")))
		check("reschedule confirmation")
		phone.do(lang+"-cancel", chromedp.Navigate(ts.URL+manage+"/cancel"), chromedp.WaitVisible(testID("confirm-form")))
		check("cancel confirmation")
		phone.do(lang+"-cancelled", chromedp.Click(testID("confirm-change")), chromedp.WaitVisible(testID("book-again")))
		check("cancelled booking")
		phone.do(lang+"-refused", chromedp.Navigate(ts.URL+manage+"/reschedule"), chromedp.WaitVisible(testID("book-again")))
		check("refused change")
		phone.do(lang+"-not-found", chromedp.Navigate(ts.URL+"/book/manage/"+strings.Repeat("x", 43)), chromedp.WaitVisible(testID("site-message")))
		check("not found")

		phone.do(lang+"-class", chromedp.Navigate(fmt.Sprintf("%s/book/%s/%d/times?provider=0&date=%s", ts.URL, w.Location, yoga, w.Day)),
			chromedp.WaitVisible(timeLink("10:00")))
		check("class times")
		phone.do(lang+"-waitlist-form", chromedp.Click(timeLink("10:00")), chromedp.WaitVisible(testID("waitlist-note")))
		fillDetails(phone, "Lena", "Ortiz", "wait-"+email, waitPhone)
		phone.do(lang+"-waiting", chromedp.Click(testID("confirm")), chromedp.WaitVisible(testID("waitlist-leave")))
		check("waitlist place")
		phone.do(lang+"-leave", chromedp.Click(testID("waitlist-leave")), chromedp.WaitVisible(testID("leave-form")))
		check("leave the waitlist?")
	}
	walk("10:00", "11:30", "lucia@example.com", "+1 646 555 0142")

	// The switch on the page, then the same steps in Spanish — with JavaScript off: our scripts
	// are blocked from loading, as in TestBrowserBookingSite.
	if _, err := chromedp.Call(phone.ctx, network.SetBlockedURLs, network.SetBlockedURLsParams{
		URLPatterns: []*network.BlockPattern{{URLPattern: "*://*:*/*.js", Block: true}},
	}); err != nil {
		t.Fatal(err)
	}
	phone.do("switch", chromedp.Navigate(ts.URL+"/book"), chromedp.WaitVisible(testID("site-language")),
		chromedp.Click(css(`[data-testid=site-language][lang=es]`)), chromedp.WaitVisible(css(`html[lang=es] [data-testid=site-locations]`)))
	if u := evalJS[string](phone, "location.pathname + location.search"); u != "/book" {
		t.Errorf("after switching the language the page is %s, want /book again", u)
	}
	if evalJS[bool](phone, `typeof htmx !== "undefined"`) {
		t.Fatal("the phone runs our scripts; want JavaScript off")
	}
	lang = "es"
	walk("14:00", "15:00", "lucia.es@example.com", "+1 646 555 0143")
}

func mustID(t *testing.T, s string) int64 {
	t.Helper()
	var id int64
	if _, err := fmt.Sscan(s, &id); err != nil {
		t.Fatal(err)
	}
	return id
}
