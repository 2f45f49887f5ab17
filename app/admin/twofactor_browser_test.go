package admin_test

import (
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The two-factor pages on a 390-px phone: enrolment (secret, URI, QR code), the recovery
// codes, and the code step at sign-in fit the screen and pass axe-core.
func TestBrowserTwoFactorPages(t *testing.T) {
	ts := startServer(t)
	ts.setupOwner(t)
	axe, err := os.ReadFile("testdata/axe-4.11.0.min.js")
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, 390, 844, chromedp.EmulateMobile)
	signIn := func(name string, ready chromedp.CSS) {
		b.do(name, chromedp.Navigate(ts.URL+"/login"), chromedp.WaitVisible(testID("login-form")),
			chromedp.SendKeys(css("#f-email"), ownerEmail), chromedp.SendKeys(css("#f-password"), ownerPassword),
			chromedp.Submit(testID("login-form")), chromedp.WaitVisible(ready))
	}
	signIn("login", testID("logout"))
	visit(t, b, ts.URL+"/account")
	b.do("start", chromedp.Submit(testID("twofactor-off")), chromedp.WaitVisible(testID("twofactor-qr")))
	checkPage(t, b, axe, "/account (enrolling)")
	secret := b.text(`[data-testid=twofactor-secret]`)
	b.do("confirm", chromedp.SendKeys(css("#f-tf_code"), totpAt(t, secret, time.Now())),
		chromedp.Submit(css(`form[action="/account/two-factor/confirm"]`)), chromedp.WaitVisible(testID("recovery-codes")))
	checkPage(t, b, axe, "/account (recovery codes)")

	b.do("sign out", chromedp.Click(testID("logout")), chromedp.WaitVisible(testID("login-form")))
	signIn("password step", testID("code-form"))
	checkPage(t, b, axe, "/login/code")
	b.do("code step", chromedp.SendKeys(css("#f-code"), totpAt(t, secret, time.Now().Add(30*time.Second))),
		chromedp.Submit(testID("code-form")), chromedp.WaitVisible(testID("logout")))
}
