package stripe_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"frontdesk/app/payments"
	"frontdesk/app/payments/stripe/stripetest"
	"frontdesk/db"
)

// member signs María up for a plan of 4 haircuts a month at 30000 pesos (rollover as given)
// and returns her pending membership and the Checkout Session frontdesk made.
func (w *world) member(rollover bool) (db.Membership, map[string]any) {
	w.t.Helper()
	ctx := context.Background()
	plan, err := payments.SavePlan(ctx, w.d, w.clock.Now(), 0, payments.PlanInput{
		Name: "Monthly cuts", Price: "30000", Rollover: rollover, Sessions: map[int64]int64{w.ids["haircut"]: 4},
	})
	if err != nil {
		w.t.Fatal(err)
	}
	m, url, err := w.online.StartMembership(ctx, plan.ID, w.ids["maria"], "es")
	if err != nil {
		w.t.Fatal(err)
	}
	if !strings.HasPrefix(url, "https://checkout.stripe.com/") {
		w.t.Fatalf("checkout url %q", url)
	}
	m, err = w.d.R.GetMembership(ctx, m.ID)
	if err != nil {
		w.t.Fatal(err)
	}
	return m, w.stripe.Session(m.CheckoutSessionID.String)
}

func (w *world) membership(id int64) db.Membership {
	w.t.Helper()
	m, err := w.d.R.GetMembership(context.Background(), id)
	if err != nil {
		w.t.Fatal(err)
	}
	return m
}

// mustDeliver delivers payload and wants outcome.
func (w *world) mustDeliver(payload []byte, outcome string) {
	w.t.Helper()
	code, body := w.deliver(payload, webhookSecret)
	if code != http.StatusOK || !strings.Contains(body, `"outcome":"`+outcome+`"`) {
		w.t.Fatalf("delivery: %d %s, want outcome %s", code, body, outcome)
	}
}

// packs are María's haircut packs credited by membership m: sessions and expiry of each.
func (w *world) memberPacks(m db.Membership) [][2]int64 {
	w.t.Helper()
	rows, err := w.d.Read.Query(`SELECT p.sessions_total, COALESCE(p.expires_at, 0) FROM client_packs p
		JOIN membership_periods mp ON mp.id = p.membership_period_id WHERE mp.membership_id = ? ORDER BY mp.period_start`, m.ID)
	if err != nil {
		w.t.Fatal(err)
	}
	defer rows.Close()
	var out [][2]int64
	for rows.Next() {
		var p [2]int64
		rows.Scan(&p[0], &p[1])
		out = append(out, p)
	}
	return out
}

