package stripe_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"frontdesk/app/payments"
	"frontdesk/app/payments/stripe"
	"frontdesk/app/payments/stripe/stripetest"
)

// paid is session as Stripe sends it once the customer paid by card.
func paid(session map[string]any) map[string]any {
	session["status"], session["payment_status"] = "complete", "paid"
	return session
}

// A card payment's checkout.session.completed settles the request exactly as the desk does —
// one sale paid online for the amount, the reserved booking confirmed and linked to it, one
// payment_request.paid — however many times Stripe delivers it, even all at once.
func TestCompletedSettlesOnce(t *testing.T) {
	w := newWorld(t, "CLP")
	pr := w.request("haircut", 10, "15000")
	_, session := w.checkout(pr)
	event := stripetest.Event("evt_completed_1", "checkout.session.completed", paid(session))

	var wg sync.WaitGroup
	codes := make([]int, 3)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i], _ = w.deliver(event, webhookSecret)
		}()
	}
	wg.Wait()
	for i, c := range codes {
		if c != http.StatusOK {
			t.Errorf("delivery %d: got %d, want 200", i, c)
		}
	}
	if got := w.status(pr.ID); got != "paid" {
		t.Fatalf("got request status %s, want paid", got)
	}
	if got := w.count(`SELECT count(*) FROM sales WHERE cart_id = ?`, pr.CartID); got != 1 {
		t.Errorf("got %d sales, want 1", got)
	}
	var status string
	var paidCents, pending, method, txAmount int64
	if err := w.d.Read.QueryRow(`SELECT s.status, s.paid_cents, s.pending_cents, t.payment_method_id, t.amount_cents
		FROM sales s JOIN transactions t ON t.sale_id = s.id WHERE s.cart_id = ?`, pr.CartID).Scan(&status, &paidCents, &pending, &method, &txAmount); err != nil {
		t.Fatal(err)
	}
	if status != "paid" || paidCents != 1500000 || pending != 0 || method != 4 || txAmount != 1500000 {
		t.Errorf("got sale %s paid %d pending %d, transaction by method %d of %d; want paid 1500000 pending 0 online (4) 1500000",
			status, paidCents, pending, method, txAmount)
	}
	if got := w.bookingStatus(pr.ID); got != 1 {
		t.Errorf("got booking status %d, want 1 (confirmed)", got)
	}
	if got := w.count(`SELECT count(*) FROM bookings WHERE payment_request_id = ? AND sale_id IS NOT NULL`, pr.ID); got != 1 {
		t.Errorf("the booking is not linked to the sale")
	}
	if got := w.events("payment_request.paid", pr.ID); got != 1 {
		t.Errorf("got %d payment_request.paid events, want 1", got)
	}
	if got := w.count(`SELECT count(*) FROM online_payment_events WHERE event_id = 'evt_completed_1'`); got != 1 {
		t.Errorf("got %d records of the event, want 1", got)
	}
}

// Slow payment methods complete the session unpaid and report the payment later; Stripe may
// deliver those events in any order, and again. The request is settled once, by whichever
// event says it is paid, and a later "complete but unpaid" does not undo it.
func TestOutOfOrderEventsSettleOnce(t *testing.T) {
	w := newWorld(t, "CLP")
	pr := w.request("colour", 10, "45000")
	_, session := w.checkout(pr)
	unpaid := stripetest.Event("evt_unpaid", "checkout.session.completed", func() map[string]any {
		s := w.stripe.Session(session["id"].(string))
		s["status"], s["payment_status"] = "complete", "unpaid"
		return s
	}())
	succeeded := stripetest.Event("evt_succeeded", "checkout.session.async_payment_succeeded", paid(w.stripe.Session(session["id"].(string))))
	for i, ev := range [][]byte{succeeded, unpaid, succeeded, unpaid, succeeded} {
		if code, body := w.deliver(ev, webhookSecret); code != http.StatusOK {
			t.Fatalf("delivery %d: got %d %s", i, code, body)
		}
	}
	if got := w.status(pr.ID); got != "paid" {
		t.Fatalf("got request status %s, want paid", got)
	}
	if got := w.events("payment_request.paid", pr.ID); got != 1 {
		t.Errorf("got %d payment_request.paid events, want 1", got)
	}
	if got := w.count(`SELECT count(*) FROM sales WHERE cart_id = ?`, pr.CartID); got != 1 {
		t.Errorf("got %d sales, want 1", got)
	}
	var checkout string
	w.d.Read.QueryRow(`SELECT status FROM online_checkouts WHERE payment_request_id = ?`, pr.ID).Scan(&checkout)
	if checkout != "paid" {
		t.Errorf("got checkout status %s, want paid (a later unpaid report must not undo it)", checkout)
	}
	// A deposit: the sale is partially paid, the rest pending at the desk.
	var status string
	var paidCents, pending int64
	w.d.Read.QueryRow(`SELECT status, paid_cents, pending_cents FROM sales WHERE cart_id = ?`, pr.CartID).Scan(&status, &paidCents, &pending)
	if status != "partially_paid" || paidCents != 1000000 || pending != 3500000 {
		t.Errorf("got sale %s paid %d pending %d; want partially_paid 1000000 3500000", status, paidCents, pending)
	}
}

