package admin_test

import (
	"os"
	"testing"

	"github.com/chromedp/chromedp"
)

// A provider's own schedule, signed in as Ana's provider account, on a 390-px phone and at
// 1280 px, in English and in Spanish: the day and the week are never wider than the screen,
// axe-core finds nothing serious or critical, the week shows seven days, and signing in lands
// on the schedule.
func TestBrowserProviderSchedule(t *testing.T) {
	ts := startServer(t)
	s := seedSchedule(t, ts)
	d := openBookingDB(t, ts)
	axe, err := os.ReadFile("testdata/axe-4.11.0.min.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []struct {
		name          string
		width, height int
		opts          []chromedp.EmulateViewportOption
	}{{"390", 390, 844, []chromedp.EmulateViewportOption{chromedp.EmulateMobile}}, {"1280", 1280, 900, nil}} {
		t.Run(size.name, func(t *testing.T) {
			b := newBrowser(t, size.width, size.height, size.opts...)
			b.do("login", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(testID("login-form")),
				chromedp.SendKeys(css("#f-email"), "ana@example.com"), chromedp.SendKeys(css("#f-password"), staffPassword),
				chromedp.Submit(testID("login-form")), chromedp.WaitVisible(testID("schedule")))
			if got := evalJS[string](b, "location.pathname"); got != "/schedule" {
				t.Errorf("signing in lands on %s, want /schedule", got)
			}
			for _, lang := range []string{"en", "es"} {
				if _, err := d.Write.Exec(`UPDATE company SET language = ?`, lang); err != nil {
					t.Fatal(err)
				}
				for i, path := range []string{schedulePath("date", s.Day), schedulePath("date", s.Day, "view", "week")} {
					visit(t, b, ts.URL+path)
					b.record(lang + "-" + []string{"day", "week"}[i])
					if got := evalJS[string](b, "document.documentElement.lang"); got != lang {
						t.Fatalf("%s: the page is in %q, want %q", path, got, lang)
					}
					checkPage(t, b, axe, lang+" "+path)
					if !b.present(`[data-testid=cal-booking][data-id="` + s.mine + `"]`) {
						t.Errorf("%s %s: Ana's booking is not shown", lang, path)
					}
					if b.present(`[data-testid=cal-booking][data-id="` + s.theirs + `"]`) {
						t.Errorf("%s %s: Bruno's booking is shown to Ana", lang, path)
					}
				}
				if n := evalJS[int](b, `document.querySelectorAll("[data-testid=agenda-section]").length`); n != 7 {
					t.Errorf("%s: the week shows %d days, want 7", lang, n)
				}
			}
		})
	}
}
