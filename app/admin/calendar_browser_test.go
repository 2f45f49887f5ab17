package admin_test

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The week and agenda views of 30 providers and 300 bookings, at 1280 px and on a 390-px
// phone, in English and in Spanish: no page is wider than the screen (the week scrolls inside
// its own box), axe-core finds nothing serious, and two 30-minute bookings, one with a short
// client name and one with a long name and a status badge, are drawn equally tall, at least
// 44 px (a tap target).
func TestBrowserWeekAndAgenda(t *testing.T) {
	ts := startServer(t)
	ts.setupOwner(t)
	w := seedBusyWeek(t, ts)
	d := openBookingDB(t, ts)
	axe, err := os.ReadFile("testdata/axe-4.11.0.min.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []struct {
		name          string
		width, height int
		opts          []chromedp.EmulateViewportOption
	}{{"1280", 1280, 900, nil}, {"390", 390, 844, []chromedp.EmulateViewportOption{chromedp.EmulateMobile}}} {
		t.Run(size.name, func(t *testing.T) {
			b := newBrowser(t, size.width, size.height, size.opts...)
			b.do("login", chromedp.Navigate(ts.URL+w.weekPath("")), chromedp.WaitVisible(testID("login-form")),
				chromedp.SendKeys(css("#f-email"), ownerEmail), chromedp.SendKeys(css("#f-password"), ownerPassword),
				chromedp.Submit(testID("login-form")), chromedp.WaitVisible(testID("week-grid")))
			for _, lang := range []string{"en", "es"} {
				if _, err := d.Write.Exec(`UPDATE company SET language = ?`, lang); err != nil {
					t.Fatal(err)
				}
				for _, path := range []string{w.weekPath(""), w.agendaPath("")} {
					visit(t, b, ts.URL+path)
					if got := evalJS[string](b, "document.documentElement.lang"); got != lang {
						t.Fatalf("%s: the page is in %q, want %q", path, got, lang)
					}
					checkPage(t, b, axe, lang+" "+path)
					height := func(id string) float64 {
						return evalJS[float64](b, fmt.Sprintf(`document.querySelector("[data-testid=cal-booking][data-id='%s']").getBoundingClientRect().height`, id))
					}
					s, l := height(w.Short), height(w.Long)
					if math.Abs(s-l) > 0.5 {
						t.Errorf("%s %s: two 30-minute bookings are %.1f px and %.1f px tall", lang, path, s, l)
					}
					if s < 44 {
						t.Errorf("%s %s: a booking is %.1f px tall, less than a 44-px tap target", lang, path, s)
					}
				}
				// The pages this work added besides the calendar: a booking's free times to move
				// to, and a client's history (with the client search in the top bar).
				for _, path := range []string{"/bookings/" + w.Short + "/move", "/clients/" + w.Maria} {
					visit(t, b, ts.URL+path)
					checkPage(t, b, axe, lang+" "+path)
				}
			}
			if size.name == "1280" {
				// The keyboard moves a booking: Tab to the free times, an arrow to the next one,
				// Enter to send.
				if _, err := d.Write.Exec(`UPDATE company SET language = 'en'`); err != nil {
					t.Fatal(err)
				}
				visit(t, b, ts.URL+"/bookings/"+w.Short+"/move")
				b.do("choose", chromedp.Focus(css("input[name=choice]")), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent("\r"),
					chromedp.WaitVisible(testID("booking-summary")), chromedp.WaitVisible(css(".flash-success")))
				if got := b.text(".flash-success"); !strings.Contains(got, "Booking moved") {
					t.Errorf("after moving by keyboard the page says %q", got)
				}
			}
		})
	}
}
