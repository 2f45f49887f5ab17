package stripe_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"frontdesk/app/payments"
	"frontdesk/app/payments/stripe/stripetest"
)

func (w *world) expirer() *payments.Expirer {
	e := payments.NewExpirer(w.d, nil, w.clock.Now)
	e.Checkouts = w.online
	return e
}

// checkout.session.expired for a session that held the request's time releases the reserved
// booking the way frontdesk's own expiry does and emits payment_request.expired once, however
// often it is delivered and whether or not the expiry worker runs too.
func TestExpiredSessionReleasesOnce(t *testing.T) {
	w := newWorld(t, "CLP") // requests expire after 60 minutes: the session expires with them
	pr := w.request("haircut", 10, "15000")
	_, session := w.checkout(pr)
	w.clock.Advance(60*time.Minute - time.Second) // Stripe's clock is a second ahead of ours
	session["status"] = "expired"
	event := stripetest.Event("evt_expired", "checkout.session.expired", session)
	for i := range 3 {
		if code, body := w.deliver(event, webhookSecret); code != http.StatusOK {
			t.Fatalf("delivery %d: got %d %s", i, code, body)
		}
	}
	if got := w.status(pr.ID); got != "expired" {
		t.Fatalf("got request status %s, want expired", got)
	}
	if got := w.bookingStatus(pr.ID); got != 5 {
		t.Errorf("got booking status %d, want 5 (released)", got)
	}
	w.clock.Advance(time.Minute)
	if _, err := w.expirer().ExpireDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := w.events("payment_request.expired", pr.ID); got != 1 {
		t.Errorf("got %d payment_request.expired events, want 1", got)
	}
	var released string
	w.d.Read.QueryRow(`SELECT json_extract(CAST(body AS TEXT), '$.data.booking_ids') FROM events WHERE type = 'payment_request.expired'`).Scan(&released)
	if released == "[]" || released == "" {
		t.Errorf("the event names no released booking: %q", released)
	}
	// The time is free again.
	w.request("haircut", 10, "15000")
}

// A request that expires sooner than Stripe's 30-minute minimum has its session expired at
// Stripe by frontdesk's expiry, before the bookings are released; Stripe's own
// checkout.session.expired, half an hour later, changes nothing.
func TestExpiryClosesTheSessionFirst(t *testing.T) {
	w := newWorld(t, "CLP")
	w.exec(`UPDATE company SET payment_expiry_min = 15`)
	pr := w.request("haircut", 10, "15000")
	_, session := w.checkout(pr)
	id := session["id"].(string)
	w.clock.Advance(15 * time.Minute)
	if _, err := w.expirer().ExpireDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := len(w.stripe.Requests("POST", "/v1/checkout/sessions/"+id+"/expire")); n != 1 {
		t.Errorf("got %d expire calls to Stripe, want 1", n)
	}
	if got := w.stripe.Session(id)["status"]; got != "expired" {
		t.Errorf("got session status %v at Stripe, want expired", got)
	}
	if got := w.status(pr.ID); got != "expired" {
		t.Fatalf("got request status %s, want expired", got)
	}
	w.clock.Advance(16 * time.Minute)
	if code, body := w.deliver(stripetest.Event("", "checkout.session.expired", w.stripe.Session(id)), webhookSecret); code != http.StatusOK {
		t.Fatalf("got %d %s", code, body)
	}
	if got := w.events("payment_request.expired", pr.ID); got != 1 {
		t.Errorf("got %d payment_request.expired events, want 1", got)
	}
}

// A customer who paid in the last seconds, whose notification has not arrived, is not turned
// away: closing the session at expiry finds it paid, and the request is settled instead.
func TestPaidJustBeforeExpirySettles(t *testing.T) {
	w := newWorld(t, "CLP")
	w.exec(`UPDATE company SET payment_expiry_min = 15`)
	pr := w.request("haircut", 10, "15000")
	_, session := w.checkout(pr)
	w.stripe.Pay(session["id"].(string))
	w.clock.Advance(15 * time.Minute)
	if _, err := w.expirer().ExpireDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := w.status(pr.ID); got != "paid" {
		t.Fatalf("got request status %s, want paid", got)
	}
	if got, exp := w.events("payment_request.paid", pr.ID), w.events("payment_request.expired", pr.ID); got != 1 || exp != 0 {
		t.Errorf("got %d paid and %d expired events, want 1 and 0", got, exp)
	}
}

// When Stripe cannot be reached at expiry the request waits (its bookings held) and is asked
// about again; after the grace period it expires anyway.
func TestExpiryWaitsForStripe(t *testing.T) {
	w := newWorld(t, "CLP")
	w.exec(`UPDATE company SET payment_expiry_min = 15`)
	pr := w.request("haircut", 10, "15000")
	w.checkout(pr)
	w.stripe.SetDown(true)
	e := w.expirer()
	ctx := context.Background()
	w.clock.Advance(15 * time.Minute)
	e.ExpireDue(ctx)
	if got := w.status(pr.ID); got != "pending" {
		t.Fatalf("got status %s while Stripe is down, want pending", got)
	}
	w.clock.Advance(10 * time.Minute)
	e.ExpireDue(ctx)
	if got := w.status(pr.ID); got != "expired" {
		t.Fatalf("got status %s after the grace period, want expired", got)
	}
	if got := w.events("payment_request.expired", pr.ID); got != 1 {
		t.Errorf("got %d payment_request.expired events, want 1", got)
	}
}
