package stripe_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"frontdesk/app/payments"
	"frontdesk/app/payments/stripe/stripetest"
)

// Reconciliation settles a request whose Stripe webhook never arrived: it asks Stripe about the
// open session, finds it paid, and settles exactly as the notification would have — once.
// (Stripe's session is served by stripetest.Fake: stripe-mock answers reads with fixed fixtures,
// so the Fake keeps the session it created and answers the read as Stripe would once paid.)
func TestReconcileSettlesMissedWebhook(t *testing.T) {
	w := newWorld(t, "CLP")
	ctx := context.Background()
	pr := w.request("haircut", 10, "15000")
	_, session := w.checkout(pr)
	id := session["id"].(string)
	waiting := w.request("haircut", 12, "15000")
	w.checkout(waiting)
	w.stripe.Pay(id) // the customer paid; the notification is lost

	res, err := w.online.Reconcile(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Checked != 2 || res.Settled != 1 || res.Errors != 0 {
		t.Errorf("got %+v, want 2 checked, 1 settled, no errors", res)
	}
	if n := len(w.stripe.Requests("GET", "/v1/checkout/sessions/"+id)); n != 1 {
		t.Errorf("got %d reads of the session, want 1", n)
	}
	if got := w.status(pr.ID); got != "paid" {
		t.Fatalf("got status %s, want paid", got)
	}
	if got := w.status(waiting.ID); got != "pending" {
		t.Errorf("the unpaid request became %s, want pending", got)
	}
	if got := w.bookingStatus(pr.ID); got != 1 {
		t.Errorf("got booking status %d, want 1", got)
	}
	if again, err := w.online.Reconcile(ctx); err != nil || again.Settled != 0 || again.Checked != 1 {
		t.Errorf("second reconciliation: got %+v, %v; want only the unpaid request checked", again, err)
	}
	// The notification arrives after all: nothing more happens.
	if code, _ := w.deliver(stripetest.Event("", "checkout.session.completed", w.stripe.Session(id)), webhookSecret); code != http.StatusOK {
		t.Fatalf("late notification: got %d", code)
	}
	if got := w.events("payment_request.paid", pr.ID); got != 1 {
		t.Errorf("got %d payment_request.paid events, want 1", got)
	}
	if got := w.count(`SELECT count(*) FROM sales`); got != 1 {
		t.Errorf("got %d sales, want 1", got)
	}
	s, err := w.online.Settings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if at, last := payments.LastReconcile(s); !at.Equal(start) || last.Checked != 1 {
		t.Errorf("got last reconciliation %v %+v, want now with 1 checked", at, last)
	}
}

// The daily job: the worker reconciles at start when it never has, and not again before a day
// has passed since the last reconciliation.
func TestReconcilerRunsDaily(t *testing.T) {
	w := newWorld(t, "CLP")
	pr := w.request("haircut", 10, "15000")
	_, session := w.checkout(pr)
	id := session["id"].(string)
	w.stripe.Pay(id)
	r := payments.NewReconciler(w.online, nil)
	r.SweepEvery = 10 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	deadline := time.Now().Add(10 * time.Second)
	for w.status(pr.ID) != "paid" {
		if time.Now().After(deadline) {
			t.Fatal("the worker did not settle the paid request")
		}
		time.Sleep(10 * time.Millisecond)
	}
	other := w.request("haircut", 12, "15000")
	_, s2 := w.checkout(other)
	w.stripe.Pay(s2["id"].(string))
	r.Wake()
	time.Sleep(100 * time.Millisecond) // several sweeps: none may reconcile within the day
	if got := w.status(other.ID); got != "pending" {
		t.Errorf("reconciled again within the day: status %s", got)
	}
	w.clock.Advance(24 * time.Hour)
	r.Wake()
	deadline = time.Now().Add(10 * time.Second)
	for w.status(other.ID) != "paid" {
		if time.Now().After(deadline) {
			t.Fatal("the worker did not reconcile a day later")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v, want context.Canceled", err)
	}
}

// A request closed at the desk while its Stripe session is open has the session expired at
// Stripe by the sweep; a payment made there meanwhile is not settled but flagged to the owner.
func TestSweepClosesSessionsOfClosedRequests(t *testing.T) {
	w := newWorld(t, "CLP")
	ctx := context.Background()
	cancelled := w.request("haircut", 10, "15000")
	_, open := w.checkout(cancelled)
	paidMeanwhile := w.request("haircut", 12, "15000")
	_, paidSession := w.checkout(paidMeanwhile)
	w.stripe.Pay(paidSession["id"].(string))
	for _, id := range []int64{cancelled.ID, paidMeanwhile.ID} {
		if _, err := payments.Cancel(ctx, w.d, w.clock.Now(), id); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.online.SweepStranded(ctx); err != nil {
		t.Fatal(err)
	}
	if got := w.stripe.Session(open["id"].(string))["status"]; got != "expired" {
		t.Errorf("got session status %v at Stripe, want expired", got)
	}
	var kind string
	if err := w.d.Read.QueryRow(`SELECT kind FROM payment_flags WHERE payment_request_id = ?`, paidMeanwhile.ID).Scan(&kind); err != nil || kind != "paid_after_close" {
		t.Errorf("got flag %q (%v), want paid_after_close", kind, err)
	}
	if got := w.count(`SELECT count(*) FROM sales`); got != 0 {
		t.Errorf("got %d sales, want none", got)
	}
	if got := w.count(`SELECT count(*) FROM online_checkouts WHERE status IN ('creating', 'open')`); got != 0 {
		t.Errorf("got %d checkouts still open", got)
	}
}

// Refunds go through Stripe and are recorded on the sale: partial, then the rest (the sale is
// then refunded); more than what is left is refused before Stripe is asked. A refund Stripe
// later reports failed gives the money back to the sale; one made in Stripe's dashboard is
// recorded too.
func TestRefunds(t *testing.T) {
	w := newWorld(t, "CLP")
	ctx := context.Background()
	pr := w.request("haircut", 10, "15000")
	_, session := w.checkout(pr)
	if code, _ := w.deliver(stripetest.Event("", "checkout.session.completed", paid(session)), webhookSecret); code != http.StatusOK {
		t.Fatal(code)
	}
	var checkoutID, saleID int64
	var intent string
	w.d.Read.QueryRow(`SELECT id, sale_id, payment_ref FROM online_checkouts WHERE payment_request_id = ?`, pr.ID).Scan(&checkoutID, &saleID, &intent)
	if intent == "" || intent != session["payment_intent"] {
		t.Fatalf("got payment ref %q, want the session's payment intent %v", intent, session["payment_intent"])
	}
	saleStatus := func() string {
		var s string
		w.d.Read.QueryRow(`SELECT status FROM sales WHERE id = ?`, saleID).Scan(&s)
		return s
	}

	first, err := w.online.Refund(ctx, checkoutID, 500000)
	if err != nil {
		t.Fatal(err)
	}
	sent := w.stripe.Requests("POST", "/v1/refunds")
	if len(sent) != 1 || sent[0].Form.Get("amount") != "5000" || sent[0].Form.Get("payment_intent") != intent {
		t.Fatalf("got refund requests %+v, want one of 5000 for %s", sent, intent)
	}
	if key := sent[0].Header.Get("Idempotency-Key"); key == "" {
		t.Error("the refund was sent without an idempotency key")
	}
	if got := saleStatus(); got != "paid" {
		t.Errorf("after a partial refund: sale %s, want paid", got)
	}
	if _, err := w.online.Refund(ctx, checkoutID, 1000001); !errors.Is(err, payments.ErrRefundTooLarge) {
		t.Errorf("refunding more than is left: got %v, want ErrRefundTooLarge", err)
	}
	if n := len(w.stripe.Requests("POST", "/v1/refunds")); n != 1 {
		t.Errorf("Stripe was asked for a refund too large (%d calls)", n)
	}
	if _, err := w.online.Refund(ctx, checkoutID, 1000000); err != nil {
		t.Fatal(err)
	}
	if got := saleStatus(); got != "refunded" {
		t.Errorf("after refunding everything: sale %s, want refunded", got)
	}
	if _, err := w.online.Refund(ctx, checkoutID, 100); !errors.Is(err, payments.ErrNotRefundable) {
		t.Errorf("refunding a refunded payment: got %v, want ErrNotRefundable", err)
	}

	// Stripe reports the first refund failed: half the money is back on the sale.
	failed := stripetest.Event("", "refund.updated", map[string]any{"id": first.ID, "object": "refund", "amount": 5000,
		"currency": "clp", "payment_intent": intent, "status": "failed"})
	if code, body := w.deliver(failed, webhookSecret); code != http.StatusOK {
		t.Fatalf("got %d %s", code, body)
	}
	if got := saleStatus(); got != "paid" {
		t.Errorf("after a refund failed: sale %s, want paid", got)
	}
	// The owner refunds the rest in Stripe's dashboard.
	dashboard := stripetest.Event("", "refund.created", map[string]any{"id": "re_dashboard", "object": "refund", "amount": 5000,
		"currency": "clp", "payment_intent": intent, "status": "succeeded"})
	if code, body := w.deliver(dashboard, webhookSecret); code != http.StatusOK {
		t.Fatalf("got %d %s", code, body)
	}
	if got := w.count(`SELECT count(*) FROM refunds WHERE sale_id = ? AND origin = 'provider'`, saleID); got != 1 {
		t.Errorf("got %d dashboard refunds recorded, want 1", got)
	}
	if got := saleStatus(); got != "refunded" {
		t.Errorf("sale %s, want refunded", got)
	}
}
