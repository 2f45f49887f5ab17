package stripe_test

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/payments"
	"frontdesk/app/payments/stripe/stripetest"
	"frontdesk/db"
)

// holdForCard books the haircut for María tomorrow at hour (Santiago) as the booking site does
// for a service that requires a card: the booking reserved behind a card request.
func (w *world) holdForCard(hour int) (db.PaymentRequest, int64) {
	w.t.Helper()
	ctx := context.Background()
	w.exec(`INSERT INTO card_services (service_id) VALUES (?) ON CONFLICT DO NOTHING`, w.ids["haircut"])
	santiago, _ := time.LoadLocation("America/Santiago")
	tomorrow := start.In(santiago).AddDate(0, 0, 1)
	at := time.Date(tomorrow.Year(), tomorrow.Month(), tomorrow.Day(), hour, 0, 0, 0, santiago)
	need, err := payments.CardRequired(ctx, w.d.R, w.ids["haircut"])
	if err != nil || !need {
		w.t.Fatalf("the haircut does not require a card: %v %v", need, err)
	}
	prep, err := booking.Prepare(ctx, w.d, w.clock.Now(), booking.NewBooking{
		LocationID: w.ids["location"], ServiceID: w.ids["haircut"], ProviderID: w.ids["ana"], ClientID: w.ids["maria"],
		StatusID: booking.StatusConfirmed, Start: at, Source: booking.SourceOnline,
	})
	if err != nil {
		w.t.Fatal(err)
	}
	pr, id, err := payments.ReserveForCard(ctx, w.d, w.clock.Now(), prep, publicURL)
	if err != nil {
		w.t.Fatal(err)
	}
	return pr, id
}

// setupSession sends the client of card request pr to Stripe and returns the setup session.
func (w *world) setupSession(pr db.PaymentRequest) map[string]any {
	w.t.Helper()
	if _, err := w.online.StartCardSetup(context.Background(), pr.UUID, "en"); err != nil {
		w.t.Fatalf("start card setup: %v", err)
	}
	var id string
	if err := w.d.Read.QueryRow(`SELECT session_id FROM card_setups WHERE payment_request_id = ? AND status = 'open'`, pr.ID).Scan(&id); err != nil {
		w.t.Fatal(err)
	}
	return w.stripe.Session(id)
}

