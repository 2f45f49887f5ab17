package admin_test

// Classes on the booking site (docs/booking-site.md, docs/classes.md) in a real browser: a
// phone at 390 px with JavaScript off books the last seat of a class session, then another
// visitor finds it full, joins its waitlist, sees their place and leaves. Every page is audited
// with axe-core, stays within the phone's width and loads nothing from another origin.

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

func TestBrowserClassOnSite(t *testing.T) {
	ts := startServer(t)
	owner := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	ctx := context.Background()
	res, err := d.Write.Exec(`INSERT INTO services (uuid, name, duration_min, price_cents, capacity, created_at, updated_at)
		VALUES ('yoga', 'Morning Yoga', 60, 1200, 2, 0, 0)`)
	if err != nil {
		t.Fatal(err)
	}
	yoga, _ := res.LastInsertId()
	if _, err := d.Write.Exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (?, ?)`, yoga, w.anaID); err != nil {
		t.Fatal(err)
	}
	day, _ := time.ParseInLocation(time.DateOnly, w.Day, w.zone)
	at := time.Date(day.Year(), day.Month(), day.Day(), 10, 0, 0, 0, w.zone)
	if _, err := booking.CreateSession(ctx, d, time.Now(), booking.SessionInput{LocationID: w.norteID, ServiceID: yoga, ProviderID: w.anaID, Start: at}); err != nil {
		t.Fatal(err)
	}
	if _, err := booking.Create(ctx, d, time.Now(), booking.NewBooking{LocationID: w.norteID, ServiceID: yoga, ProviderID: w.anaID,
		ClientID: w.mariaID, StatusID: booking.StatusConfirmed, Start: at, Source: booking.SourceAdmin}); err != nil {
		t.Fatal(err)
	}
	wantRedirect(t, owner.post(t, "/settings/booking-site", url.Values{"enabled": {"1"}, "locations": {w.Location}, "accent": {"#2a7d4f"}}), "/settings/booking-site")

	axe, err := os.ReadFile("testdata/axe-4.11.0.min.js")
	if err != nil {
		t.Fatal(err)
	}
	phone := newBrowser(t, 390, 844, chromedp.EmulateMobile)
	origins := watchOrigins(t, phone)
	if _, err := chromedp.Call(phone.ctx, network.SetBlockedURLs, network.SetBlockedURLsParams{
		URLPatterns: []*network.BlockPattern{{URLPattern: "*://*:*/*.js", Block: true}},
	}); err != nil {
		t.Fatal(err)
	}
	check := func(page string) {
		t.Helper()
		if got := evalJS[int](phone, "document.documentElement.scrollWidth"); got > 390 {
			t.Errorf("%s is %d px wide on a 390 px phone", page, got)
		}
		auditPage(t, phone, axe, page+" (390 px, no JavaScript)")
	}
	times := fmt.Sprintf("%s/book/%s/%d/times?provider=0&date=%s", ts.URL, w.Location, yoga, w.Day)
	session := css(`a[data-testid=time][data-start="` + at.Format(time.RFC3339) + `"]`)

	phone.do("class times", chromedp.Navigate(times), chromedp.WaitVisible(session))
	if evalJS[bool](phone, `typeof htmx !== "undefined"`) {
		t.Fatal("the phone runs our scripts; want JavaScript off")
	}
	if got := phone.text(`a[data-testid=time] [data-testid=seats]`); got != "1 seat left" {
		t.Errorf("the session says %q, want 1 seat left", got)
	}
	check("class times")
	phone.do("class details", chromedp.Click(session), chromedp.WaitVisible(testID("details-form")))
	wantText(t, phone, "[data-testid=site-seats]", "1 seat left")
	check("class details")
	fillDetails(phone, "Tomás", "Núñez", "tomas@example.com", "+1 646 555 0199")
	phone.do("class booked", chromedp.Click(testID("confirm")), chromedp.WaitVisible(testID("manage-url")))
	check("class booked")

	// The session is full now: its time leads to the waitlist.
	phone.do("full times", chromedp.Navigate(times), chromedp.WaitVisible(session))
	if got := phone.text(`a[data-testid=time] [data-testid=seats]`); !strings.Contains(got, "Full") {
		t.Errorf("the full session says %q", got)
	}
	phone.do("waitlist form", chromedp.Click(session), chromedp.WaitVisible(testID("waitlist-note")))
	check("waitlist form")
	fillDetails(phone, "Lena", "Ortiz", "lena@example.com", "+1 646 555 0142")
	phone.do("joined", chromedp.Click(testID("confirm")), chromedp.WaitVisible(testID("waitlist-position")))
	wantText(t, phone, "[data-testid=waitlist-position]", "You are next in the queue.")
	if !strings.HasPrefix(phone.text("[data-testid=waitlist-url]"), ts.URL+"/book/waitlist/") {
		t.Errorf("waitlist link %q", phone.text("[data-testid=waitlist-url]"))
	}
	check("waitlist place")
	// Leaving asks first, on a page of its own (no JavaScript needed).
	phone.do("leave?", chromedp.Click(testID("waitlist-leave")), chromedp.WaitVisible(testID("leave-form")))
	check("leave confirmation")
	// The page with the place has a message too: wait for the one without the leave button.
	phone.do("left", chromedp.Click(testID("confirm-leave")), chromedp.WaitNotPresent(testID("leave-form")),
		chromedp.WaitVisible(testID("waitlist-message")))
	wantText(t, phone, "[data-testid=waitlist-status]", "You left the waitlist")
	check("waitlist left")
	origins.check(t, ts.URL)

	var seats, waiting int
	if err := d.Read.QueryRow(`SELECT (SELECT count(*) FROM bookings WHERE service_id = ? AND status_id = 1),
		(SELECT count(*) FROM waitlist_entries WHERE status = 'left')`, yoga).Scan(&seats, &waiting); err != nil || seats != 2 || waiting != 1 {
		t.Errorf("%d seats taken and %d entries left (%v), want 2 and 1", seats, waiting, err)
	}
}
