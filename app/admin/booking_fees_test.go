package admin_test

import (
	"html"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"frontdesk/app/payments/stripe/stripetest"
)

// The booking page's "Charge no-show fee" (Stripe over stripe-mock): the card on file is shown;
// a booking that is not a no-show has no button and a forged click is refused with the reason,
// charging nothing; once it is a no-show the button offers the policy's fee, and two clicks
// charge it once (one PaymentIntent, one sale) and the page says it is paid. When the bank
// asks for the client, the click sends them a payment link instead.
func TestChargeFeeFromBookingPage(t *testing.T) {
	ts, fake := onlineServer(t)
	c := ts.setupOwner(t)
	enableStripe(t, c)
	w := seedPayWorld(t, ts)
	form := policyForm(w.Service)
	form.Set("no_show_fee_kind", "amount")
	form.Set("no_show_fee_value", "10")
	wantRedirect(t, c.post(t, "/settings/cancellation", form), "/settings/cancellation")
	if _, err := w.d.Write.Exec(`INSERT INTO client_cards (client_id, provider, customer_ref, payment_method_ref, brand, last4, saved_at)
		VALUES (?, 'stripe', 'cus_admin', 'pm_admin', 'visa', '4242', 0)`, w.Maria); err != nil {
		t.Fatal(err)
	}
	book := func(clock string) string {
		t.Helper()
		res := c.post(t, "/bookings", w.booking(w.Ana, w.Maria, clock))
		if res.Status != http.StatusSeeOther {
			t.Fatalf("create booking: %d %.1000s", res.Status, res.Body)
		}
		var id int64
		if err := w.d.Read.QueryRow(`SELECT max(id) FROM bookings`).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return strconv.FormatInt(id, 10)
	}
	noShow := func(id string) {
		t.Helper()
		if _, err := w.d.Write.Exec(`UPDATE bookings SET status_id = 4 WHERE id = ?`, id); err != nil {
			t.Fatal(err)
		}
	}
	id := book("09:00")
	path := "/bookings/" + id
	page := c.get(t, path)
	wantBody(t, page, `data-testid="booking-fees"`, "Card on file: visa ending 4242")
	if strings.Contains(page.Body, `data-testid="charge-no_show"`) {
		t.Error("a confirmed booking offers a no-show fee")
	}
	wantRedirect(t, c.post(t, path+"/fee", url.Values{"kind": {"no_show"}}), path)
	wantBody(t, c.get(t, path), html.EscapeString("This booking was not a no-show or a late cancel by the client"))
	if n := len(fake.PaymentIntents()); n != 0 {
		t.Fatalf("a refused fee made %d PaymentIntents", n)
	}

	noShow(id)
	wantBody(t, c.get(t, path), `data-testid="charge-no_show"`, "Charge no-show fee ($10.00)")
	for range 2 {
		wantRedirect(t, c.post(t, path+"/fee", url.Values{"kind": {"no_show"}}), path)
	}
	if n := len(fake.PaymentIntents()); n != 1 {
		t.Errorf("two clicks made %d PaymentIntents, want 1", n)
	}
	page = c.get(t, path)
	wantBody(t, page, "No-show fee paid: $10.00")
	if strings.Contains(page.Body, `data-testid="charge-no_show"`) {
		t.Error("a paid fee is still offered")
	}
	var sales int
	w.d.Read.QueryRow(`SELECT count(*) FROM booking_fees WHERE status = 'paid' AND sale_id IS NOT NULL`).Scan(&sales)
	if sales != 1 {
		t.Errorf("got %d paid fees with a sale, want 1", sales)
	}

	fake.ChargeAs("pm_admin", stripetest.CardNeedsAuth)
	other := book("10:00")
	noShow(other)
	wantRedirect(t, c.post(t, "/bookings/"+other+"/fee", url.Values{"kind": {"no_show"}}), "/bookings/"+other)
	wantBody(t, c.get(t, "/bookings/"+other), "a payment link for $10.00 was sent")
	var link int
	w.d.Read.QueryRow(`SELECT count(*) FROM booking_fees f JOIN payment_requests pr ON pr.id = f.payment_request_id
		WHERE f.booking_id = ? AND f.status = 'link_sent' AND pr.purpose = 'fee' AND pr.status = 'pending'`, other).Scan(&link)
	if link != 1 {
		t.Errorf("got %d fee links pending, want 1", link)
	}
}

// The checkout page of a deposit that also keeps the card (a booking that needs both) says the
// card is kept and states the cancellation policy before the client pays; its Stripe session
// saves the card for off-session charges.
func TestDepositKeepingCardPage(t *testing.T) {
	ts, fake := onlineServer(t)
	c := ts.setupOwner(t)
	enableStripe(t, c)
	w := seedPayWorld(t, ts)
	form := policyForm(w.Service)
	form.Set("no_show_fee_kind", "amount")
	form.Set("no_show_fee_value", "10")
	wantRedirect(t, c.post(t, "/settings/cancellation", form), "/settings/cancellation")
	if _, err := w.d.Write.Exec(`UPDATE services SET online_payment_mode = 'MANDATORY_PARTIAL', online_payment_cents = 1000`); err != nil {
		t.Fatal(err)
	}
	pr := w.request(t, "10:00")
	customer := ts.newClient(t)
	path := "/pay/" + pr.UUID
	if strings.Contains(customer.get(t, path).Body, `data-testid="checkout-keep-card-why"`) {
		t.Error("a deposit that keeps no card says it keeps one")
	}
	if _, err := w.d.Write.Exec(`UPDATE payment_requests SET save_card = 1 WHERE id = ?`, pr.ID); err != nil {
		t.Fatal(err)
	}
	wantBody(t, customer.get(t, path), `data-testid="checkout-keep-card-why"`, `data-testid="checkout-policy"`,
		"Not coming without cancelling costs $10.00.")
	res := customer.post(t, path+"/checkout", nil)
	if res.Status != http.StatusSeeOther {
		t.Fatalf("pay: got %d", res.Status)
	}
	created := fake.Requests("POST", "/v1/checkout/sessions")
	if len(created) != 1 || created[0].Form.Get("payment_intent_data[setup_future_usage]") != "off_session" {
		t.Errorf("sessions %v; want one that keeps the card off session", created)
	}
}