// A service that requires a card holds its booking behind a card request; the client saves a
// card on Stripe Checkout in setup mode (for a Customer made for them); Stripe's
// checkout.session.completed — delivered three times at once, then again after a late
// "expired" report — saves the card's brand and last four on the client and the booking,
// confirms the booking and closes the request, once.
func TestSetupModeSavesCardOnce(t *testing.T) {
	w := newWorld(t, "CLP")
	pr, bookingID := w.holdForCard(10)
	if pr.Purpose != payments.PurposeCard || pr.AmountCents != 0 || !pr.ExpiresAt.Valid {
		t.Fatalf("got request purpose %s amount %d expiring %v; want a card request for 0 that expires", pr.Purpose, pr.AmountCents, pr.ExpiresAt.Valid)
	}
	if got := w.count(`SELECT status_id FROM bookings WHERE id = ?`, bookingID); got != booking.StatusReserved {
		t.Fatalf("got booking status %d, want reserved until the card is saved", got)
	}
	session := w.setupSession(pr)
	if again, err := w.online.StartCardSetup(context.Background(), pr.UUID, "en"); err != nil || again != session["url"] {
		t.Errorf("a second click got %q %v, want the open page %q", again, err, session["url"])
	}
	creates := w.stripe.Requests(http.MethodPost, "/v1/checkout/sessions")
	if len(creates) != 1 {
		t.Fatalf("got %d session creations, want 1", len(creates))
	}
	f := creates[0].Form
	if f.Get("mode") != "setup" || f.Get("customer") == "" || f.Get("currency") != "clp" || f.Has("line_items[0][quantity]") {
		t.Errorf("setup session asked %v; want mode=setup for a customer in clp without line items", f)
	}
	if n := len(w.stripe.Requests(http.MethodPost, "/v1/customers")); n != 1 {
		t.Errorf("got %d customers made, want 1", n)
	}

	w.stripe.SaveCard(session["id"].(string), "visa", "4242")
	completed := stripetest.Event("evt_setup_completed", "checkout.session.completed", w.stripe.Session(session["id"].(string)))
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if code, body := w.deliver(completed, webhookSecret); code != http.StatusOK {
				t.Errorf("delivery: %d %s", code, body)
			}
		}()
	}
	wg.Wait()
	late := w.stripe.Session(session["id"].(string))
	late["status"] = "expired"
	// A late "expired", the first event again, and the same completion under another event id
	// (a report of the same state by another path) change nothing more.
	again := stripetest.Event("evt_setup_completed_other", "checkout.session.completed", w.stripe.Session(session["id"].(string)))
	for _, ev := range [][]byte{stripetest.Event("evt_setup_expired", "checkout.session.expired", late), completed, again} {
		if code, body := w.deliver(ev, webhookSecret); code != http.StatusOK {
			t.Fatalf("delivery: %d %s", code, body)
		}
	}

	if got := w.status(pr.ID); got != "paid" {
		t.Errorf("got request status %s, want closed as done (paid)", got)
	}
	if got := w.count(`SELECT status_id FROM bookings WHERE id = ?`, bookingID); got != booking.StatusConfirmed {
		t.Errorf("got booking status %d, want confirmed", got)
	}
	var brand, last4 string
	if err := w.d.Read.QueryRow(`SELECT brand, last4 FROM client_cards WHERE client_id = ?`, w.ids["maria"]).Scan(&brand, &last4); err != nil || brand != "visa" || last4 != "4242" {
		t.Errorf("client's card: %q %q %v; want visa 4242", brand, last4, err)
	}
	if err := w.d.Read.QueryRow(`SELECT brand, last4 FROM booking_cards WHERE booking_id = ?`, bookingID).Scan(&brand, &last4); err != nil || brand != "visa" || last4 != "4242" {
		t.Errorf("booking's card: %q %q %v; want visa 4242", brand, last4, err)
	}
	if got := w.count(`SELECT count(*) FROM activity WHERE action = 'client.card_saved'`); got != 1 {
		t.Errorf("got %d card_saved entries, want 1 (acting once)", got)
	}
	if got := w.count(`SELECT count(*) FROM sales`); got != 0 {
		t.Errorf("got %d sales; saving a card sells nothing", got)
	}
	var setup string
	w.d.Read.QueryRow(`SELECT status FROM card_setups WHERE payment_request_id = ?`, pr.ID).Scan(&setup)
	if setup != "saved" {
		t.Errorf("got setup status %s, want saved", setup)
	}
}

// A card request that expires releases its booking as a payment request does; the setup page
// is closed at Stripe first.
func TestCardHoldExpires(t *testing.T) {
	w := newWorld(t, "CLP")
	pr, bookingID := w.holdForCard(11)
	session := w.setupSession(pr)
	w.clock.Advance(61 * time.Minute)
	e := payments.NewExpirer(w.d, nil, w.clock.Now)
	e.Checkouts = w.online
	if _, err := e.ExpireDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := w.status(pr.ID); got != "expired" {
		t.Errorf("got request %s, want expired", got)
	}
	if got := w.count(`SELECT status_id FROM bookings WHERE id = ?`, bookingID); got != booking.StatusCancelled {
		t.Errorf("got booking status %d, want released (cancelled)", got)
	}
	if s := w.stripe.Session(session["id"].(string)); s["status"] != "expired" {
		t.Errorf("the setup session at Stripe is %v, want expired", s["status"])
	}
}