// A membership's subscription is made by a Checkout Session in subscription mode: a monthly
// price in the business's currency, the membership in the metadata of the session and of the
// subscription (so every invoice names it), the client's email prefilled.
func TestMembershipCheckoutIsASubscription(t *testing.T) {
	w := newWorld(t, "CLP")
	m, _ := w.member(false)
	calls := w.stripe.Requests(http.MethodPost, "/v1/checkout/sessions")
	if len(calls) != 1 {
		t.Fatalf("%d sessions created, want 1", len(calls))
	}
	f := calls[0].Form
	for k, want := range map[string]string{
		"mode": "subscription", "line_items[0][price_data][recurring][interval]": "month",
		"line_items[0][price_data][unit_amount]": "30000", "line_items[0][price_data][currency]": "clp",
		"metadata[membership_id]": itoa(m.ID), "subscription_data[metadata][membership_id]": itoa(m.ID),
		"customer_email": "maria@example.com", "client_reference_id": m.UUID,
	} {
		if got := f.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if got := calls[0].Header.Get("Idempotency-Key"); got != "frontdesk-membership-"+m.UUID {
		t.Errorf("idempotency key %q", got)
	}
	if m.Status != payments.MembershipPending {
		t.Errorf("status %s before payment, want pending", m.Status)
	}
}

// Created, renewed, failed, cancelled — each report applied once, whatever the order and however
// often Stripe delivers it. A renewal credits the plan's sessions exactly once per period, even
// when its invoice.paid comes three times (twice at once, once under another event id) and
// before the checkout's own completion; a failed renewal pauses and credits nothing; a
// cancelled membership is final.
func TestMembershipLifecycleActsOnce(t *testing.T) {
	w := newWorld(t, "CLP")
	m, session := w.member(false)
	sub, cus := "sub_frontdesk_1", "cus_frontdesk_1"
	first := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

	// The first invoice's payment arrives before the checkout's completion: it starts the
	// membership and credits the month, once, however delivered.
	paid1 := stripetest.Event("evt_inv_1", "invoice.paid", stripetest.Invoice("in_1", sub, cus, m.ID, first, 30000, "clp", true))
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); w.deliver(paid1, webhookSecret) }()
	}
	wg.Wait()
	w.mustDeliver(paid1, payments.OutcomeDuplicate)
	// The same invoice reported under another event id: the period is known.
	w.mustDeliver(stripetest.Event("evt_inv_1_again", "invoice.paid", stripetest.Invoice("in_1", sub, cus, m.ID, first, 30000, "clp", true)), payments.OutcomeDuplicate)
	if got := w.membership(m.ID); got.Status != payments.MembershipActive || got.SubscriptionRef.String != sub || got.CustomerRef.String != cus {
		t.Fatalf("after the first invoice: %s %q %q, want active with the subscription and customer", got.Status, got.SubscriptionRef.String, got.CustomerRef.String)
	}
	session["status"], session["payment_status"], session["subscription"], session["customer"] = "complete", "paid", sub, cus
	w.mustDeliver(stripetest.Event("evt_started", "checkout.session.completed", session), payments.OutcomeDuplicate)

	packs := w.memberPacks(m)
	if len(packs) != 1 || packs[0][0] != 4 || packs[0][1] != first.AddDate(0, 1, 0).UnixMilli() {
		t.Fatalf("packs after the first month %v, want one of 4 sessions expiring at the period's end", packs)
	}

	// The renewal, three times.
	second := first.AddDate(0, 1, 0)
	paid2 := stripetest.Event("evt_inv_2", "invoice.paid", stripetest.Invoice("in_2", sub, cus, m.ID, second, 30000, "clp", true))
	w.mustDeliver(paid2, payments.OutcomeMembershipRenewed)
	w.mustDeliver(paid2, payments.OutcomeDuplicate)
	w.mustDeliver(paid2, payments.OutcomeDuplicate)
	if got := len(w.memberPacks(m)); got != 2 {
		t.Fatalf("%d periods credited after the renewal, want 2", got)
	}

	// The third month's payment fails: paused, nothing credited. A late failure of the second
	// month (already paid) is stale and changes nothing.
	third := second.AddDate(0, 1, 0)
	w.mustDeliver(stripetest.Event("evt_inv_2_failed_late", "invoice.payment_failed", stripetest.Invoice("in_2", sub, cus, m.ID, second, 30000, "clp", false)), payments.OutcomeDuplicate)
	failed := stripetest.Event("evt_inv_3_failed", "invoice.payment_failed", stripetest.Invoice("in_3", sub, cus, m.ID, third, 30000, "clp", false))
	for range 3 {
		w.deliver(failed, webhookSecret)
	}
	if got := w.membership(m.ID); got.Status != payments.MembershipPaused || got.PausedBy.String != payments.PausedByPaymentFailed {
		t.Fatalf("after the failed renewal: %s by %q, want paused by payment_failed", got.Status, got.PausedBy.String)
	}
	if got := len(w.memberPacks(m)); got != 2 {
		t.Fatalf("%d periods credited after the failure, want still 2", got)
	}
	if got := w.count(`SELECT count(*) FROM activity WHERE action = 'membership.payment_failed'`); got != 1 {
		t.Errorf("%d membership.payment_failed on the trail, want 1", got)
	}

	// Cancelled (Stripe gives up, or the client cancels in the portal): final; a late invoice
	// credits nothing.
	deleted := stripetest.Event("evt_sub_deleted", "customer.subscription.deleted", stripetest.Subscription(sub, cus, m.ID, "canceled", false))
	w.mustDeliver(deleted, payments.OutcomeMembershipCancelled)
	w.mustDeliver(deleted, payments.OutcomeDuplicate)
	w.mustDeliver(stripetest.Event("evt_inv_3_paid_late", "invoice.paid", stripetest.Invoice("in_3", sub, cus, m.ID, third, 30000, "clp", true)), payments.OutcomeDuplicate)
	if got := w.membership(m.ID); got.Status != payments.MembershipCancelled {
		t.Fatalf("status %s, want cancelled", got.Status)
	}
	if got := len(w.memberPacks(m)); got != 2 {
		t.Errorf("%d periods credited after the cancel, want 2", got)
	}
	if _, err := w.d.Write.Exec(`UPDATE memberships SET status = 'active' WHERE id = ?`, m.ID); err == nil || !strings.Contains(err.Error(), "membership_cancelled") {
		t.Errorf("reviving a cancelled membership: %v, want membership_cancelled", err)
	}
}

