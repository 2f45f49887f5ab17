package stripe_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/clients"
	"frontdesk/app/payments"
	"frontdesk/app/payments/stripe/stripetest"
	"frontdesk/app/reserve"
	"frontdesk/db"
)

// book makes the customer booking the booking site makes (app/reserve) for a client typed as
// first/email, of service tomorrow at hour (Santiago).
func (w *world) book(service string, hour int, first, email, nonce string) reserve.Result {
	w.t.Helper()
	santiago, _ := time.LoadLocation("America/Santiago")
	tomorrow := start.In(santiago).AddDate(0, 0, 1)
	at := time.Date(tomorrow.Year(), tomorrow.Month(), tomorrow.Day(), hour, 0, 0, 0, santiago)
	res, err := reserve.Book(context.Background(), w.d, w.clock.Now(), reserve.Request{
		LocationID: w.ids["location"], ServiceID: w.ids[service], ProviderID: w.ids["ana"], Start: at,
		Client: clients.Input{FirstName: clients.Field[string]{Set: true, V: first}, Email: clients.Field[string]{Set: true, V: email}},
		Nonce:  nonce, PaymentMode: "NOT_AVAILABLE", CheckoutBase: publicURL,
	})
	if err != nil {
		w.t.Fatal(err)
	}
	return res
}