// feeWorld is a booking held for a card, the card saved through setup mode, and a policy with a
// no-show fee of half the price capped at 10 000 and a late-cancel fee of 3 000 with 24 hours'
// notice, chargeable for 14 days.
func feeWorld(t *testing.T) (*world, int64, string) {
	w := newWorld(t, "CLP")
	pol := payments.DefaultPolicy
	pol.NoShow = payments.Charge{Kind: payments.AmountPercent, Value: 5000, CapCents: 1000000}
	pol.Late = payments.Charge{Kind: payments.AmountFixed, Value: 300000}
	if err := w.d.InTx(context.Background(), func(q *db.Queries) error {
		return payments.SavePolicy(context.Background(), q, w.clock.Now(), pol)
	}); err != nil {
		t.Fatal(err)
	}
	pr, bookingID := w.holdForCard(10)
	session := w.setupSession(pr)
	pm := w.stripe.SaveCard(session["id"].(string), "mastercard", "4444")
	if code, body := w.deliver(stripetest.Event("", "checkout.session.completed", w.stripe.Session(session["id"].(string))), webhookSecret); code != http.StatusOK {
		t.Fatalf("delivery: %d %s", code, body)
	}
	if got := w.count(`SELECT status_id FROM bookings WHERE id = ?`, bookingID); got != booking.StatusConfirmed {
		t.Fatalf("got booking status %d, want confirmed", got)
	}
	return w, bookingID, pm
}

// noShow marks the booking a no-show the day after it.
func (w *world) noShow(id int64) {
	w.t.Helper()
	w.clock.Advance(48 * time.Hour)
	w.exec(`UPDATE bookings SET status_id = 4 WHERE id = ?`, id)
}

// The owner clicks "Charge no-show fee" twice at once, then once more: one off-session
// PaymentIntent for the fee (half of 15 000, under the cap), one sale with the fee's line paid
// online and receipted, the fee paid; the other clicks are told it was already charged.
func TestNoShowFeeChargedOnceOnDoubleClick(t *testing.T) {
	w, bookingID, _ := feeWorld(t)
	w.noShow(bookingID)
	ctx := context.Background()
	var wg sync.WaitGroup
	results := make([]payments.FeeCharge, 2)
	errs := make([]error, 2)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = w.online.ChargeFee(ctx, bookingID, payments.FeeNoShow)
		}()
	}
	wg.Wait()
	third, err := w.online.ChargeFee(ctx, bookingID, payments.FeeNoShow)
	outcomes := map[string]int{third.Outcome: 1}
	for i := range results {
		if errs[i] != nil {
			t.Fatalf("click %d: %v", i, errs[i])
		}
		outcomes[results[i].Outcome]++
	}
	if err != nil || outcomes[payments.FeeCharged] != 1 || outcomes[payments.FeeAlready] != 2 {
		t.Fatalf("got outcomes %v (%v); want one charged, two already", outcomes, err)
	}
	pis := w.stripe.PaymentIntents()
	if len(pis) != 1 {
		t.Fatalf("got %d PaymentIntents, want 1", len(pis))
	}
	charge := w.stripe.Requests(http.MethodPost, "/v1/payment_intents")[0]
	if f := charge.Form; f.Get("off_session") != "true" || f.Get("confirm") != "true" || f.Get("amount") != "7500" || f.Get("currency") != "clp" ||
		f.Get("payment_method") == "" || f.Get("customer") == "" {
		t.Errorf("charge asked %v; want 7500 clp off session, confirmed, with the saved card and customer", f)
	}
	if key := charge.Header.Get("Idempotency-Key"); key == "" || key != third.Fee.IdempotencyKey {
		t.Errorf("idempotency key %q, want the fee's %q", key, third.Fee.IdempotencyKey)
	}
	fee := third.Fee
	if fee.Status != "paid" || !fee.SaleID.Valid || fee.AmountCents != 750000 {
		t.Fatalf("got fee %+v; want paid 750000 with a sale", fee)
	}
	var status, name string
	var paid, method, unit int64
	if err := w.d.Read.QueryRow(`SELECT s.status, s.paid_cents, t.payment_method_id, ci.item_name, ci.unit_price_cents
		FROM sales s JOIN transactions t ON t.sale_id = s.id JOIN cart_items ci ON ci.cart_id = s.cart_id WHERE s.id = ?`,
		fee.SaleID.Int64).Scan(&status, &paid, &method, &name, &unit); err != nil {
		t.Fatal(err)
	}
	if status != "paid" || paid != 750000 || method != 4 || unit != 750000 || name != "No-show fee: Haircut" {
		t.Errorf("got sale %s %d by %d, line %q %d; want paid 750000 online, line \"No-show fee: Haircut\"", status, paid, method, name, unit)
	}
	if got := w.count(`SELECT count(*) FROM sales`); got != 1 {
		t.Errorf("got %d sales, want 1", got)
	}
	if got := w.events("payment_request.paid", fee.PaymentRequestID.Int64); got != 1 {
		t.Errorf("got %d payment_request.paid for the fee, want 1 (its receipt)", got)
	}
}

