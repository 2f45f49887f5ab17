package admin_test

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"frontdesk/app/payments/stripe/stripetest"
	"frontdesk/app/secrets"
	"frontdesk/ui"
)

const (
	stripeKey    = "sk_test_51AdminTestKeyWithLetters4242"
	stripeSecret = "whsec_adminTestSigningSecretXyz9876"
)

// onlineServer is the appliance pointed at a stateful Stripe over the real stripe-mock.
func onlineServer(t *testing.T) (*testServer, *stripetest.Fake) {
	t.Helper()
	fake := stripetest.NewFake(t, stripetest.StartURL(t))
	return startServer(t, "FRONTDESK_STRIPE_API_URL="+fake.URL), fake
}

// enableStripe saves Stripe's keys in Settings → Payments.
func enableStripe(t *testing.T, c *client) {
	t.Helper()
	wantRedirect(t, c.post(t, "/settings/payments", url.Values{"provider": {"stripe"},
		"stripe_secret_key": {stripeKey}, "stripe_webhook_secret": {" " + stripeSecret + "\n"}}), "/settings/payments")
}

// Settings → Payments: Stripe cannot be switched on without both secrets, and the secrets are
// write-only — after saving, no page shows them (only a hint of the last characters), the
// database and a backup of it hold them sealed, and an empty field keeps the stored value.
// "Test connection" asks Stripe (stripe-mock) and says test mode; forgetting the keys of the
// provider in use is refused.
func TestPaymentSettings(t *testing.T) {
	ts, _ := onlineServer(t)
	c := ts.setupOwner(t)
	page := c.get(t, "/settings/payments")
	wantStatus(t, page, http.StatusOK)
	wantBody(t, page, `data-testid="payment-settings-form"`, `<code data-testid="notify-url">`+ts.URL+`/stripe/webhook</code>`,
		"checkout.session.completed", "Not set.")

	for name, tc := range map[string]struct {
		form  url.Values
		field string
	}{
		"no keys":         {url.Values{"provider": {"stripe"}}, `data-testid="error-provider"`},
		"publishable key": {url.Values{"provider": {"stripe"}, "stripe_secret_key": {"pk_test_51abcdefghijklmnop"}, "stripe_webhook_secret": {stripeSecret}}, `data-testid="error-stripe_secret_key"`},
		"bad webhook":     {url.Values{"provider": {"stripe"}, "stripe_secret_key": {stripeKey}, "stripe_webhook_secret": {"secret"}}, `data-testid="error-stripe_webhook_secret"`},
		"unknown":         {url.Values{"provider": {"paypal"}}, `data-testid="error-provider"`},
	} {
		t.Run(name, func(t *testing.T) {
			res := c.post(t, "/settings/payments", tc.form)
			wantStatus(t, res, http.StatusUnprocessableEntity)
			wantBody(t, res, tc.field)
			if strings.Contains(res.Body, stripeKey) || strings.Contains(res.Body, stripeSecret) {
				t.Error("the refused form shows a secret back")
			}
		})
	}
	d := openBookingDB(t, ts)
	var n int
	d.Read.QueryRow(`SELECT count(*) FROM payment_provider_credentials`).Scan(&n)
	if n != 0 {
		t.Fatalf("refused forms stored %d credentials", n)
	}

	enableStripe(t, c)
	page = c.get(t, "/settings/payments")
	wantBody(t, page, "Payment settings saved", "sk_test_…4242", "whsec_…9876", `<option value="stripe" selected>`)
	for _, path := range []string{"/settings/payments", "/payments", "/", "/settings/business"} {
		body := c.get(t, path).Body
		if strings.Contains(body, stripeKey) || strings.Contains(body, stripeSecret) {
			t.Errorf("%s shows a secret", path)
		}
	}
	var sealedKey, sealedHook string
	d.Read.QueryRow(`SELECT secret_key_sealed, webhook_secret_sealed FROM payment_provider_credentials WHERE provider = 'stripe'`).Scan(&sealedKey, &sealedHook)
	if !strings.HasPrefix(sealedKey, "v1:") || !strings.HasPrefix(sealedHook, "v1:") {
		t.Errorf("stored %q / %q, want sealed values", sealedKey, sealedHook)
	}
	backup := filepath.Join(t.TempDir(), "backup.db")
	if err := d.Backup(context.Background(), backup); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(backup)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{stripeKey, stripeSecret, "AdminTestKey", "adminTestSigning"} {
		if bytes.Contains(raw, []byte(secret)) {
			t.Errorf("a backup of the database contains %q in clear", secret)
		}
	}
	box, err := secrets.Load(ts.Data)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := box.Open("stripe.secret_key", sealedKey); err != nil || got != stripeKey {
		t.Errorf("the data directory's key does not open the stored key: %q, %v", got, err)
	}

	// Saving with the secret fields empty keeps them.
	wantRedirect(t, c.post(t, "/settings/payments", url.Values{"provider": {"stripe"}}), "/settings/payments")
	wantBody(t, c.get(t, "/settings/payments"), "sk_test_…4242", "whsec_…9876")

	wantRedirect(t, c.post(t, "/settings/payments/test?provider=stripe", nil), "/settings/payments")
	wantBody(t, c.get(t, "/settings/payments"), "Stripe answered: the keys work, in test mode", "Stripe has no webhook endpoint for "+ts.URL+"/stripe/webhook")

	res := c.post(t, "/settings/payments", url.Values{"provider": {"stripe"}, "stripe_forget": {"1"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-provider"`)
	wantRedirect(t, c.post(t, "/settings/payments", url.Values{"provider": {"none"}, "stripe_forget": {"1"}}), "/settings/payments")
	wantBody(t, c.get(t, "/settings/payments"), "Not set.", `<option value="none" selected>`)
}

// A customer pays a deposit by card: the checkout page offers Stripe (and only Stripe, as the
// service asks for payment online) for the deposit; the pay button redirects to Stripe's page
// (the page's policy allows that); back on the page after paying it shows paid at once; the
// late webhook changes nothing; a forged one is refused. The owner then sees the sale with the
// deposit paid online, refunds part of it through Stripe, and records the rest paid at the desk.
func TestCardPaymentEndToEnd(t *testing.T) {
	ts, fake := onlineServer(t)
	owner := ts.setupOwner(t)
	enableStripe(t, owner)
	w := seedPayWorld(t, ts)
	if _, err := w.d.Write.Exec(`UPDATE services SET online_payment_mode = 'MANDATORY_PARTIAL', online_payment_cents = 1000`); err != nil {
		t.Fatal(err)
	}
	pr := w.request(t, "10:00")
	path := "/pay/" + pr.UUID
	customer := ts.newClient(t)

	page := customer.get(t, path)
	wantStatus(t, page, http.StatusOK)
	wantBody(t, page, `data-testid="checkout-pay-form"`, "Pay $10.00 by card", "the remaining $15.00 is paid at the business", "Stripe")
	if strings.Contains(page.Body, `data-testid="checkout-instructions"`) {
		t.Error("a service paid online offers paying at the front desk instead")
	}
	if csp := page.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "form-action 'self' https://checkout.stripe.com") {
		t.Errorf("got CSP %q, want the form allowed to go to Stripe", csp)
	}

	res := customer.post(t, path+"/checkout", nil)
	if res.Status != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "https://checkout.stripe.com/") {
		t.Fatalf("pay: got %d to %q, want 303 to Stripe", res.Status, res.Header.Get("Location"))
	}
	created := fake.Requests("POST", "/v1/checkout/sessions")
	if len(created) != 1 {
		t.Fatalf("got %d sessions created, want 1", len(created))
	}
	if got, want := created[0].Form.Get("success_url"), ts.URL+path+"?checkout=done"; got != want {
		t.Errorf("got success_url %q, want %q", got, want)
	}
	if got := created[0].Form.Get("line_items[0][price_data][unit_amount]"); got != "1000" {
		t.Errorf("got unit_amount %s, want the $10.00 deposit (1000)", got)
	}
	var sessionID string
	w.d.Read.QueryRow(`SELECT session_id FROM online_checkouts WHERE payment_request_id = ?`, pr.ID).Scan(&sessionID)
	if again := customer.post(t, path+"/checkout", nil); again.Header.Get("Location") != res.Header.Get("Location") {
		t.Errorf("paying again went to %q, want the same session", again.Header.Get("Location"))
	}

	fake.Pay(sessionID)
	back := customer.get(t, path+"?checkout=done")
	wantBody(t, back, `data-testid="checkout-paid"`)
	if got := w.status(t, pr.ID); got != "paid" {
		t.Fatalf("got status %s after the customer came back, want paid", got)
	}

	event := stripetest.Event("", "checkout.session.completed", fake.Session(sessionID))
	post := func(sig string) int {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/stripe/webhook", bytes.NewReader(event))
		req.Header.Set("Stripe-Signature", sig)
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		return r.StatusCode
	}
	if code := post(stripetest.Sign("whsec_notTheRightSecret000000", event)); code != http.StatusBadRequest {
		t.Errorf("forged webhook: got %d, want 400", code)
	}
	if code := post(stripetest.Sign(stripeSecret, event)); code != http.StatusOK {
		t.Errorf("late webhook: got %d, want 200", code)
	}
	var sales, paidEvents int
	var saleID int64
	w.d.Read.QueryRow(`SELECT count(*), max(id) FROM sales`).Scan(&sales, &saleID)
	w.d.Read.QueryRow(`SELECT count(*) FROM events WHERE type = 'payment_request.paid'`).Scan(&paidEvents)
	if sales != 1 || paidEvents != 1 {
		t.Fatalf("got %d sales and %d payment_request.paid, want 1 and 1", sales, paidEvents)
	}

	request := owner.get(t, ui.PaymentURL(pr.ID))
	wantBody(t, request, `data-testid="online-checkout"`, "Stripe", "checkout.session.completed", "Nothing new (already known)")
	sale := owner.get(t, ui.SaleURL(saleID))
	wantStatus(t, sale, http.StatusOK)
	wantBody(t, sale, "Deposit paid", `data-testid="sale-paid">$10.00<`, `data-testid="sale-pending">$15.00<`, "Online payment",
		`data-testid="refund-form"`, `data-testid="balance-form"`)

	wantStatus(t, owner.post(t, ui.SaleURL(saleID)+"/refund", url.Values{"amount": {"11"}}), http.StatusUnprocessableEntity)
	wantRedirect(t, owner.post(t, ui.SaleURL(saleID)+"/refund", url.Values{"amount": {"4"}}), ui.SaleURL(saleID))
	wantBody(t, owner.get(t, ui.SaleURL(saleID)), "Refunded $4.00.", `data-testid="sale-refund"`, "you, here")
	if refunds := fake.Requests("POST", "/v1/refunds"); len(refunds) != 1 || refunds[0].Form.Get("amount") != "400" {
		t.Errorf("got refund calls %+v, want one of 400 cents", refunds)
	}
	wantRedirect(t, owner.post(t, ui.SaleURL(saleID)+"/balance", url.Values{"method": {"1"}}), ui.SaleURL(saleID))
	wantBody(t, owner.get(t, ui.SaleURL(saleID)), "The rest is recorded", `data-testid="sale-paid">$25.00<`)
}

// A payment of another amount is flagged to the owner on the payments list and the request;
// the owner refunds it through Stripe (which resolves the flag) and it shows as dealt with.
func TestFlaggedPaymentInAdmin(t *testing.T) {
	ts, fake := onlineServer(t)
	owner := ts.setupOwner(t)
	enableStripe(t, owner)
	w := seedPayWorld(t, ts)
	pr := w.request(t, "10:00")
	customer := ts.newClient(t)
	customer.post(t, "/pay/"+pr.UUID+"/checkout", nil)
	var sessionID string
	w.d.Read.QueryRow(`SELECT session_id FROM online_checkouts WHERE payment_request_id = ?`, pr.ID).Scan(&sessionID)
	fake.Update(sessionID, func(s map[string]any) { s["status"], s["payment_status"], s["amount_total"] = "complete", "paid", 100 })
	event := stripetest.Event("", "checkout.session.completed", fake.Session(sessionID))
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/stripe/webhook", bytes.NewReader(event))
	req.Header.Set("Stripe-Signature", stripetest.Sign(stripeSecret, event))
	if r, err := http.DefaultClient.Do(req); err != nil || r.StatusCode != http.StatusOK {
		t.Fatalf("webhook: %v %v", r, err)
	}
	list := owner.get(t, "/payments")
	wantBody(t, list, `data-testid="payment-flags"`, "1 online payment needs you", "Amount mismatch", "$1.00 was paid on Stripe", "$25.00")
	if got := w.status(t, pr.ID); got != "pending" {
		t.Errorf("got status %s, want pending", got)
	}
	var flagID int64
	w.d.Read.QueryRow(`SELECT id FROM payment_flags`).Scan(&flagID)
	wantRedirect(t, owner.post(t, ui.FlagRefundURL(flagID), nil), ui.PaymentURL(pr.ID))
	wantBody(t, owner.get(t, ui.PaymentURL(pr.ID)), "Refunded $1.00.", "Dealt with.")
	if refunds := fake.Requests("POST", "/v1/refunds"); len(refunds) != 1 || refunds[0].Form.Get("amount") != "100" {
		t.Errorf("got refund calls %+v, want one of 100 cents", refunds)
	}
	if strings.Contains(owner.get(t, "/payments").Body, `data-testid="payment-flags"`) {
		t.Error("a resolved flag is still listed")
	}

	// In a Spanish business the customer reads the card payment in Spanish, money included.
	if _, err := w.d.Write.Exec(`UPDATE company SET language = 'es'`); err != nil {
		t.Fatal(err)
	}
	wantBody(t, customer.get(t, "/pay/"+pr.UUID), "Paga con tarjeta", "Pagar $25,00 con tarjeta", "Esperando pago")
}

// The online payment pages fit a 390-px phone, with no script or style the page policy refuses:
// the checkout page with its card button and deposit, a request's online payment, a sale with
// its refund and balance forms, and Settings → Payments.
func TestOnlinePaymentPagesOnPhone(t *testing.T) {
	const width = 390
	ts, fake := onlineServer(t)
	setup := ts.setupURL(t)
	b := newBrowser(t, width, 844, chromedp.EmulateMobile)
	b.do("setup", chromedp.Navigate(setup), chromedp.WaitVisible(testID("setup-form")),
		chromedp.SendKeys(css("#f-email"), ownerEmail), chromedp.SendKeys(css("#f-password"), ownerPassword),
		chromedp.SendKeys(css("#f-confirm"), ownerPassword), chromedp.Submit(testID("setup-form")), chromedp.WaitVisible(testID("webhook-health")))
	owner := ts.newClient(t)
	owner.login(t, ownerEmail, ownerPassword)
	enableStripe(t, owner)
	w := seedPayWorld(t, ts)
	if _, err := w.d.Write.Exec(`UPDATE services SET online_payment_mode = 'MANDATORY_PARTIAL', online_payment_cents = 1000`); err != nil {
		t.Fatal(err)
	}
	paid := w.request(t, "10:00")
	customer := ts.newClient(t)
	customer.post(t, "/pay/"+paid.UUID+"/checkout", nil)
	var sessionID string
	w.d.Read.QueryRow(`SELECT session_id FROM online_checkouts WHERE payment_request_id = ?`, paid.ID).Scan(&sessionID)
	fake.Pay(sessionID)
	wantBody(t, customer.get(t, "/pay/"+paid.UUID+"?checkout=done"), `data-testid="checkout-paid"`)
	var saleID int64
	w.d.Read.QueryRow(`SELECT sale_id FROM online_checkouts WHERE payment_request_id = ?`, paid.ID).Scan(&saleID)
	pending := w.request(t, "11:00")

	for _, page := range []struct{ path, wait string }{
		{"/pay/" + pending.UUID + "?checkout=cancelled", "checkout-pay"},
		{ui.PaymentURL(paid.ID), "online-checkout"},
		{ui.SaleURL(saleID), "refund-form"},
		{"/settings/payments", "payment-settings-form"},
	} {
		b.do(strings.NewReplacer("/", "-", "?", "-", "=", "-").Replace(strings.Trim(page.path, "/")), chromedp.Navigate(ts.URL+page.path), chromedp.WaitVisible(testID(page.wait)))
		if got := evalJS[int](b, "document.documentElement.scrollWidth"); got > width {
			t.Errorf("%s: page is %d px wide on a %d px screen", page.path, got, width)
		}
	}

	// The pay button leaves for Stripe's page: the page's policy lets the form's redirect go
	// there — the browser asks for Stripe's page (a policy that refused it would stop the
	// redirect before any request). This machine has no network, so that request then fails.
	if _, err := chromedp.Call(b.ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	toStripe := make(chan string, 1)
	go func() {
		for ev, err := range chromedp.Events(b.ctx, network.RequestWillBeSent) {
			if err != nil {
				return
			}
			if strings.HasPrefix(ev.Request.URL, "https://checkout.stripe.com/") {
				toStripe <- ev.Request.URL
				return
			}
		}
	}()
	b.do("pay", chromedp.Navigate(ts.URL+"/pay/"+pending.UUID), chromedp.WaitVisible(testID("checkout-pay")))
	if err := chromedp.Do(b.ctx, chromedp.Click(testID("checkout-pay"))); err != nil {
		t.Fatal(err)
	}
	select {
	case <-toStripe:
	case <-time.After(10 * time.Second):
		t.Fatal("clicking Pay did not lead the browser to Stripe's page")
	}
	var opened int
	w.d.Read.QueryRow(`SELECT count(*) FROM online_checkouts WHERE payment_request_id = ? AND status = 'open'`, pending.ID).Scan(&opened)
	if opened != 1 {
		t.Errorf("got %d open checkouts for the request after the click, want 1", opened)
	}
}
