package admin_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserSetupLoginAPIKeys walks the first-run path in a real browser: setup with the
// logged token, sign out, sign in, save the business settings, create an API key (shown once, gone after a reload, and it
// works on /v3), then revoke it (and /v3 refuses it).
func TestBrowserSetupLoginAPIKeys(t *testing.T) {
	ts := startServer(t)
	setupURL := ts.setupURL(t)
	b := newBrowser(t, 1280, 900)

	b.do("setup-form", chromedp.Navigate(setupURL), chromedp.WaitVisible(testID("setup-form")))
	b.do("setup-submitted",
		chromedp.SendKeys(css("#f-email"), ownerEmail),
		chromedp.SendKeys(css("#f-password"), ownerPassword),
		chromedp.SendKeys(css("#f-confirm"), ownerPassword),
		chromedp.Submit(testID("setup-form")),
		chromedp.WaitVisible(testID("webhook-health")),
	)
	if got := b.text("[data-testid=flash]"); !strings.Contains(got, "Welcome") {
		t.Errorf("after setup got flash %q, want a welcome", got)
	}

	b.do("signed-out", chromedp.Click(testID("logout")), chromedp.WaitVisible(testID("login-form")))
	if got := b.text("[data-testid=flash]"); !strings.Contains(got, "signed out") {
		t.Errorf("after sign-out got flash %q, want it to say so", got)
	}
	b.do("setup-link-dead", chromedp.Navigate(setupURL), chromedp.WaitVisible(testID("error-status")))
	if got := b.text("[data-testid=error-status]"); got != "Not Found" {
		t.Errorf("setup URL after setup shows %q, want Not Found", got)
	}

	b.do("login", chromedp.Navigate(ts.URL+"/settings/integrations/api-keys"), chromedp.WaitVisible(testID("login-form")),
		chromedp.SendKeys(css("#f-email"), ownerEmail),
		chromedp.SendKeys(css("#f-password"), ownerPassword),
		chromedp.Submit(testID("login-form")),
		chromedp.WaitVisible(testID("api-key-form")), // back where we were sent from
	)

	// A fresh installation has no company until the business settings are saved; /v3 needs one.
	b.do("business-settings",
		chromedp.Click(css(`nav.primary a[href="/settings/business"]`)),
		chromedp.WaitVisible(testID("business-form")),
		chromedp.SetValue(css("#f-name"), "Studio Uno"),
		chromedp.SetValue(css("#f-currency"), "EUR"),
		chromedp.Submit(testID("business-form")),
		chromedp.WaitVisible(testID("flash")),
	)
	if got := b.text("[data-testid=flash]"); !strings.Contains(got, "saved") {
		t.Errorf("after saving the business got flash %q, want saved", got)
	}
	b.do("api-keys-page",
		chromedp.Click(css(`nav.tabs a[href="/settings/integrations"]`)),
		chromedp.WaitVisible(testID("api-key-form")),
	)

	// Full access is a named choice (issue 13): the form refuses to guess when nothing is
	// chosen, and keeps what was typed.
	b.do("api-key-without-access",
		chromedp.SendKeys(css("#f-name"), "Website widget"),
		chromedp.Click(css(`input[name=scopes][value="bookings:read"]`)),
		chromedp.Click(css(`input[name=scopes][value="locations:read"]`)),
		chromedp.Submit(testID("api-key-form")),
		chromedp.WaitVisible(testID("error-access")),
	)
	b.do("create-api-key",
		chromedp.Click(css("#f-access-1")),
		chromedp.Click(css("#f-z_means_local")),
		chromedp.Submit(testID("api-key-form")),
		chromedp.WaitVisible(testID("new-api-key")),
	)
	if !b.present(`[data-testid=api-key-row] [data-testid=z-means-local-badge]`) {
		t.Error("the new key's row does not show its Z-means-local option")
	}
	key := b.text("[data-testid=new-api-key]")
	if !strings.HasPrefix(key, "apk_live_") || len(key) < 50 {
		t.Fatalf("shown key %q, want apk_live_ and 256 bits", key)
	}
	if !b.present(`button[data-copy="#new-api-key"]:not([hidden])`) {
		t.Error("no visible copy button next to the new key")
	}
	if got := apiStatus(t, ts, key); got != http.StatusOK {
		t.Errorf("new key on /v3/locations: got %d, want 200", got)
	}

	b.do("reloaded", chromedp.Reload(), chromedp.WaitVisible(testID("api-keys")))
	if b.present("[data-testid=new-api-key]") {
		t.Error("the key is still shown after a reload; want it shown once")
	}
	if html := evalJS[string](b, "document.documentElement.outerHTML"); strings.Contains(html, key) {
		t.Error("the key is in the page after a reload")
	}
	if got := b.text("[data-testid=api-key-name]"); got != "Website widget" {
		t.Errorf("listed key name %q, want Website widget", got)
	}

	b.do("revoke-confirm", chromedp.Click(testID("revoke-link")), chromedp.WaitVisible(testID("confirm-revoke")))
	if got := b.text("[data-testid=revoke-name]"); got != "Website widget" {
		t.Errorf("confirmation names %q, want Website widget", got)
	}
	b.do("revoked", chromedp.Click(testID("confirm-revoke")), chromedp.WaitVisible(testID("flash")))
	if got := b.text("[data-testid=flash]"); !strings.Contains(got, "revoked") {
		t.Errorf("after revoking got flash %q, want it to say revoked", got)
	}
	if !b.present("tr.revoked [data-testid=api-key-name]") {
		t.Error("the revoked key is not marked revoked in the list")
	}
	if got := apiStatus(t, ts, key); got != http.StatusUnauthorized {
		t.Errorf("revoked key on /v3/locations: got %d, want 401", got)
	}
}

// apiStatus calls /v3/locations with key and returns the status.
func apiStatus(t *testing.T, ts *testServer, key string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, ts.URL+"/v3/locations", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}
