package stripe_test

import (
	"context"
	"testing"

	"frontdesk/app/payments"
	"frontdesk/app/payments/stripe/stripetest"
	"frontdesk/ui/i18n"
)

// A plan's discount applies, while the membership is active, to the member's purchases of the
// plan's chosen services — exactly once (never over a line's own discount) and shown as its own
// line after the item at full price; not to other services, not to others, not before the first
// payment nor after the membership is cancelled.
func TestMemberDiscountAppliedOnceWhileActive(t *testing.T) {
	w := newWorld(t, "CLP")
	ctx := context.Background()
	plan, err := payments.SavePlan(ctx, w.d, w.clock.Now(), 0, payments.PlanInput{
		Name: "Members", Price: "20000", DiscountPercent: 10, DiscountServices: []int64{w.ids["haircut"]},
	})
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := w.online.StartMembership(ctx, plan.ID, w.ids["maria"], "es")
	if err != nil {
		t.Fatal(err)
	}
	maria := w.ids["maria"]
	cart := func(items ...payments.ItemInput) payments.CartView {
		t.Helper()
		v, err := payments.CreateCart(ctx, w.d, w.clock.Now(), payments.CartInput{ClientID: &maria, LocationID: ptr(w.ids["location"]), Items: items})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	haircut := func() payments.ItemInput {
		return payments.ItemInput{ItemID: w.ids["haircut"], ItemType: "service", ItemName: ptr("Haircut"), UnitPrice: "15000", Quantity: 1}
	}
	if got := cart(haircut()).TotalCents(); got != 1500000 {
		t.Fatalf("pending membership: total %d, want 1500000 (no discount before the first payment)", got)
	}

	w.mustDeliver(stripetest.Event("", "invoice.paid", stripetest.Invoice("in_d1", "sub_d", "cus_d", m.ID, start, 20000, "clp", true)), payments.OutcomeMembershipRenewed)
	own := haircut()
	own.UnitDiscount, own.UnitDiscountType = ptr("1000"), ptr("amount")
	colour := payments.ItemInput{ItemID: w.ids["colour"], ItemType: "service", ItemName: ptr("Colour"), UnitPrice: "45000", Quantity: 1}
	v := cart(haircut(), own, colour)
	// 15 000 − 10 % = 13 500; 15 000 − its own 1 000 = 14 000; colour at full price.
	if got := v.TotalCents(); got != 1350000+1400000+4500000 {
		t.Fatalf("active membership: total %d, want %d", got, 1350000+1400000+4500000)
	}
	pr, err := payments.CreatePaymentRequest(ctx, w.d, w.clock.Now(), v.Cart.ID, publicURL)
	if err != nil {
		t.Fatal(err)
	}
	rv, err := payments.LoadRequest(ctx, w.d.R, pr.ID)
	if err != nil {
		t.Fatal(err)
	}
	p := i18n.NewPrinter("en", i18n.Prefs{Currency: "CLP"})
	lines := rv.Lines(p)
	var names, totals []string
	for _, l := range lines {
		names, totals = append(names, l.Name), append(totals, l.Total)
	}
	want := []string{"Haircut", "Member discount (10 %)", "Haircut", "Colour"}
	if len(lines) != 4 || names[0] != want[0] || names[1] != want[1] || names[2] != want[2] || names[3] != want[3] ||
		totals[0] != p.Money(1500000) || totals[1] != p.Money(-150000) || totals[2] != p.Money(1400000) {
		t.Errorf("lines %q %q, want %q with the discount on its own line", names, totals, want)
	}
	saleID, err := payments.Settle(ctx, w.d, pr.ID, payments.MethodCash, w.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if got := w.count(`SELECT paid_cents FROM sales WHERE id = ?`, saleID); got != 1350000+1400000+4500000 {
		t.Errorf("sale paid %d, want the discounted total", got)
	}

	w.mustDeliver(stripetest.Event("", "customer.subscription.deleted", stripetest.Subscription("sub_d", "cus_d", m.ID, "canceled", false)), payments.OutcomeMembershipCancelled)
	if got := cart(haircut()).TotalCents(); got != 1500000 {
		t.Errorf("cancelled membership: total %d, want 1500000", got)
	}
}

func ptr[T any](v T) *T { return &v }