// Deposits by rule on the booking site: a new client's first booking of a service not paid
// online is asked the rule's deposit (20 % of the haircut) through Stripe Checkout, and the paid
// deposit makes a partially paid sale; their next booking is not asked — until their override
// says always; a new client whose override says never is not asked.
func TestDepositRuleOnTheBookingSite(t *testing.T) {
	w := newWorld(t, "CLP")
	ctx := context.Background()
	w.exec(`UPDATE services SET online_payment_mode = 'NOT_AVAILABLE' WHERE id = ?`, w.ids["haircut"])
	pol := payments.DefaultPolicy
	pol.Deposit = payments.DepositRules{NewClients: true, AboveCents: -1, Amount: payments.Charge{Kind: payments.AmountPercent, Value: 2000}}
	if err := w.d.InTx(ctx, func(q *db.Queries) error { return payments.SavePolicy(ctx, q, w.clock.Now(), pol) }); err != nil {
		t.Fatal(err)
	}
	first := w.book("haircut", 10, "María", "maria@example.com", "nonce-maria-1-000000000000")
	if first.Checkout == "" {
		t.Fatal("a new client was asked no deposit")
	}
	pv, err := payments.LoadCheckout(ctx, w.d.R, first.Checkout)
	if err != nil {
		t.Fatal(err)
	}
	if pv.Request.AmountCents != 1500000 || pv.Request.DepositCents.Int64 != 300000 {
		t.Fatalf("got request for %d with deposit %v; want 1500000 with 300000", pv.Request.AmountCents, pv.Request.DepositCents)
	}
	if got := w.count(`SELECT status_id FROM bookings WHERE id = ?`, first.BookingID); got != booking.StatusReserved {
		t.Errorf("got booking status %d, want reserved until the deposit is paid", got)
	}
	_, session := w.checkout(pv.Request)
	if session["amount_total"].(float64) != 3000 {
		t.Errorf("the checkout asks %v, want the deposit 3000", session["amount_total"])
	}
	if code, body := w.deliver(stripetest.Event("", "checkout.session.completed", paid(session)), webhookSecret); code != http.StatusOK {
		t.Fatalf("delivery: %d %s", code, body)
	}
	var status string
	var paidCents, pending int64
	w.d.Read.QueryRow(`SELECT status, paid_cents, pending_cents FROM sales WHERE cart_id = ?`, pv.Request.CartID).Scan(&status, &paidCents, &pending)
	if status != "partially_paid" || paidCents != 300000 || pending != 1200000 {
		t.Errorf("got sale %s paid %d pending %d; want partially_paid 300000 1200000", status, paidCents, pending)
	}
	if res := w.book("haircut", 11, "María", "maria@example.com", "nonce-maria-2-000000000000"); res.Checkout != "" {
		t.Errorf("a returning client was asked a deposit")
	}
	w.exec(`INSERT INTO client_deposit_overrides (client_id, mode, updated_at) VALUES (?, 'always', 0)`, w.ids["maria"])
	if res := w.book("haircut", 12, "María", "maria@example.com", "nonce-maria-3-000000000000"); res.Checkout == "" {
		t.Errorf("an override 'always' asked no deposit")
	}
	eva, err := clients.FindOrCreate(ctx, w.d, w.clock.Now(), clients.Input{
		FirstName: clients.Field[string]{Set: true, V: "Eva"}, Email: clients.Field[string]{Set: true, V: "eva@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	w.exec(`INSERT INTO client_deposit_overrides (client_id, mode, updated_at) VALUES (?, 'never', 0)`, eva)
	if res := w.book("haircut", 13, "Eva", "eva@example.com", "nonce-eva-00000000000000000"); res.Checkout != "" {
		t.Errorf("an override 'never' asked a new client a deposit")
	}
}

// A booking on the site that needs both a deposit (a new client) and a card on file (the
// service requires one) is held behind one request and one Stripe Checkout in payment mode
// that takes the deposit and keeps the card for later (setup_future_usage=off_session, a
// Customer made): when it is paid — reported twice — the deposit settles the request, the
// booking is confirmed, and the card paid with is on the client and the booking, once. A
// no-show fee is then charged off session to that card.
func TestDepositAndCardInOneCheckout(t *testing.T) {
	w := newWorld(t, "CLP")
	ctx := context.Background()
	w.exec(`UPDATE services SET online_payment_mode = 'NOT_AVAILABLE' WHERE id = ?`, w.ids["haircut"])
	w.exec(`INSERT INTO card_services (service_id) VALUES (?)`, w.ids["haircut"])
	pol := payments.DefaultPolicy
	pol.NoShow = payments.Charge{Kind: payments.AmountFixed, Value: 500000}
	pol.Deposit = payments.DepositRules{NewClients: true, AboveCents: -1, Amount: payments.Charge{Kind: payments.AmountPercent, Value: 2000}}
	if err := w.d.InTx(ctx, func(q *db.Queries) error { return payments.SavePolicy(ctx, q, w.clock.Now(), pol) }); err != nil {
		t.Fatal(err)
	}
	res := w.book("haircut", 10, "María", "maria@example.com", "nonce-maria-card-0000000000")
	if res.Checkout == "" {
		t.Fatal("the booking was asked neither a deposit nor a card")
	}
	pv, err := payments.LoadCheckout(ctx, w.d.R, res.Checkout)
	if err != nil {
		t.Fatal(err)
	}
	if pv.Request.Purpose != payments.PurposePayment || pv.Request.DepositCents.Int64 != 300000 || !pv.Request.SaveCard {
		t.Fatalf("got request purpose %s deposit %v save_card %v; want a deposit of 300000 that saves the card",
			pv.Request.Purpose, pv.Request.DepositCents, pv.Request.SaveCard)
	}
	if n := w.count(`SELECT count(*) FROM payment_requests`); n != 1 {
		t.Errorf("got %d payment requests, want one for both", n)
	}
	if got := w.count(`SELECT status_id FROM bookings WHERE id = ?`, res.BookingID); got != booking.StatusReserved {
		t.Errorf("got booking status %d, want reserved until paid", got)
	}
	_, session := w.checkout(pv.Request)
	creates := w.stripe.Requests(http.MethodPost, "/v1/checkout/sessions")
	if len(creates) != 1 {
		t.Fatalf("got %d sessions, want 1", len(creates))
	}
	if f := creates[0].Form; f.Get("mode") != "payment" || f.Get("payment_intent_data[setup_future_usage]") != "off_session" ||
		f.Get("customer_creation") != "always" || f.Get("line_items[0][price_data][unit_amount]") != "3000" {
		t.Errorf("session asked %v; want the deposit 3000 in payment mode, saving the card off session for a new Customer", f)
	}
	pm := w.stripe.PayWithCard(session["id"].(string), "mastercard", "4444")
	completed := stripetest.Event("evt_deposit_card", "checkout.session.completed", w.stripe.Session(session["id"].(string)))
	again := stripetest.Event("evt_deposit_card_again", "checkout.session.completed", w.stripe.Session(session["id"].(string)))
	for _, ev := range [][]byte{completed, again} {
		if code, body := w.deliver(ev, webhookSecret); code != http.StatusOK {
			t.Fatalf("delivery: %d %s", code, body)
		}
	}
	if got := w.status(pv.Request.ID); got != "paid" {
		t.Errorf("got request %s, want paid", got)
	}
	if got := w.count(`SELECT status_id FROM bookings WHERE id = ?`, res.BookingID); got != booking.StatusConfirmed {
		t.Errorf("got booking status %d, want confirmed", got)
	}
	var brand, last4, method string
	if err := w.d.Read.QueryRow(`SELECT brand, last4, payment_method_ref FROM client_cards WHERE client_id = (SELECT client_id FROM bookings WHERE id = ?)`,
		res.BookingID).Scan(&brand, &last4, &method); err != nil || brand != "mastercard" || last4 != "4444" || method != pm {
		t.Errorf("client's card: %q %q %q %v; want mastercard 4444 %s", brand, last4, method, err, pm)
	}
	if err := w.d.Read.QueryRow(`SELECT brand, last4 FROM booking_cards WHERE booking_id = ?`, res.BookingID).Scan(&brand, &last4); err != nil || last4 != "4444" {
		t.Errorf("booking's card: %q %q %v; want mastercard 4444", brand, last4, err)
	}
	if got := w.count(`SELECT count(*) FROM activity WHERE action = 'client.card_saved'`); got != 1 {
		t.Errorf("got %d card_saved entries, want 1", got)
	}
	if got := w.count(`SELECT count(*) FROM sales WHERE status = 'partially_paid' AND paid_cents = 300000`); got != 1 {
		t.Errorf("got %d partially paid deposit sales, want 1", got)
	}

	w.exec(`UPDATE bookings SET status_id = ? WHERE id = ?`, booking.StatusNoShow, res.BookingID)
	fee, err := w.online.ChargeFee(ctx, res.BookingID, payments.FeeNoShow)
	if err != nil || fee.Outcome != payments.FeeCharged {
		t.Fatalf("no-show fee: %+v %v; want charged to the card the deposit saved", fee, err)
	}
	charge := w.stripe.Requests(http.MethodPost, "/v1/payment_intents")
	if len(charge) != 1 || charge[0].Form.Get("payment_method") != pm || charge[0].Form.Get("amount") != "5000" {
		t.Errorf("fee charge %v; want 5000 to %s", charge, pm)
	}
}