// The database refuses crediting a period twice even when the application tries.
func TestMembershipPeriodCreditedOnceByTheDatabase(t *testing.T) {
	w := newWorld(t, "CLP")
	m, _ := w.member(true)
	w.mustDeliver(stripetest.Event("", "invoice.paid", stripetest.Invoice("in_1", "sub_x", "cus_x", m.ID, start, 30000, "clp", true)), payments.OutcomeMembershipRenewed)
	packs := w.memberPacks(m)
	if len(packs) != 1 || packs[0][1] != 0 {
		t.Fatalf("packs %v, want one that never expires (rollover)", packs)
	}
	_, err := w.d.Write.Exec(`INSERT INTO client_packs (client_id, service_id, sessions_total, membership_period_id, created_at, updated_at)
		SELECT client_id, service_id, 4, membership_period_id, 0, 0 FROM client_packs WHERE membership_period_id IS NOT NULL`)
	if err == nil || !strings.Contains(err.Error(), "UNIQUE") {
		t.Errorf("a second pack for the period: %v, want a UNIQUE refusal", err)
	}
}

// The owner pauses, resumes and cancels at Stripe first (the subscription's pause_collection,
// then DELETE); the client gets the customer portal.
func TestMembershipOwnerActionsAndPortal(t *testing.T) {
	w := newWorld(t, "CLP")
	m, _ := w.member(false)
	sub, cus := "sub_owner", "cus_owner"
	w.mustDeliver(stripetest.Event("", "invoice.paid", stripetest.Invoice("in_1", sub, cus, m.ID, start, 30000, "clp", true)), payments.OutcomeMembershipRenewed)
	ctx := context.Background()
	if err := w.online.ChangeMembership(ctx, m.ID, payments.ActPause); err != nil {
		t.Fatal(err)
	}
	if got := w.membership(m.ID); got.Status != payments.MembershipPaused || got.PausedBy.String != payments.PausedByOwner {
		t.Errorf("after pause: %s by %q", got.Status, got.PausedBy.String)
	}
	calls := w.stripe.Requests(http.MethodPost, "/v1/subscriptions/"+sub)
	if len(calls) != 1 || calls[0].Form.Get("pause_collection[behavior]") != "void" {
		t.Fatalf("pause calls %v", calls)
	}
	if err := w.online.ChangeMembership(ctx, m.ID, payments.ActResume); err != nil {
		t.Fatal(err)
	}
	if err := w.online.ChangeMembership(ctx, m.ID, payments.ActCancel); err != nil {
		t.Fatal(err)
	}
	if got := len(w.stripe.Requests(http.MethodDelete, "/v1/subscriptions/"+sub)); got != 1 {
		t.Errorf("%d cancel calls, want 1", got)
	}
	if got := w.membership(m.ID); got.Status != payments.MembershipCancelled {
		t.Errorf("status %s, want cancelled", got.Status)
	}
	if err := w.online.ChangeMembership(ctx, m.ID, payments.ActResume); err == nil {
		t.Errorf("resuming a cancelled membership was accepted")
	}
	url, err := w.online.MembershipPortal(ctx, m.UUID)
	if err != nil || url == "" {
		t.Fatalf("portal: %q %v", url, err)
	}
	portal := w.stripe.Requests(http.MethodPost, "/v1/billing_portal/sessions")
	if len(portal) != 1 || portal[0].Form.Get("customer") != cus || portal[0].Form.Get("return_url") != publicURL+"/membership/"+m.UUID {
		t.Errorf("portal call %+v", portal)
	}
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// Each paid period is recorded as a sale — the plan as its one line, for what Stripe charged,
// paid online, with the client's receipt — exactly once: the renewal delivered three times
// (twice at once, once under another event id) and the periods reported out of order (the
// second month's invoice before the first's).
func TestMembershipPeriodSaleOnce(t *testing.T) {
	w := newWorld(t, "CLP")
	m, _ := w.member(false)
	sub, cus := "sub_sale", "cus_sale"
	first := start
	second := first.AddDate(0, 1, 0)
	paid2 := stripetest.Event("evt_sale_2", "invoice.paid", stripetest.Invoice("in_2", sub, cus, m.ID, second, 30000, "clp", true))
	w.mustDeliver(paid2, payments.OutcomeMembershipRenewed)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); w.deliver(paid2, webhookSecret) }()
	}
	wg.Wait()
	w.mustDeliver(stripetest.Event("evt_sale_2_again", "invoice.paid", stripetest.Invoice("in_2", sub, cus, m.ID, second, 30000, "clp", true)), payments.OutcomeDuplicate)
	w.mustDeliver(stripetest.Event("evt_sale_1", "invoice.paid", stripetest.Invoice("in_1", sub, cus, m.ID, first, 30000, "clp", true)), payments.OutcomeMembershipRenewed)

	if got := w.count(`SELECT count(*) FROM membership_periods WHERE membership_id = ? AND sale_id IS NOT NULL`, m.ID); got != 2 {
		t.Fatalf("%d periods with a sale, want 2", got)
	}
	if got := w.count(`SELECT count(DISTINCT sale_id) FROM membership_periods WHERE membership_id = ?`, m.ID); got != 2 {
		t.Fatalf("%d distinct sales, want 2", got)
	}
	if got := w.count(`SELECT count(*) FROM sales s JOIN membership_periods mp ON mp.sale_id = s.id
		WHERE mp.membership_id = ? AND s.status = 'paid' AND s.paid_cents = 3000000 AND s.client_id = ?`, m.ID, w.ids["maria"]); got != 2 {
		t.Errorf("%d paid sales of 30000 pesos for María, want 2", got)
	}
	if got := w.count(`SELECT count(*) FROM cart_items ci JOIN sales s ON s.cart_id = ci.cart_id JOIN membership_periods mp ON mp.sale_id = s.id
		WHERE mp.membership_id = ? AND ci.item_type = 'membership' AND ci.item_name = 'Monthly cuts' AND ci.quantity = 1`, m.ID); got != 2 {
		t.Errorf("%d plan lines on the sales, want 2", got)
	}
	if got := w.count(`SELECT count(*) FROM transactions t JOIN membership_periods mp ON mp.sale_id = t.sale_id
		WHERE mp.membership_id = ? AND t.payment_method_id = 4 AND t.amount_cents = 3000000`, m.ID); got != 2 {
		t.Errorf("%d online transactions, want 2", got)
	}
	if got := w.count(`SELECT count(*) FROM messages ms JOIN sales s ON s.cart_id = (SELECT cart_id FROM payment_requests WHERE id = ms.payment_request_id)
		JOIN membership_periods mp ON mp.sale_id = s.id WHERE mp.membership_id = ? AND ms.kind = 'receipt'`, m.ID); got != 2 {
		t.Errorf("%d receipts, want 2", got)
	}
}