// A notification whose signature does not verify — another secret, none, a body changed after
// signing, a malformed header — is answered 400 and changes nothing.
func TestBadSignatureChangesNothing(t *testing.T) {
	w := newWorld(t, "CLP")
	pr := w.request("haircut", 10, "15000")
	_, session := w.checkout(pr)
	event := stripetest.Event("evt_forged", "checkout.session.completed", paid(session))
	snapshot := func() string {
		var s string
		w.d.Read.QueryRow(`SELECT (SELECT group_concat(status) FROM payment_requests) || '|' || (SELECT count(*) FROM sales) || '|' ||
			(SELECT count(*) FROM events) || '|' || (SELECT count(*) FROM online_payment_events) || '|' ||
			(SELECT group_concat(status) FROM online_checkouts) || '|' || (SELECT group_concat(status_id) FROM bookings)`).Scan(&s)
		return s
	}
	before := snapshot()
	post := func(body []byte, signature string) int {
		req, _ := http.NewRequest(http.MethodPost, w.hook.URL+"/stripe/webhook", strings.NewReader(string(body)))
		if signature != "" {
			req.Header.Set("Stripe-Signature", signature)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	tampered := []byte(strings.Replace(string(event), `"amount_total":15000`, `"amount_total":1`, 1))
	if string(tampered) == string(event) {
		t.Fatal("the tampering found nothing to change")
	}
	for name, code := range map[string]int{
		"another secret":     post(event, stripetest.Sign("whsec_someoneElsesSecret000000", event)),
		"no signature":       post(event, ""),
		"changed after sign": post(tampered, stripetest.Sign(webhookSecret, event)),
		"malformed header":   post(event, "t=abc,v1=zz"),
	} {
		if code != http.StatusBadRequest {
			t.Errorf("%s: got %d, want 400", name, code)
		}
	}
	if after := snapshot(); after != before {
		t.Errorf("a refused notification changed the database:\nbefore %s\nafter  %s", before, after)
	}
	if code, _ := w.deliver(event, webhookSecret); code != http.StatusOK || w.status(pr.ID) != "paid" {
		t.Errorf("the same event, properly signed: got %d and status %s, want 200 and paid", code, w.status(pr.ID))
	}
}

// A payment of another amount or currency than the checkout asked for is not settled: the
// request stays pending with its booking reserved, and the owner is flagged once.
func TestAmountMismatchNotSettled(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(s map[string]any)
	}{
		{"amount", func(s map[string]any) { s["amount_total"] = 14999 }},
		{"currency", func(s map[string]any) { s["currency"] = "usd" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, "CLP")
			pr := w.request("haircut", 10, "15000")
			_, session := w.checkout(pr)
			s := paid(session)
			tc.change(s)
			event := stripetest.Event("", "checkout.session.completed", s)
			for range 2 {
				if code, body := w.deliver(event, webhookSecret); code != http.StatusOK || !strings.Contains(body, `"flagged"`) && !strings.Contains(body, "duplicate") {
					t.Fatalf("got %d %s, want 200 flagged", code, body)
				}
			}
			if got := w.status(pr.ID); got != "pending" {
				t.Errorf("got request status %s, want pending", got)
			}
			if got := w.count(`SELECT count(*) FROM sales`); got != 0 {
				t.Errorf("got %d sales, want none", got)
			}
			if got := w.events("payment_request.paid", pr.ID); got != 0 {
				t.Errorf("got %d payment_request.paid events, want none", got)
			}
			if got := w.bookingStatus(pr.ID); got != 2 {
				t.Errorf("got booking status %d, want 2 (still reserved)", got)
			}
			var kind, currency string
			var expected, received int64
			if err := w.d.Read.QueryRow(`SELECT kind, expected_cents, received_cents, received_currency FROM payment_flags WHERE payment_request_id = ? AND resolved_at IS NULL`,
				pr.ID).Scan(&kind, &expected, &received, &currency); err != nil {
				t.Fatalf("no open flag for the owner: %v", err)
			}
			if kind != "amount_mismatch" || expected != 1500000 {
				t.Errorf("got flag %s expecting %d, want amount_mismatch expecting 1500000", kind, expected)
			}
			if got := w.count(`SELECT count(*) FROM payment_flags`); got != 1 {
				t.Errorf("got %d flags, want 1", got)
			}
		})
	}
}

