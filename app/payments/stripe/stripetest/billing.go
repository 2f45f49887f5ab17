package stripetest

import (
	"strconv"
	"time"
)

// Subscriptions as Stripe sends them in events, for the membership tests: the shapes of API
// version 2026-03-25.dahlia (the subscription of an invoice under parent.subscription_details).

// Invoice is a subscription's invoice for the month from start, paid or not, for amount (in
// the currency's minor unit), with the subscription's metadata naming membershipID.
func Invoice(id, subscriptionID, customerID string, membershipID int64, start time.Time, amount int64, currency string, paid bool) map[string]any {
	status, amountPaid := "open", int64(0)
	if paid {
		status, amountPaid = "paid", amount
	}
	end := start.AddDate(0, 1, 0)
	return map[string]any{
		"id": id, "object": "invoice", "customer": customerID, "currency": currency, "status": status,
		"amount_due": amount, "amount_paid": amountPaid, "billing_reason": "subscription_cycle",
		"period_start": start.AddDate(0, -1, 0).Unix(), "period_end": start.Unix(),
		"parent": map[string]any{"type": "subscription_details", "subscription_details": map[string]any{
			"subscription": subscriptionID, "metadata": map[string]any{"membership_id": strconv.FormatInt(membershipID, 10)},
		}},
		"lines": map[string]any{"object": "list", "data": []any{map[string]any{
			"id": "il_" + randomID(), "object": "line_item", "amount": amount, "currency": currency,
			"period": map[string]any{"start": start.Unix(), "end": end.Unix()},
		}}},
	}
}

// Subscription is a subscription object in status ("active", "canceled", …), paused or not,
// with its metadata naming membershipID.
func Subscription(id, customerID string, membershipID int64, status string, paused bool) map[string]any {
	s := map[string]any{
		"id": id, "object": "subscription", "customer": customerID, "status": status, "pause_collection": nil,
		"metadata": map[string]any{"membership_id": strconv.FormatInt(membershipID, 10)},
	}
	if paused {
		s["pause_collection"] = map[string]any{"behavior": "void"}
	}
	return s
}
