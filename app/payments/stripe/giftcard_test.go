package stripe_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	"frontdesk/app/payments"
	"frontdesk/app/payments/stripe/stripetest"
	"frontdesk/db"
)

// giftCard sells a gift card of amount (pesos) at the desk, paid in cash, and returns its code.
func (w *world) giftCard(amount string) string {
	w.t.Helper()
	ctx := context.Background()
	sale, err := payments.SellGiftCard(ctx, w.d, w.clock.Now(), payments.GiftCardInput{
		Amount: amount, BuyerName: "Pedro", BuyerEmail: "pedro@example.com", SendTo: payments.SendToBuyer,
	}, payments.GiftSourceDesk, publicURL)
	if err != nil {
		w.t.Fatal(err)
	}
	if _, err := payments.Settle(ctx, w.d, sale.Request.ID, payments.MethodCash, w.clock.Now()); err != nil {
		w.t.Fatal(err)
	}
	return sale.Card.Code
}

// balance is the card's balance and its ledger's sum, which must agree.
func (w *world) balance(code string) int64 {
	w.t.Helper()
	b := w.count(`SELECT balance_cents FROM gift_cards WHERE code = ?`, code)
	if sum := w.count(`SELECT COALESCE(SUM(m.amount_cents), 0) FROM gift_card_movements m JOIN gift_cards g ON g.id = m.gift_card_id WHERE g.code = ?`, code); sum != b {
		w.t.Errorf("card %s: balance %d, ledger sum %d", code, b, sum)
	}
	if b < 0 {
		w.t.Errorf("card %s: balance %d below zero", code, b)
	}
	return b
}

// A card sold at the desk is issued when its sale is paid: active, its value on the ledger, a
// sale of one gift card line paid in cash.
func TestGiftCardSoldAtDeskIsIssuedWhenPaid(t *testing.T) {
	w := newWorld(t, "CLP")
	code := w.giftCard("20000")
	if got := w.balance(code); got != 2000000 {
		t.Errorf("balance %d, want 2000000", got)
	}
	var status string
	if err := w.d.Read.QueryRow(`SELECT status FROM gift_cards WHERE code = ?`, code).Scan(&status); err != nil || status != "active" {
		t.Errorf("status %q (%v), want active", status, err)
	}
	if got := w.count(`SELECT count(*) FROM gift_card_movements m JOIN gift_cards g ON g.id = m.gift_card_id
		WHERE g.code = ? AND m.kind = 'issue' AND m.sale_id = g.sale_id`, code); got != 1 {
		t.Errorf("%d issue movements linked to the sale, want 1", got)
	}
	if got := w.count(`SELECT count(*) FROM activity WHERE action = 'gift_card.issued'`); got != 1 {
		t.Errorf("%d gift_card.issued on the trail, want 1", got)
	}
	// An unpaid card is worth nothing and cannot pay.
	sale, err := payments.SellGiftCard(context.Background(), w.d, w.clock.Now(), payments.GiftCardInput{Amount: "5000", BuyerName: "Ana"}, payments.GiftSourceDesk, publicURL)
	if err != nil {
		t.Fatal(err)
	}
	pr := w.request("haircut", 10, "15000")
	_, err = payments.SettleWithGiftCard(context.Background(), w.d, pr.ID, sale.Card.Code, payments.MethodCash, w.clock.Now())
	var refusal *payments.RefusedError
	if !errors.As(err, &refusal) || refusal.Code != payments.CodeGiftCardUnusable {
		t.Errorf("paying with an unpaid card: %v, want gift_card_unusable", err)
	}
}

// A card that covers part of an online payment holds that part; the checkout asks for the rest;
// Stripe's report that the rest is paid settles both in one sale — a gift card transaction and
// an online one — however often it is delivered.
func TestGiftCardPartialRedemptionSettlesBoth(t *testing.T) {
	w := newWorld(t, "CLP")
	code := w.giftCard("5000")
	pr := w.request("haircut", 10, "15000")
	applied, err := w.online.ApplyGiftCard(context.Background(), pr.UUID, strings.ToLower(payments.FormatGiftCode(code)), "en")
	if err != nil {
		t.Fatal(err)
	}
	if applied.HeldCents != 500000 || applied.Settled {
		t.Fatalf("applied %+v, want 500000 held, not settled", applied)
	}
	if got := w.balance(code); got != 0 {
		t.Errorf("balance while held %d, want 0", got)
	}
	_, session := w.checkout(pr)
	if got := session["amount_total"]; got != float64(10000) {
		t.Fatalf("the checkout asks %v pesos, want the rest: 10000", got)
	}
	event := stripetest.Event("evt_gift_rest", "checkout.session.completed", paid(session))
	for i := range 3 {
		if code, body := w.deliver(event, webhookSecret); code != http.StatusOK {
			t.Fatalf("delivery %d: %d %s", i, code, body)
		}
	}
	if got := w.status(pr.ID); got != "paid" {
		t.Fatalf("request %s, want paid", got)
	}
	rows, err := w.d.Read.Query(`SELECT t.payment_method_id, t.amount_cents FROM transactions t JOIN sales s ON s.id = t.sale_id
		WHERE s.cart_id = ? ORDER BY t.id`, pr.CartID)
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for rows.Next() {
		var m, a int64
		rows.Scan(&m, &a)
		got = append(got, m, a)
	}
	rows.Close()
	if want := []int64{5, 500000, 4, 1000000}; !equal(got, want) {
		t.Errorf("transactions (method, amount) %v, want %v", got, want)
	}
	if got := w.count(`SELECT count(*) FROM gift_card_holds WHERE payment_request_id = ? AND status = 'captured' AND sale_id IS NOT NULL`, pr.ID); got != 1 {
		t.Errorf("%d captured holds, want 1", got)
	}
	if got := w.count(`SELECT count(*) FROM gift_card_movements WHERE payment_request_id = ? AND kind = 'capture'`, pr.ID); got != 1 {
		t.Errorf("%d capture movements, want 1", got)
	}
	if got := w.balance(code); got != 0 {
		t.Errorf("balance %d, want 0", got)
	}
}