// A charge whose answer never comes back (the owner's request timed out) leaves the fee
// 'charging'; clicking again repeats the very same call — the same idempotency key — and
// Stripe answers with the same PaymentIntent: one charge, one sale.
func TestNoShowFeeRetriedAfterTimeoutChargesOnce(t *testing.T) {
	w, bookingID, _ := feeWorld(t)
	w.noShow(bookingID)
	recorded := w.stripe.StallNextCharge()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	_, err := w.online.ChargeFee(ctx, bookingID, payments.FeeNoShow)
	cancel()
	if err == nil {
		t.Fatal("a charge that timed out reported success")
	}
	<-recorded
	if got := w.count(`SELECT count(*) FROM booking_fees WHERE status = 'charging'`); got != 1 {
		t.Fatalf("got %d fees charging after the timeout, want 1", got)
	}
	res, err := w.online.ChargeFee(context.Background(), bookingID, payments.FeeNoShow)
	if err != nil || res.Outcome != payments.FeeCharged {
		t.Fatalf("retry: %+v %v; want charged", res, err)
	}
	calls := w.stripe.Requests(http.MethodPost, "/v1/payment_intents")
	if len(calls) != 2 || calls[0].Header.Get("Idempotency-Key") != calls[1].Header.Get("Idempotency-Key") {
		t.Errorf("got %d calls; want the same call twice, with one key", len(calls))
	}
	if n := len(w.stripe.PaymentIntents()); n != 1 {
		t.Errorf("got %d PaymentIntents, want 1", n)
	}
	if got := w.count(`SELECT count(*) FROM sales`); got != 1 {
		t.Errorf("got %d sales, want 1", got)
	}
}

// When the bank wants the client to authenticate, the off-session charge does not go through:
// the client is sent a payment link for the fee instead (a fee payment request, its message
// queued), and when they pay it through Checkout the fee is paid by that sale.
func TestFeeAuthenticationRequiredSendsPaymentLink(t *testing.T) {
	w, bookingID, pm := feeWorld(t)
	w.stripe.ChargeAs(pm, stripetest.CardNeedsAuth)
	w.noShow(bookingID)
	res, err := w.online.ChargeFee(context.Background(), bookingID, payments.FeeNoShow)
	if err != nil || res.Outcome != payments.FeeLinkSent || !res.Fee.PaymentRequestID.Valid {
		t.Fatalf("got %+v %v; want a payment link sent", res, err)
	}
	pr, err := w.d.R.GetPaymentRequest(context.Background(), res.Fee.PaymentRequestID.Int64)
	if err != nil {
		t.Fatal(err)
	}
	if pr.Purpose != payments.PurposeFee || pr.Status != "pending" || pr.AmountCents != 750000 {
		t.Fatalf("got request %+v; want a pending fee request for 750000", pr)
	}
	if got := w.count(`SELECT count(*) FROM messages WHERE payment_request_id = ? AND kind = 'payment_request'`, pr.ID); got == 0 {
		t.Errorf("no message with the payment link was queued")
	}
	if again, err := w.online.ChargeFee(context.Background(), bookingID, payments.FeeNoShow); err != nil || again.Outcome != payments.FeeAlready {
		t.Errorf("a second click: %+v %v; want already (the link is out)", again, err)
	}
	_, session := w.checkout(pr)
	if code, body := w.deliver(stripetest.Event("", "checkout.session.completed", paid(session)), webhookSecret); code != http.StatusOK {
		t.Fatalf("delivery: %d %s", code, body)
	}
	var status string
	var sale int64
	if err := w.d.Read.QueryRow(`SELECT status, coalesce(sale_id, 0) FROM booking_fees WHERE booking_id = ?`, bookingID).Scan(&status, &sale); err != nil {
		t.Fatal(err)
	}
	if status != "paid" || sale == 0 {
		t.Errorf("got fee %s sale %d; want paid by the link's sale", status, sale)
	}
}

