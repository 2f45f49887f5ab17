package admin_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A receptionist books a returning caller in three steps, counted: the empty time in the day
// view, the client in the list that narrows as their name is typed (htmx swaps the list in; the
// page is not reloaded), and Book. Maria's usual service (Color) is the one chosen, and the
// booking is in Ana's column at 10:00.
func TestBrowserQuickBookingInThreeSteps(t *testing.T) {
	ts := startServer(t)
	ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	color := seedUsualService(t, ts, w)
	d := openBookingDB(t, ts)
	b := newBrowser(t, 1280, 900)
	b.do("login", chromedp.Navigate(ts.URL+w.dayPath()), chromedp.WaitVisible(testID("login-form")),
		chromedp.SendKeys(css("#f-email"), ownerEmail), chromedp.SendKeys(css("#f-password"), ownerPassword),
		chromedp.Submit(testID("login-form")), chromedp.WaitVisible(testID("day-grid")))

	steps := 0
	step := func(name string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		steps++
		b.do(name, actions...)
	}
	step("1 the empty time", chromedp.Click(css(`a[data-testid=free-slot][aria-label^="Book Ana at 10:00"]`)),
		chromedp.WaitVisible(testID("quick-search")))
	if got := evalJS[string](b, `document.querySelector("#f-time").value`); got != "10:00" {
		t.Errorf("the quick form's time is %q, want 10:00 from the slot", got)
	}
	// Typing is not a step: the list of clients narrows as the name is typed, swapped in by
	// htmx (the marker set on this page survives, so the page was not reloaded).
	b.do("typing", chromedp.Evaluate[chromedp.Void](`window.quickMarker = 1`), chromedp.SendKeys(css("#f-client_q"), "lope"),
		chromedp.WaitVisible(testID("quick-client-link")))
	if !evalJS[bool](b, `window.quickMarker === 1`) {
		t.Error("the client list came with a page load, want it swapped in")
	}
	if got := b.text("[data-testid=quick-clients]"); !strings.Contains(got, "Maria Lopez") || strings.Contains(got, "Pedro") {
		t.Errorf("the list for lope shows %q, want Maria Lopez alone", got)
	}
	step("2 the client", chromedp.Click(testID("quick-client-link")), chromedp.WaitVisible(testID("quick-client")))
	if got := evalJS[string](b, `document.querySelector("#f-service").value`); got != color {
		t.Errorf("the service chosen is %q, want Maria's usual Color (%s)", got, color)
	}
	step("3 book", chromedp.Click(testID("quick-book")), chromedp.WaitVisible(testID("day-booking")))

	if steps != 3 {
		t.Errorf("booking the caller took %d steps, want 3", steps)
	}
	if got := b.text("[data-testid=flash]"); !strings.Contains(got, "Booking created: Ana with Maria Lopez") {
		t.Errorf("after booking got flash %q", got)
	}
	var service, provider, client, start int64
	if err := d.Read.QueryRow(`SELECT service_id, provider_id, client_id, start_at FROM bookings ORDER BY id DESC LIMIT 1`).Scan(&service, &provider, &client, &start); err != nil {
		t.Fatal(err)
	}
	at := time.UnixMilli(start).In(w.zone)
	if provider != w.anaID || client != w.mariaID || at.Format("2006-01-02 15:04") != w.Day+" 10:00" || color != strconv.FormatInt(service, 10) {
		t.Errorf("booked provider %d, client %d, %s, service %d; want Ana (%d), Maria (%d), %s 10:00, Color (%s)",
			provider, client, at.Format("2006-01-02 15:04"), service, w.anaID, w.mariaID, w.Day, color)
	}
}
