package admin_test

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// The no-public-URL notice stands at the same place on every page, at 1280 px and on a 390-px
// phone, whether or not the page has a section's tabs; its button hides it, on this page and the
// others.
func TestBrowserPublicURLNoticeStaysPutAndHides(t *testing.T) {
	ts := startServer(t)
	ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	pages := []string{"/", "/catalog/services", w.dayPath(), "/settings/messages", "/bookings"}
	for _, size := range []struct {
		name          string
		width, height int
		opts          []chromedp.EmulateViewportOption
	}{{"1280", 1280, 900, nil}, {"390", 390, 844, []chromedp.EmulateViewportOption{chromedp.EmulateMobile}}} {
		t.Run(size.name, func(t *testing.T) {
			b := newBrowser(t, size.width, size.height, size.opts...)
			b.do("login", chromedp.Navigate(ts.URL+"/login"), chromedp.WaitVisible(testID("login-form")),
				chromedp.SendKeys(css("#f-email"), ownerEmail), chromedp.SendKeys(css("#f-password"), ownerPassword),
				chromedp.Submit(testID("login-form")), chromedp.WaitVisible(testID("public-url-notice")))
			const where = `(() => { const r = document.querySelector("[data-testid=public-url-notice]").getBoundingClientRect(); return [r.top + scrollY, r.left, r.width].map(Math.round).join(",") })()`
			first := ""
			for _, p := range pages {
				visit(t, b, ts.URL+p)
				got := evalJS[string](b, where)
				if first == "" {
					first = got
				} else if got != first {
					b.screenshot("moved")
					t.Errorf("on %s the notice is at %s (top, left, width), on %s at %s", p, got, pages[0], first)
				}
			}
			b.do("hide", chromedp.Click(testID("hide-public-url-notice")), chromedp.WaitNotPresent(testID("public-url-notice")),
				chromedp.WaitVisible(css("main h1")))
			if got := evalJS[string](b, "location.pathname + location.search"); got != pages[len(pages)-1] {
				t.Errorf("after hiding the notice the page is %s, want %s", got, pages[len(pages)-1])
			}
			for _, p := range pages {
				visit(t, b, ts.URL+p)
				if b.present(`[data-testid=public-url-notice]`) {
					t.Errorf("%s shows the notice after it was hidden", p)
				}
			}
		})
	}
}