// A fee is refused for a booking that was not a no-show, for a cancel made with the notice the
// policy asks, and once the policy's days to charge are over — and Stripe is not called.
func TestFeeRefusedOutsidePolicy(t *testing.T) {
	w, bookingID, _ := feeWorld(t)
	_, other := w.holdForCard(12)
	ctx := context.Background()
	if _, err := w.online.ChargeFee(ctx, bookingID, payments.FeeNoShow); !errors.Is(err, payments.ErrFeeNotDue) {
		t.Errorf("a confirmed booking: got %v, want fee_not_due", err)
	}
	// A no-show, but 16 days later: past the policy's 14 days.
	w.exec(`UPDATE bookings SET status_id = 4 WHERE id = ?`, bookingID)
	w.clock.Advance(16 * 24 * time.Hour)
	if _, err := w.online.ChargeFee(ctx, bookingID, payments.FeeNoShow); !errors.Is(err, payments.ErrFeeOutsidePolicy) {
		t.Errorf("16 days after: got %v, want fee_outside_policy", err)
	}
	// Another booking, cancelled by the client two days ahead: within the notice.
	w.exec(`UPDATE bookings SET status_id = 5, cancelled_by = 'client', cancelled_at = start_at - 2 * 86400000 WHERE id = ?`, other)
	if _, err := w.online.ChargeFee(ctx, other, payments.FeeLateCancel); !errors.Is(err, payments.ErrFeeNotDue) {
		t.Errorf("a cancel with notice: got %v, want fee_not_due", err)
	}
	if _, err := w.online.ChargeFee(ctx, other, payments.FeeNoShow); !errors.Is(err, payments.ErrFeeNotDue) {
		t.Errorf("a cancelled booking's no-show fee: got %v, want fee_not_due", err)
	}
	if n := len(w.stripe.Requests(http.MethodPost, "/v1/payment_intents")); n != 0 {
		t.Errorf("Stripe was asked to charge %d times, want 0", n)
	}
	if got := w.count(`SELECT count(*) FROM booking_fees`); got != 0 {
		t.Errorf("got %d fee rows, want none", got)
	}
}

// A late cancel by the client inside the notice window is charged the late-cancel fee.
func TestLateCancelFeeCharged(t *testing.T) {
	w, bookingID, _ := feeWorld(t)
	w.exec(`UPDATE bookings SET status_id = 5, cancelled_by = 'client', cancelled_at = start_at - 3600000 WHERE id = ?`, bookingID)
	res, err := w.online.ChargeFee(context.Background(), bookingID, payments.FeeLateCancel)
	if err != nil || res.Outcome != payments.FeeCharged || res.Fee.AmountCents != 300000 {
		t.Fatalf("got %+v %v; want charged 300000", res, err)
	}
}

// intentEvent is a payment_intent.* event about PaymentIntent pi (as the Fake made it) with
// status and, for a failure, Stripe's error code.
func intentEvent(id, eventType string, pi map[string]any, status, code string) []byte {
	obj := clonePI(pi)
	obj["object"], obj["status"] = "payment_intent", status
	if code != "" {
		obj["last_payment_error"] = map[string]any{"type": "card_error", "code": code}
	}
	return stripetest.Event(id, eventType, obj)
}

func clonePI(pi map[string]any) map[string]any {
	out := make(map[string]any, len(pi))
	for k, v := range pi {
		out[k] = v
	}
	return out
}

