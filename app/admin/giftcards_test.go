package admin_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"frontdesk/ui"
)

// At the desk: a card sold through the form is issued at once; a request is then paid with it —
// the card's balance first, the rest in cash — one sale with both transactions, and the card's
// page shows the ledger. A card that does not cover everything with no method for the rest is
// the form again with what is wrong, and nothing paid.
func TestGiftCardAtTheDesk(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedPayWorld(t, ts)
	res := c.post(t, "/payments/giftcards", url.Values{"amount": {"5"}, "buyer_name": {"Pedro"}, "send_to": {"none"}, "method": {"1"}})
	if res.Status != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/payments/giftcards/") {
		t.Fatalf("selling: %d %.1000s", res.Status, res.Body)
	}
	cardPage := res.Header.Get("Location")
	var code string
	var balance int64
	if err := w.d.Read.QueryRow(`SELECT code, balance_cents FROM gift_cards WHERE status = 'active'`).Scan(&code, &balance); err != nil || balance != 500 {
		t.Fatalf("issued card: %q %d %v, want an active card of 500", code, balance, err)
	}
	pr := w.request(t, "11:00")
	if pr.AmountCents <= 500 {
		t.Fatalf("request of %d: the test needs more than the card's 500", pr.AmountCents)
	}
	res = c.post(t, ui.PaymentURL(pr.ID)+"/giftcard", url.Values{"code": {strings.ToLower(code)}, "rest_method": {""}})
	if res.Status != http.StatusUnprocessableEntity || !strings.Contains(res.Body, `data-testid="error-rest_method"`) {
		t.Fatalf("paying more than the card without a method for the rest: %d, want 422 with the rest_method error", res.Status)
	}
	wantRedirect(t, c.post(t, ui.PaymentURL(pr.ID)+"/giftcard", url.Values{"code": {code}, "rest_method": {"1"}}), ui.PaymentURL(pr.ID))
	var gift, cash int64
	if err := w.d.Read.QueryRow(`SELECT
		(SELECT amount_cents FROM transactions t JOIN sales s ON s.id = t.sale_id WHERE s.cart_id = ? AND t.payment_method_id = 5),
		(SELECT amount_cents FROM transactions t JOIN sales s ON s.id = t.sale_id WHERE s.cart_id = ? AND t.payment_method_id = 1)`,
		pr.CartID, pr.CartID).Scan(&gift, &cash); err != nil {
		t.Fatal(err)
	}
	if gift != 500 || cash != pr.AmountCents-500 {
		t.Errorf("transactions: gift card %d, cash %d; want 500 and %d", gift, cash, pr.AmountCents-500)
	}
	page := c.get(t, cardPage)
	if n := strings.Count(page.Body, `data-testid="gift-card-movement"`); n != 2 {
		t.Errorf("the card's page lists %d movements, want 2 (issued, paid at the desk)", n)
	}
}
