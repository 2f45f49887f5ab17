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