// A charge whose answer never comes back is settled by Stripe's payment_intent.succeeded: one
// sale, the fee paid — however often the event comes — and the owner's retry finds it charged
// without calling Stripe again. A payment_failed or requires_action delivered late for the
// same charge changes nothing.
func TestFeeSettledByPaymentIntentWebhookOnce(t *testing.T) {
	w, bookingID, _ := feeWorld(t)
	w.noShow(bookingID)
	recorded := w.stripe.StallNextCharge()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	_, err := w.online.ChargeFee(ctx, bookingID, payments.FeeNoShow)
	cancel()
	if err == nil {
		t.Fatal("a charge that timed out reported success")
	}
	<-recorded
	pis := w.stripe.PaymentIntents()
	if len(pis) != 1 {
		t.Fatalf("got %d PaymentIntents, want 1", len(pis))
	}
	succeeded := intentEvent("evt_pi_ok", "payment_intent.succeeded", pis[0], "succeeded", "")
	w.mustDeliver(succeeded, payments.OutcomeFeeCharged)
	w.mustDeliver(succeeded, payments.OutcomeDuplicate)
	w.mustDeliver(intentEvent("evt_pi_ok_again", "payment_intent.succeeded", pis[0], "succeeded", ""), payments.OutcomeDuplicate)
	w.mustDeliver(intentEvent("evt_pi_late_fail", "payment_intent.payment_failed", pis[0], "requires_payment_method", "card_declined"), payments.OutcomeDuplicate)
	w.mustDeliver(intentEvent("evt_pi_late_action", "payment_intent.requires_action", pis[0], "requires_action", ""), payments.OutcomeDuplicate)
	var status string
	var sale int64
	if err := w.d.Read.QueryRow(`SELECT status, coalesce(sale_id, 0) FROM booking_fees WHERE booking_id = ?`, bookingID).Scan(&status, &sale); err != nil {
		t.Fatal(err)
	}
	if status != "paid" || sale == 0 {
		t.Fatalf("got fee %s sale %d; want paid with a sale", status, sale)
	}
	if got := w.count(`SELECT count(*) FROM sales`); got != 1 {
		t.Errorf("got %d sales, want 1", got)
	}
	res, err := w.online.ChargeFee(context.Background(), bookingID, payments.FeeNoShow)
	if err != nil || res.Outcome != payments.FeeAlready {
		t.Errorf("retry after the webhook: %+v %v; want already", res, err)
	}
	if got := len(w.stripe.Requests(http.MethodPost, "/v1/payment_intents")); got != 1 {
		t.Errorf("got %d charge calls, want 1", got)
	}
}

// A charge that Stripe reports declined, or needing the client's authentication, while the
// owner's call has not come back is recorded as ChargeFee would record that answer: declined
// (the owner may try again), or the payment link sent. An event about a PaymentIntent frontdesk
// did not make is ignored.
func TestFeeDeclinedOrNeedsClientByPaymentIntentWebhook(t *testing.T) {
	for _, tc := range []struct {
		eventType, status, code, outcome, feeStatus string
	}{
		{"payment_intent.payment_failed", "requires_payment_method", "card_declined", payments.OutcomeFeeDeclined, "failed"},
		{"payment_intent.payment_failed", "requires_payment_method", "authentication_required", payments.OutcomeFeeLinkSent, "link_sent"},
		{"payment_intent.requires_action", "requires_action", "", payments.OutcomeFeeLinkSent, "link_sent"},
	} {
		t.Run(tc.eventType+"/"+tc.code, func(t *testing.T) {
			w, bookingID, _ := feeWorld(t)
			w.noShow(bookingID)
			recorded := w.stripe.StallNextCharge()
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			w.online.ChargeFee(ctx, bookingID, payments.FeeNoShow)
			cancel()
			<-recorded
			pi := w.stripe.PaymentIntents()[0]
			ev := intentEvent("evt_pi", tc.eventType, pi, tc.status, tc.code)
			w.mustDeliver(ev, tc.outcome)
			w.mustDeliver(ev, payments.OutcomeDuplicate)
			var status string
			if err := w.d.Read.QueryRow(`SELECT status FROM booking_fees WHERE booking_id = ?`, bookingID).Scan(&status); err != nil {
				t.Fatal(err)
			}
			if status != tc.feeStatus {
				t.Errorf("fee %s, want %s", status, tc.feeStatus)
			}
			if got := w.count(`SELECT count(*) FROM sales`); got != 0 {
				t.Errorf("got %d sales, want 0", got)
			}
			foreign := clonePI(pi)
			foreign["id"], foreign["metadata"] = "pi_someone_else", map[string]any{}
			w.mustDeliver(intentEvent("evt_foreign", "payment_intent.succeeded", foreign, "succeeded", ""), payments.OutcomeIgnored)
		})
	}
}
