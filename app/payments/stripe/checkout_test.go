package stripe_test

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"frontdesk/app/payments"
	"frontdesk/db"
)

// Creating a checkout session for a payment request sends Stripe (the real stripe-mock, which
// validates the request against Stripe's OpenAPI description) the request's items with their
// amounts in the currency's smallest unit, the currency, the payment request in metadata, the
// public URL's success and cancel pages, the request's expiry and one idempotency key per
// request; a second visit reuses the session instead of making another.
func TestCheckoutSessionSent(t *testing.T) {
	for _, tc := range []struct {
		name, currency, service, price string
		wantUnit                       string
		wantName                       string
	}{
		{"zero-decimal CLP", "CLP", "haircut", "15000", "15000", "Haircut"},
		{"two-decimal USD", "USD", "haircut", "45.50", "4550", "Haircut"},
		{"three-decimal KWD", "KWD", "haircut", "12.34", "12340", "Haircut"},
		{"zero-decimal JPY rounds half up", "JPY", "haircut", "1500.50", "1501", "Haircut"},
		{"deposit of a MANDATORY_PARTIAL service", "CLP", "colour", "45000", "10000", "Colour (deposit)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, tc.currency)
			pr := w.request(tc.service, 10, tc.price)
			url, session := w.checkout(pr)
			if url == "" || url != session["url"] {
				t.Fatalf("got checkout URL %q, want the session's %v", url, session["url"])
			}
			sent := w.stripe.Requests("POST", "/v1/checkout/sessions")
			if len(sent) != 1 {
				t.Fatalf("got %d session creations, want 1", len(sent))
			}
			f := sent[0].Form
			id := strconv.FormatInt(pr.ID, 10)
			for field, want := range map[string]string{
				"mode":                                              "payment",
				"line_items[0][quantity]":                           "1",
				"line_items[0][price_data][unit_amount]":            tc.wantUnit,
				"line_items[0][price_data][currency]":               lower(tc.currency),
				"line_items[0][price_data][product_data][name]":     tc.wantName,
				"metadata[payment_request_id]":                      id,
				"metadata[payment_request_uuid]":                    pr.UUID,
				"payment_intent_data[metadata][payment_request_id]": id,
				"client_reference_id":                               pr.UUID,
				"success_url":                                       publicURL + "/pay/" + pr.UUID + "?checkout=done",
				"cancel_url":                                        publicURL + "/pay/" + pr.UUID + "?checkout=cancelled",
				"expires_at":                                        strconv.FormatInt(db.Time(pr.ExpiresAt.Int64).Unix(), 10),
				"adaptive_pricing[enabled]":                         "false",
				"locale":                                            "en",
			} {
				if got := f.Get(field); got != want {
					t.Errorf("%s: got %q, want %q", field, got, want)
				}
			}
			if f.Has("line_items[1][quantity]") {
				t.Errorf("sent a second line item: %v", f)
			}
			if got, want := sent[0].Header.Get("Idempotency-Key"), "frontdesk-"+pr.UUID+"-1"; got != want {
				t.Errorf("got Idempotency-Key %q, want %q", got, want)
			}
			if got := sent[0].Header.Get("Authorization"); got != "Bearer "+secretKey {
				t.Errorf("got Authorization %q, want the secret key", got)
			}

			again, err := w.online.StartCheckout(context.Background(), pr.UUID, "en")
			if err != nil || again != url {
				t.Fatalf("second visit: got %q, %v; want the same URL %q", again, err, url)
			}
			if n := len(w.stripe.Requests("POST", "/v1/checkout/sessions")); n != 1 {
				t.Errorf("second visit made a new session: %d creations", n)
			}
		})
	}
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// Stripe accepts expires_at 30 minutes to 24 hours after creation. A request that expires in
// that window gets exactly its expiry (above); one that expires sooner gets Stripe's minimum
// (plus a minute of margin) and frontdesk closes the session itself when the request expires;
// one that lasts longer gets Stripe's maximum (less a minute).
func TestCheckoutExpiryWindow(t *testing.T) {
	for _, tc := range []struct {
		expiryMin int
		want      time.Duration // after the click
	}{
		{15, 31 * time.Minute},
		{60, 60 * time.Minute},
		{48 * 60, 24*time.Hour - time.Minute},
	} {
		t.Run(strconv.Itoa(tc.expiryMin)+"min", func(t *testing.T) {
			w := newWorld(t, "CLP")
			w.exec(`UPDATE company SET payment_expiry_min = ?`, tc.expiryMin)
			pr := w.request("haircut", 10, "15000")
			w.checkout(pr)
			sent := w.stripe.Requests("POST", "/v1/checkout/sessions")[0].Form.Get("expires_at")
			if want := strconv.FormatInt(start.Add(tc.want).Unix(), 10); sent != want {
				t.Errorf("got expires_at %s, want %s (%v after the click)", sent, want, tc.want)
			}
		})
	}
}