// The notification endpoint's other answers: an event about something frontdesk did not make is
// acknowledged and ignored; an oversized body is 413; without Stripe's secrets it is 503 (Stripe
// retries) — and none of them changes anything.
func TestWebhookOtherAnswers(t *testing.T) {
	w := newWorld(t, "CLP")
	foreign := stripetest.Event("", "checkout.session.completed", map[string]any{"id": "cs_not_ours", "object": "checkout.session",
		"status": "complete", "payment_status": "paid", "amount_total": 100, "currency": "clp", "metadata": map[string]any{}})
	if code, body := w.deliver(foreign, webhookSecret); code != http.StatusOK || !strings.Contains(body, `"ignored"`) {
		t.Errorf("a session frontdesk did not make: got %d %s, want 200 ignored", code, body)
	}
	other := stripetest.Event("", "customer.created", map[string]any{"id": "cus_1", "object": "customer"})
	if code, body := w.deliver(other, webhookSecret); code != http.StatusOK || !strings.Contains(body, `"ignored"`) {
		t.Errorf("another event type: got %d %s, want 200 ignored", code, body)
	}
	huge := []byte(`{"id": "evt_huge", "object": "event", "pad": "` + strings.Repeat("x", 1<<20) + `"}`)
	if code, _ := w.deliver(huge, webhookSecret); code != http.StatusRequestEntityTooLarge {
		t.Errorf("a 1 MiB body: got %d, want 413", code)
	}
	ctx := context.Background()
	if problems, err := w.online.SaveSettings(ctx, payments.SettingsInput{Provider: payments.ProviderNone, Forget: map[string]bool{stripe.Name: true}}); err != nil || len(problems) > 0 {
		t.Fatal(problems, err)
	}
	if code, _ := w.deliver(foreign, webhookSecret); code != http.StatusServiceUnavailable {
		t.Errorf("without secrets: got %d, want 503", code)
	}
	if got := w.count(`SELECT count(*) FROM sales`) + w.count(`SELECT count(*) FROM payment_flags`); got != 0 {
		t.Errorf("something was written: %d rows", got)
	}
}

// A properly signed event with a key twice in one object is refused as unreadable (400) and
// changes nothing: which value Stripe meant cannot be known, and Go's reader would silently
// take the last — here the amount that matches, settling a request for whatever the first said.
// The signature is still checked over the raw bytes first, so a forged one stays a bad signature.
func TestDuplicateKeysInSignedEventRefused(t *testing.T) {
	w := newWorld(t, "CLP")
	pr := w.request("haircut", 10, "15000")
	_, session := w.checkout(pr)
	event := stripetest.Event("evt_dup", "checkout.session.completed", paid(session))
	dup := []byte(strings.Replace(string(event), `"amount_total":15000`, `"amount_total":1,"amount_total":15000`, 1))
	if string(dup) == string(event) {
		t.Fatal("the duplication found nothing to change")
	}
	code, body := w.deliver(dup, webhookSecret)
	if code != http.StatusBadRequest || !strings.Contains(body, "unreadable_event") {
		t.Fatalf("signed event with a duplicate key: got %d %s, want 400 unreadable_event", code, body)
	}
	if got := w.status(pr.ID); got != "pending" {
		t.Fatalf("got request status %s, want pending", got)
	}
	if got := w.count(`SELECT count(*) FROM sales`) + w.count(`SELECT count(*) FROM online_payment_events`); got != 0 {
		t.Fatalf("the refused event wrote %d rows", got)
	}
	if code, body := w.deliver(dup, "whsec_someoneElsesSecret000000"); code != http.StatusBadRequest || !strings.Contains(body, "invalid_signature") {
		t.Fatalf("forged event with a duplicate key: got %d %s, want 400 invalid_signature", code, body)
	}
	if code, _ := w.deliver(event, webhookSecret); code != http.StatusOK || w.status(pr.ID) != "paid" {
		t.Fatalf("the event without the duplicate: got %d and status %s, want 200 and paid", code, w.status(pr.ID))
	}
}
