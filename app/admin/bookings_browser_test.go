package admin_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserDayViewBooking: in a real browser the owner opens a location's day, clicks a free
// time of Ana's, finds the client, creates the booking and sees it in Ana's column; then cancels
// it from its page and sees it leave the grid (the row is kept with status 5). Last, the same
// day on a 390-px phone: the grid scrolls inside its box, never the page.
func TestBrowserDayViewBooking(t *testing.T) {
	ts := startServer(t)
	ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	b := newBrowser(t, 1280, 900)

	b.do("login", chromedp.Navigate(ts.URL+w.dayPath()), chromedp.WaitVisible(testID("login-form")),
		chromedp.SendKeys(css("#f-email"), ownerEmail),
		chromedp.SendKeys(css("#f-password"), ownerPassword),
		chromedp.Submit(testID("login-form")),
		chromedp.WaitVisible(testID("day-grid")),
	)
	if got := b.text("[data-testid=day-title]"); !strings.Contains(got, "Norte") || !strings.Contains(got, "America/New_York") {
		t.Errorf("day title %q, want Norte in America/New_York", got)
	}
	if n := evalJS[int](b, `document.querySelectorAll("[data-testid=day-provider]").length`); n != 3 {
		t.Errorf("got %d provider columns, want 3 (Ana, Bruno, Carla)", n)
	}

	slot := `a[data-testid=free-slot][aria-label^="Book Ana at 10:00"]`
	b.do("free-slot", chromedp.Click(css(slot)), chromedp.WaitVisible(testID("booking-form")))
	for field, want := range map[string]string{"location": w.Location, "service": w.Service, "provider": w.Ana, "date": w.Day, "time": "10:00"} {
		if got := evalJS[string](b, fmt.Sprintf(`document.querySelector("#f-%s").value`, field)); got != want {
			t.Errorf("the form from the free time has %s %q, want %q", field, got, want)
		}
	}
	b.do("find-client",
		chromedp.SendKeys(css("#f-client_q"), "maria"),
		chromedp.Click(testID("find-client")),
		chromedp.Poll[chromedp.Void](fmt.Sprintf(`document.querySelector("#f-client") && document.querySelector("#f-client").value === %q`, w.Maria)),
	)
	if got := evalJS[string](b, `document.querySelector("#f-time").value`); got != "10:00" {
		t.Errorf("after finding the client the time is %q, want 10:00 kept", got)
	}
	b.do("created",
		chromedp.SendKeys(css("#f-notes"), "First visit"),
		chromedp.Click(css(`[data-testid=booking-form] .actions button[type=submit]`)),
		chromedp.WaitVisible(testID("day-booking")),
	)
	if got := b.text("[data-testid=flash]"); !strings.Contains(got, "Booking created: Ana with Maria Lopez") {
		t.Errorf("after creating got flash %q", got)
	}
	if got := evalJS[string](b, `document.querySelector("[data-testid=day-booking]").closest("td").dataset.provider`); got != w.Ana {
		t.Errorf("the booking is in provider %q's column, want Ana's (%s)", got, w.Ana)
	}
	if got := b.text("[data-testid=day-booking]"); !strings.Contains(got, "10:00–10:30") || !strings.Contains(got, "Maria Lopez") {
		t.Errorf("the booking shows %q, want 10:00–10:30 and Maria Lopez", got)
	}
	id := evalJS[string](b, `document.querySelector("[data-testid=day-booking]").dataset.booking`)

	b.do("booking-page", chromedp.Click(testID("day-booking")), chromedp.WaitVisible(testID("booking-summary")))
	b.do("cancel-confirm", chromedp.Click(testID("cancel-booking-link")), chromedp.WaitVisible(testID("confirm-cancel")))
	b.do("cancelled", chromedp.Click(testID("confirm-cancel")), chromedp.WaitVisible(testID("day-grid")),
		chromedp.WaitVisible(testID("day-cancelled")))
	if got := b.text("[data-testid=flash]"); !strings.Contains(got, "Booking cancelled") {
		t.Errorf("after cancelling got flash %q", got)
	}
	if b.present(`[data-testid=day-grid] [data-testid=day-booking]`) {
		t.Error("the cancelled booking is still in the grid")
	}
	if !b.present(`a[data-testid=free-slot][aria-label^="Book Ana at 10:00"]`) {
		t.Error("10:00 is not offered for Ana again after the cancellation")
	}
	if status, _, _ := bookingRow(t, d, id); status != 5 {
		t.Errorf("booking %s has status %d after cancelling, want 5", id, status)
	}

	const phone = 390
	b.do("phone", chromedp.EmulateViewport(phone, 844, chromedp.EmulateMobile), chromedp.Navigate(ts.URL+w.dayPath()),
		chromedp.WaitVisible(testID("day-grid")))
	if got := evalJS[int](b, "document.documentElement.scrollWidth"); got > phone {
		t.Errorf("the day view is %d px wide on a %d px phone", got, phone)
	}
	if !evalJS[bool](b, `(() => { const w = document.querySelector(".day-wrap"); return w.scrollWidth > w.clientWidth })()`) {
		t.Error("on a phone the three columns fit without scrolling; want them wider than the screen, scrolling in their box")
	}
}
