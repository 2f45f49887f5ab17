package admin_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"frontdesk/app/payments"
)

// The checkout page is public: anyone with the link sees what is owed, until when, and how to
// pay; nothing about the client; no admin navigation even for a signed-in owner. Unknown or
// malformed UUIDs are the 404 page.
func TestCheckoutPage(t *testing.T) {
	ts := startServer(t)
	owner := ts.setupOwner(t)
	w := seedPayWorld(t, ts)
	pr := w.request(t, "10:00")
	path := "/pay/" + pr.UUID
	if pr.CheckoutURL != ts.URL+path {
		t.Fatalf("got checkout URL %q, want %q", pr.CheckoutURL, ts.URL+path)
	}

	anon := ts.newClient(t)
	res := anon.get(t, path)
	wantStatus(t, res, http.StatusOK)
	wantBody(t, res, `data-testid="checkout-business">Studio<`, "Norte", "Haircut", `data-testid="checkout-total">$25.00<`,
		"Awaiting payment", `data-testid="checkout-expiry"`, "(UTC−", "minutes left", `data-testid="checkout-instructions"`, "front desk")
	for _, secret := range []string{"Maria", "Lopez", "maria@example.com", `data-testid="logout"`} {
		if strings.Contains(res.Body, secret) {
			t.Errorf("the public checkout page shows %q", secret)
		}
	}
	if got := res.Header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("got Cache-Control %q, want no-store", got)
	}
	wantStatus(t, anon.get(t, "/pay/"+strings.ToUpper(pr.UUID)), http.StatusOK)
	if strings.Contains(owner.get(t, path).Body, `data-testid="logout"`) {
		t.Error("the checkout page shows the admin navigation to a signed-in owner")
	}

	for _, bad := range []string{"/pay/00000000-0000-4000-8000-000000000000", "/pay/not-a-uuid", "/pay/" + pr.UUID + "x", "/pay/%27%20OR%201=1"} {
		t.Run(bad, func(t *testing.T) { wantStatus(t, anon.get(t, bad), http.StatusNotFound) })
	}

	if _, err := payments.Settle(context.Background(), w.d, pr.ID, payments.MethodCash, time.Now()); err != nil {
		t.Fatal(err)
	}
	wantBody(t, anon.get(t, path), `data-testid="checkout-paid"`, "Paid")
	cancelled := w.request(t, "11:00")
	if _, err := payments.Cancel(context.Background(), w.d, time.Now(), cancelled.ID); err != nil {
		t.Fatal(err)
	}
	wantBody(t, anon.get(t, "/pay/"+cancelled.UUID), `data-testid="checkout-cancelled"`)
}

// The checkout page and a payment request's admin page fit a 390-px phone (the route-walking
// mobile test opens them without data).
func TestPaymentPagesOnPhone(t *testing.T) {
	const width = 390
	ts := startServer(t)
	setup := ts.setupURL(t)
	b := newBrowser(t, width, 844, chromedp.EmulateMobile)
	b.do("setup", chromedp.Navigate(setup), chromedp.WaitVisible(testID("setup-form")),
		chromedp.SendKeys(css("#f-email"), ownerEmail), chromedp.SendKeys(css("#f-password"), ownerPassword),
		chromedp.SendKeys(css("#f-confirm"), ownerPassword), chromedp.Submit(testID("setup-form")), chromedp.WaitVisible(testID("webhook-health")))
	w := seedPayWorld(t, ts)
	pr := w.request(t, "10:00")
	for _, page := range []struct{ path, wait string }{
		{"/pay/" + pr.UUID, "checkout-instructions"},
		{"/payments", "payment-row"},
		{"/payments/" + strconv.FormatInt(pr.ID, 10), "settle-form"},
	} {
		b.do(strings.ReplaceAll(strings.Trim(page.path, "/"), "/", "-"), chromedp.Navigate(ts.URL+page.path), chromedp.WaitVisible(testID(page.wait)))
		if got := evalJS[int](b, "document.documentElement.scrollWidth"); got > width {
			t.Errorf("%s: page is %d px wide on a %d px screen", page.path, got, width)
		}
	}
}
