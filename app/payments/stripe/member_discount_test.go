package stripe_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"frontdesk/app/payments"
	"frontdesk/app/payments/stripe/stripetest"
	"frontdesk/db"
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

// A booking settled at the desk gets the member's discount as a cart does (the request was
// raised before the membership's first payment, at full price): the sale is charged the
// discounted price and the cart line carries the discount as its own line, once — a line with
// its own discount keeps it. A non-member pays in full, and so does a member whose membership
// is paused.
func TestMemberDiscountAtTheDesk(t *testing.T) {
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
	w.exec(`INSERT INTO clients (first_name, last_name, email, created_at, updated_at) VALUES ('Juan', 'Pérez', 'juan@example.com', 0, 0)`)
	juan := w.count(`SELECT id FROM clients WHERE first_name = 'Juan'`)
	santiago, _ := time.LoadLocation("America/Santiago")
	tomorrow := start.In(santiago).AddDate(0, 0, 1)
	// haircut books a haircut for client at hour:minute tomorrow, with discount of its own.
	haircut := func(hour, minute int, discount string) payments.ItemInput {
		at := time.Date(tomorrow.Year(), tomorrow.Month(), tomorrow.Day(), hour, minute, 0, 0, santiago).UTC().Format(time.RFC3339)
		it := payments.ItemInput{ItemID: w.ids["haircut"], ItemType: "service", ItemName: ptr("Haircut"), UnitPrice: "15000", Quantity: 1,
			Instances: []payments.InstanceInput{{InstanceType: "booking", StartTime: &at, ProviderID: ptr(w.ids["ana"])}}}
		if discount != "" {
			it.UnitDiscount, it.UnitDiscountType = ptr(discount), ptr("amount")
		}
		return it
	}
	request := func(client int64, items ...payments.ItemInput) db.PaymentRequest {
		t.Helper()
		v, err := payments.CreateCart(ctx, w.d, w.clock.Now(), payments.CartInput{ClientID: &client, LocationID: ptr(w.ids["location"]), Items: items})
		if err != nil {
			t.Fatal(err)
		}
		pr, err := payments.CreatePaymentRequest(ctx, w.d, w.clock.Now(), v.Cart.ID, publicURL)
		if err != nil {
			t.Fatal(err)
		}
		return pr
	}
	member := request(w.ids["maria"], haircut(10, 0, ""), haircut(10, 30, "1000"))
	paused := request(w.ids["maria"], haircut(12, 0, ""))
	other := request(juan, haircut(14, 0, ""))
	if member.AmountCents != 1500000+1400000 {
		t.Fatalf("request before the first payment: %d, want the full price", member.AmountCents)
	}

	w.mustDeliver(stripetest.Event("", "invoice.paid", stripetest.Invoice("in_desk1", "sub_desk", "cus_desk", m.ID, start, 20000, "clp", true)), payments.OutcomeMembershipRenewed)
	p := i18n.NewPrinter("en", i18n.Prefs{Currency: "CLP"})
	want := []string{"Haircut " + p.Money(1500000), "Member discount (10 %) " + p.Money(-150000), "Haircut " + p.Money(1400000)}
	lines := func(rv payments.RequestView) string {
		var names []string
		for _, l := range rv.Lines(p) {
			names = append(names, l.Name+" "+l.Total)
		}
		return strings.Join(names, "|")
	}
	// The desk's page, before settling, shows what the settle form will charge.
	rv, err := payments.LoadRequest(ctx, w.d.R, member.ID)
	if err == nil {
		err = rv.AtDesk(ctx, w.d.R, w.clock.Now())
	}
	if err != nil {
		t.Fatal(err)
	}
	if lines(rv) != strings.Join(want, "|") || rv.Request.AmountCents != 1350000+1400000 {
		t.Errorf("desk page lines %q amount %d, want %q for %d", lines(rv), rv.Request.AmountCents, want, 1350000+1400000)
	}
	saleID, err := payments.Settle(ctx, w.d, member.ID, payments.MethodCash, w.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	// 15 000 − 10 % = 13 500; the line with its own 1 000 off keeps it and gets no other.
	if got := w.count(`SELECT paid_cents FROM sales WHERE id = ?`, saleID); got != 1350000+1400000 {
		t.Errorf("member's sale paid %d, want %d", got, 1350000+1400000)
	}
	if got := w.count(`SELECT amount_cents FROM transactions WHERE sale_id = ?`, saleID); got != 1350000+1400000 {
		t.Errorf("member's transaction %d, want the discounted total", got)
	}
	if got := w.count(`SELECT count(*) FROM cart_items WHERE cart_id = ? AND member_plan_id = ?`, member.CartID, plan.ID); got != 1 {
		t.Errorf("%d lines name the plan, want 1", got)
	}
	if rv, err = payments.LoadRequest(ctx, w.d.R, member.ID); err != nil {
		t.Fatal(err)
	}
	if lines(rv) != strings.Join(want, "|") || rv.Request.AmountCents != 1350000+1400000 {
		t.Errorf("receipt lines %q amount %d, want %q for %d", lines(rv), rv.Request.AmountCents, want, 1350000+1400000)
	}

	saleID, err = payments.Settle(ctx, w.d, other.ID, payments.MethodCash, w.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if got := w.count(`SELECT paid_cents FROM sales WHERE id = ?`, saleID); got != 1500000 {
		t.Errorf("non-member's sale paid %d, want 1500000", got)
	}

	if err := w.online.ChangeMembership(ctx, m.ID, payments.ActPause); err != nil {
		t.Fatal(err)
	}
	saleID, err = payments.Settle(ctx, w.d, paused.ID, payments.MethodCardTerminal, w.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if got := w.count(`SELECT paid_cents FROM sales WHERE id = ?`, saleID); got != 1500000 {
		t.Errorf("paused member's sale paid %d, want 1500000", got)
	}
	if got := w.count(`SELECT count(*) FROM cart_items WHERE cart_id = ? AND member_plan_id IS NOT NULL`, paused.CartID); got != 0 {
		t.Errorf("paused membership: %d lines name a plan, want 0", got)
	}
}
