package admin_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestMobileNoHorizontalScroll opens every admin page on a 390-px-wide phone and checks that
// the page is no wider than the screen (tables may scroll inside their own box). Pages come
// from the route table, so new pages are checked as they are added.
func TestMobileNoHorizontalScroll(t *testing.T) {
	const width = 390
	ts := startServer(t)
	setup := ts.setupURL(t)
	b := newBrowser(t, width, 844, chromedp.EmulateMobile)
	fits := func(page string) {
		t.Helper()
		if w := evalJS[int](b, "document.documentElement.scrollWidth"); w > width {
			t.Errorf("%s: page is %d px wide on a %d px screen", page, w, width)
		}
	}

	b.do("setup", chromedp.Navigate(setup), chromedp.WaitVisible(testID("setup-form")))
	fits("setup")
	b.do("setup-errors", chromedp.SendKeys(css("#f-email"), "not-an-email-address-that-is-rather-long@"),
		chromedp.SendKeys(css("#f-password"), "short"), chromedp.SendKeys(css("#f-confirm"), "other"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("[data-testid=setup-form]").noValidate = true`),
		chromedp.Submit(testID("setup-form")), chromedp.WaitVisible(testID("error-password")))
	fits("setup with errors")
	b.do("dashboard", chromedp.SetValue(css("#f-email"), ownerEmail), chromedp.SendKeys(css("#f-password"), ownerPassword),
		chromedp.SendKeys(css("#f-confirm"), ownerPassword), chromedp.Submit(testID("setup-form")), chromedp.WaitVisible(testID("webhook-health")))

	// Long unbroken text and wide tables are what push pages sideways.
	seedDay(t, ts)
	seedClass(t, ts)
	c := ts.newClient(t)
	c.login(t, ownerEmail, ownerPassword)
	long := "An-API-key-name-without-any-spaces-that-goes-on-and-on-and-on-" + strings.Repeat("x", 30)
	all := url.Values{"name": {long}, "access": {"scopes"}, "z_means_local": {"1"}}
	for _, s := range []string{"bookings:read", "bookings:write", "clients:read", "clients:write", "locations:read"} {
		all.Add("scopes", s)
	}
	wantRedirect(t, c.post(t, "/settings/integrations/api-keys", all), "/settings/integrations/api-keys")

	for _, route := range adminRoutes(t) {
		method, path, _ := strings.Cut(route, " ")
		if method != http.MethodGet || publicRoutes[route] || notPage(path) {
			continue
		}
		name := strings.Trim(strings.ReplaceAll(path, "/", "-"), "-")
		if name == "" {
			name = "dashboard"
		}
		b.do(name, chromedp.Navigate(ts.URL+path), chromedp.WaitVisible(css("main h1")))
		fits(path)
	}

	b.do("new-key", chromedp.Navigate(ts.URL+"/settings/integrations/api-keys"), chromedp.WaitVisible(testID("api-key-form")),
		chromedp.SendKeys(css("#f-name"), "Phone"), chromedp.Click(css("#f-access-0")), chromedp.Submit(testID("api-key-form")), chromedp.WaitVisible(testID("new-api-key")))
	fits("API keys with a new key")
	b.do("business-errors", chromedp.Navigate(ts.URL+"/settings/business"), chromedp.WaitVisible(testID("business-form")),
		chromedp.SetValue(css("#f-slot_step_min"), "1"), chromedp.SetValue(css("#f-currency"), "EURO"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("[data-testid=business-form]").noValidate = true`),
		chromedp.Submit(testID("business-form")), chromedp.WaitVisible(testID("error-slot_step_min")))
	fits("business with errors")
	b.do("signed-out", chromedp.Click(testID("logout")), chromedp.WaitVisible(testID("login-form")))
	fits("login")
}
