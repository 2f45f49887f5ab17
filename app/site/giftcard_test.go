package site_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The site sells gift cards only when the owner switched it on: the form, then a pending card
// and its payment request, and the buyer sent to the checkout page. Bad input is the form again
// with what is wrong, and nothing written.
func TestSiteSellsGiftCards(t *testing.T) {
	f := newFixture(t)
	wantStatus(t, f.get("/book/gift-card"), http.StatusNotFound)
	f.exec(`UPDATE gift_card_settings SET sell_online = 1`)
	wantBody(t, f.get("/book/gift-card"), `data-testid="site-gift-card-form"`)

	bad := url.Values{"amount": {"zero"}, "buyer_name": {"Pedro"}, "buyer_email": {"pedro@example.com"}, "send_to": {"buyer"}}
	wantStatus(t, f.post("/book/gift-card", bad), http.StatusUnprocessableEntity)
	if n := f.count(`SELECT count(*) FROM gift_cards`); n != 0 {
		t.Fatalf("%d cards after a refused form, want none", n)
	}
	good := url.Values{"amount": {"25000"}, "buyer_name": {"Pedro"}, "buyer_email": {"pedro@example.com"},
		"recipient_name": {"Ana"}, "recipient_email": {"ana@example.com"}, "send_to": {"recipient"}, "message": {"¡Feliz cumpleaños!"}}
	res := f.post("/book/gift-card", good)
	wantStatus(t, res, http.StatusSeeOther)
	if !strings.HasPrefix(res.location(), "/pay/") {
		t.Fatalf("redirect to %q, want the checkout page", res.location())
	}
	if n := f.count(`SELECT count(*) FROM gift_cards g JOIN payment_requests pr ON pr.cart_id = g.cart_id
		WHERE g.status = 'pending' AND g.source = 'site' AND g.value_cents = 2500000 AND g.balance_cents = 0
		AND pr.amount_cents = 2500000 AND pr.status = 'pending' AND '/pay/' || pr.uuid = ?`, res.location()); n != 1 {
		t.Errorf("%d pending site cards with their request, want 1", n)
	}
}