// When the rest is never paid — the checkout lapses with the request — the hold goes back to the
// card in the transaction that releases the booking: neither part is taken.
func TestGiftCardUnpaidRestReleasesTheHold(t *testing.T) {
	w := newWorld(t, "CLP")
	code := w.giftCard("5000")
	pr := w.request("haircut", 10, "15000")
	if _, err := w.online.ApplyGiftCard(context.Background(), pr.UUID, code, "en"); err != nil {
		t.Fatal(err)
	}
	_, session := w.checkout(pr)
	w.clock.Advance(61 * 60 * 1e9)
	session["status"] = "expired"
	if code, body := w.deliver(stripetest.Event("evt_gift_expired", "checkout.session.expired", session), webhookSecret); code != http.StatusOK {
		t.Fatalf("%d %s", code, body)
	}
	if got := w.status(pr.ID); got != "expired" {
		t.Fatalf("request %s, want expired", got)
	}
	if got := w.balance(code); got != 500000 {
		t.Errorf("balance %d, want 500000 back", got)
	}
	if got := w.count(`SELECT count(*) FROM sales WHERE cart_id = ?`, pr.CartID); got != 0 {
		t.Errorf("%d sales, want none", got)
	}
	if got := w.count(`SELECT count(*) FROM gift_card_movements WHERE payment_request_id = ? AND kind = 'release' AND amount_cents = 500000`, pr.ID); got != 1 {
		t.Errorf("%d release movements, want 1", got)
	}
}

// Settlement is one transaction: when any part of it fails (here the card's capture, refused by
// a trigger the test adds), the online payment is not settled either, the hold stays held, the
// event is not recorded — Stripe delivers it again — and the redelivery settles both.
func TestGiftCardSettlementIsAllOrNothing(t *testing.T) {
	w := newWorld(t, "CLP")
	code := w.giftCard("5000")
	pr := w.request("haircut", 10, "15000")
	if _, err := w.online.ApplyGiftCard(context.Background(), pr.UUID, code, "en"); err != nil {
		t.Fatal(err)
	}
	_, session := w.checkout(pr)
	w.exec(`CREATE TRIGGER test_fail_capture BEFORE INSERT ON gift_card_movements WHEN NEW.kind = 'capture'
		BEGIN SELECT RAISE(ABORT, 'test_capture_fails'); END`)
	event := stripetest.Event("evt_gift_atomic", "checkout.session.completed", paid(session))
	if code, _ := w.deliver(event, webhookSecret); code != http.StatusInternalServerError {
		t.Fatalf("delivery with a failing capture: %d, want 500 (Stripe retries)", code)
	}
	if got := w.status(pr.ID); got != "pending" {
		t.Errorf("request %s, want pending", got)
	}
	if got := w.count(`SELECT count(*) FROM sales WHERE cart_id = ?`, pr.CartID); got != 0 {
		t.Errorf("%d sales, want none", got)
	}
	if got := w.count(`SELECT count(*) FROM gift_card_holds WHERE payment_request_id = ? AND status = 'held'`, pr.ID); got != 1 {
		t.Errorf("%d holds still held, want 1", got)
	}
	if got := w.count(`SELECT count(*) FROM online_payment_events WHERE event_id = 'evt_gift_atomic'`); got != 0 {
		t.Errorf("the failed event is recorded")
	}
	w.exec(`DROP TRIGGER test_fail_capture`)
	if code, body := w.deliver(event, webhookSecret); code != http.StatusOK || !strings.Contains(body, "settled") {
		t.Fatalf("redelivery: %d %s", code, body)
	}
	if got := w.count(`SELECT count(*) FROM transactions t JOIN sales s ON s.id = t.sale_id WHERE s.cart_id = ?`, pr.CartID); got != 2 {
		t.Errorf("%d transactions, want 2 (gift card and online)", got)
	}
}

