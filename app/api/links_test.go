package api

import (
	"net/http"
	"testing"
)

// A checkout URL is built from the configured public URL only: a forged Host or forwarding
// header changes nothing in it (docs/deploy.md "Public URL").
func TestCheckoutURLIgnoresRequestHost(t *testing.T) {
	f := newFixture(t)
	f.enablePayments(t)
	forgeries := [][]string{
		nil,
		{"Host", "evil.example"},
		{"Host", "evil.example:8443", "X-Forwarded-Proto", "http", "X-Forwarded-Host", "evil.example"},
		{"X-Forwarded-Host", "evil.example", "Forwarded", "host=evil.example;proto=http"},
	}
	for i, headers := range forgeries {
		cart := f.createCart(t, map[string]any{"client_id": 1, "location_id": 1,
			"items": []any{map[string]any{"item_id": 1, "item_type": "service", "unit_price": "1", "quantity": 1 + i}}})
		resp, raw := f.call("POST", "/v3/carts/"+itoa(cart.ID)+"/payment_requests", nil, headers...)
		wantStatus(t, resp, raw, http.StatusCreated)
		pr := decodeAs[paymentRequestResp](t, raw)
		if want := "https://book.example.test/pay/" + pr.UUID; pr.Params.CheckoutURL != want {
			t.Errorf("headers %q: got checkout_url %q, want %q", headers, pr.Params.CheckoutURL, want)
		}
	}
}