// A call to Stripe that does not come back leaves the checkout written but not opened; the next
// visit repeats the very same call (same idempotency key, same parameters), so Stripe answers
// with one session, never two.
func TestCheckoutRetriedAfterStripeFailure(t *testing.T) {
	w := newWorld(t, "CLP")
	pr := w.request("haircut", 10, "15000")
	w.stripe.SetDown(true)
	_, err := w.online.StartCheckout(context.Background(), pr.UUID, "en")
	var pe *payments.ProviderError
	if !errors.As(err, &pe) || !pe.Temporary {
		t.Fatalf("with Stripe down: got %v, want a temporary provider error", err)
	}
	if got := w.count(`SELECT count(*) FROM online_checkouts WHERE status = 'creating'`); got != 1 {
		t.Fatalf("got %d checkouts being created, want 1", got)
	}
	w.stripe.SetDown(false)
	w.clock.Advance(time.Minute)
	url, _ := w.checkout(pr)
	sent := w.stripe.Requests("POST", "/v1/checkout/sessions")
	if len(sent) < 2 {
		t.Fatalf("got %d attempts, want the failed one and the retry", len(sent))
	}
	keys := map[string]bool{}
	for _, r := range sent {
		keys[r.Header.Get("Idempotency-Key")] = true
	}
	if len(keys) != 1 {
		t.Errorf("the retry used another idempotency key: %v", keys)
	}
	if sent[0].Form.Encode() != sent[len(sent)-1].Form.Encode() {
		t.Errorf("the retry sent other parameters:\n%s\n%s", sent[0].Form.Encode(), sent[len(sent)-1].Form.Encode())
	}
	if got := w.count(`SELECT count(*) FROM online_checkouts WHERE payment_request_id = ?`, pr.ID); got != 1 {
		t.Errorf("got %d checkouts, want 1", got)
	}
	if url == "" {
		t.Error("no URL after the retry")
	}
}

// With the provider setting at none, or a request that is no longer pending, there is no
// checkout.
func TestCheckoutRefused(t *testing.T) {
	w := newWorld(t, "CLP")
	ctx := context.Background()
	pr := w.request("haircut", 10, "15000")
	if _, err := payments.Cancel(ctx, w.d, w.clock.Now(), pr.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := w.online.StartCheckout(ctx, pr.UUID, "en"); !errors.Is(err, payments.ErrNotPayable) {
		t.Errorf("cancelled request: got %v, want ErrNotPayable", err)
	}
	other := w.request("haircut", 11, "15000")
	if problems, err := w.online.SaveSettings(ctx, payments.SettingsInput{Provider: payments.ProviderNone}); err != nil || len(problems) > 0 {
		t.Fatal(problems, err)
	}
	if _, err := w.online.StartCheckout(ctx, other.UUID, "en"); !errors.Is(err, payments.ErrOnlineOff) {
		t.Errorf("provider none: got %v, want ErrOnlineOff", err)
	}
	if n := len(w.stripe.Requests("POST", "/v1/checkout/sessions")); n != 0 {
		t.Errorf("Stripe was asked %d times", n)
	}
}