// A card that covers everything due settles the request at once, without Stripe.
func TestGiftCardCoveringEverythingSettlesAtOnce(t *testing.T) {
	w := newWorld(t, "CLP")
	code := w.giftCard("20000")
	pr := w.request("haircut", 10, "15000")
	applied, err := w.online.ApplyGiftCard(context.Background(), pr.UUID, code, "en")
	if err != nil || !applied.Settled || applied.HeldCents != 1500000 {
		t.Fatalf("applied %+v, %v; want settled with 1500000", applied, err)
	}
	if got := w.status(pr.ID); got != "paid" {
		t.Errorf("request %s, want paid", got)
	}
	if got := w.balance(code); got != 500000 {
		t.Errorf("balance %d, want 500000", got)
	}
	if got := len(w.stripe.Requests(http.MethodPost, "/v1/checkout/sessions")); got != 0 {
		t.Errorf("%d checkouts created, want none", got)
	}
}

// Redemptions racing for one card — at the desk and at online checkout, all at once — never
// take it below zero: what they took plus what is left is the card's value.
func TestGiftCardRacersNeverOverdraw(t *testing.T) {
	w := newWorld(t, "CLP")
	code := w.giftCard("10000")
	var prs []db.PaymentRequest
	for hour := 8; hour < 16; hour++ {
		prs = append(prs, w.request("haircut", hour, "3000"))
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, refused := 0, 0
	for i, pr := range prs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			if i%2 == 0 {
				_, err = payments.SettleWithGiftCard(ctx, w.d, pr.ID, code, 0, w.clock.Now())
			} else {
				_, err = w.online.ApplyGiftCard(ctx, pr.UUID, code, "en")
			}
			mu.Lock()
			defer mu.Unlock()
			var r *payments.RefusedError
			switch {
			case err == nil:
				ok++
			case errors.As(err, &r) && (r.Code == payments.CodeGiftCardEmpty || r.Code == payments.CodeGiftCardRest):
				refused++
			default:
				t.Errorf("racer %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	left := w.balance(code)
	taken := -w.count(`SELECT COALESCE(SUM(m.amount_cents), 0) FROM gift_card_movements m JOIN gift_cards g ON g.id = m.gift_card_id
		WHERE g.code = ? AND m.kind IN ('redeem', 'hold')`, code)
	if taken+left != 1000000 {
		t.Errorf("taken %d + left %d ≠ the card's value 1000000", taken, left)
	}
	if ok < 3 || refused == 0 {
		t.Errorf("%d racers paid, %d refused; want at least 3 paid and some refused", ok, refused)
	}
}

// The ledger's triggers are the last word, whatever the application does: a movement that
// overdraws, a balance written around the ledger, a rewritten movement, a payment from a void
// card — all refused by the database.
func TestGiftCardLedgerTriggers(t *testing.T) {
	w := newWorld(t, "CLP")
	code := w.giftCard("5000")
	var id int64
	if err := w.d.Read.QueryRow(`SELECT id FROM gift_cards WHERE code = ?`, code).Scan(&id); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ sql, want string }{
		{`INSERT INTO gift_card_movements (gift_card_id, kind, amount_cents, balance_after, created_at) VALUES (?, 'redeem', -500001, 0, 1)`, "gift_card_overdrawn"},
		{`INSERT INTO gift_card_movements (gift_card_id, kind, amount_cents, balance_after, created_at) VALUES (?, 'redeem', -100, 0, 1)`, "gift_card_balance_after"},
		{`UPDATE gift_cards SET balance_cents = balance_cents + 100 WHERE id = ?`, "gift_card_balance_not_ledger"},
		{`UPDATE gift_cards SET balance_cents = -1 WHERE id = ?`, "gift_card_balance_not_ledger"},
		{`UPDATE gift_card_movements SET amount_cents = 900000 WHERE gift_card_id = ?`, "gift_card_ledger_immutable"},
		{`DELETE FROM gift_card_movements WHERE gift_card_id = ?`, "gift_card_ledger_immutable"},
	} {
		_, err := w.d.Write.Exec(c.sql, id)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %s", c.sql, err, c.want)
		}
	}
	if err := payments.VoidGiftCard(context.Background(), w.d, w.clock.Now(), id); err != nil {
		t.Fatal(err)
	}
	_, err := w.d.Write.Exec(`INSERT INTO gift_card_movements (gift_card_id, kind, amount_cents, balance_after, created_at) VALUES (?, 'release', 100, 100, 1)`, id)
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.d.Write.Exec(`INSERT INTO gift_card_movements (gift_card_id, kind, amount_cents, balance_after, created_at) VALUES (?, 'redeem', -100, 0, 1)`, id)
	if err == nil || !strings.Contains(err.Error(), "gift_card_not_active") {
		t.Errorf("redeeming from a void card: %v, want gift_card_not_active", err)
	}
	if got := w.balance(code); got != 100 {
		t.Errorf("balance %d, want 100", got)
	}
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
