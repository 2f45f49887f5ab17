package stripe

import (
	"context"
	"encoding/json"

	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/payments"
)

// Memberships through Stripe Billing (docs/payments.md "Memberships"): a Checkout Session in
// subscription mode with a monthly price made on the fly (price_data with recurring), the
// customer portal for the subscriber, and the subscription's own pause and cancel. The
// membership's id and uuid ride in the session's and the subscription's metadata, which Stripe
// copies onto every invoice of the subscription, so each report names its membership.

// MetaMembershipID and MetaMembershipUUID are the metadata keys of a membership's session and
// subscription.
const (
	MetaMembershipID   = "membership_id"
	MetaMembershipUUID = "membership_uuid"
)

var _ payments.SubscriptionProvider = (*provider)(nil)

func (p *provider) CreateSubscriptionCheckout(ctx context.Context, s payments.SubscriptionParams) (payments.CheckoutState, error) {
	form := url.Values{
		"mode":                                   {"subscription"},
		"success_url":                            {s.SuccessURL},
		"cancel_url":                             {s.CancelURL},
		"client_reference_id":                    {s.MembershipUUID},
		"locale":                                 {locale(s.Language)},
		"line_items[0][quantity]":                {"1"},
		"line_items[0][price_data][currency]":    {strings.ToLower(s.Currency)},
		"line_items[0][price_data][unit_amount]": {strconv.FormatInt(toMinor(s.Currency, s.AmountCents), 10)},
		"line_items[0][price_data][recurring][interval]": {"month"},
		"line_items[0][price_data][product_data][name]":  {s.PlanName},
		"adaptive_pricing[enabled]":                      {"false"},
	}
	if s.Email != "" {
		form.Set("customer_email", s.Email)
	}
	for _, prefix := range []string{"metadata", "subscription_data[metadata]"} {
		form.Set(prefix+"["+MetaMembershipID+"]", strconv.FormatInt(s.MembershipID, 10))
		form.Set(prefix+"["+MetaMembershipUUID+"]", s.MembershipUUID)
	}
	var cs checkoutSession
	if err := p.client.call(ctx, http.MethodPost, "/v1/checkout/sessions", form, s.IdempotencyKey, &cs); err != nil {
		return payments.CheckoutState{}, providerError(err)
	}
	return sessionState(&cs), nil
}

func (p *provider) PortalURL(ctx context.Context, customerRef, returnURL string) (string, error) {
	var out struct {
		URL string `json:"url"`
	}
	form := url.Values{"customer": {customerRef}, "return_url": {returnURL}}
	if err := p.client.call(ctx, http.MethodPost, "/v1/billing_portal/sessions", form, "", &out); err != nil {
		return "", providerError(err)
	}
	return out.URL, nil
}

func (p *provider) CancelSubscription(ctx context.Context, ref string) error {
	var out subscription
	if err := p.client.call(ctx, http.MethodDelete, "/v1/subscriptions/"+url.PathEscape(ref), nil, "", &out); err != nil {
		return providerError(err)
	}
	return nil
}

// PauseSubscription pauses collection with behavior void (no invoice is paid, so nothing is
// credited while paused), or clears the pause.
func (p *provider) PauseSubscription(ctx context.Context, ref string, pause bool) error {
	form := url.Values{"pause_collection": {""}}
	if pause {
		form = url.Values{"pause_collection[behavior]": {"void"}}
	}
	var out subscription
	if err := p.client.call(ctx, http.MethodPost, "/v1/subscriptions/"+url.PathEscape(ref), form, "", &out); err != nil {
		return providerError(err)
	}
	return nil
}

// Subscription events frontdesk acts on.
const (
	eventInvoicePaid          = "invoice.paid"
	eventInvoiceFailed        = "invoice.payment_failed"
	eventSubscriptionDeleted  = "customer.subscription.deleted"
	eventSubscriptionUpdated  = "customer.subscription.updated"
	modeSubscription          = "subscription"
	subscriptionStatusEnded   = "canceled"
	subscriptionStatusExpired = "incomplete_expired"
)

type subscription struct {
	ID              string            `json:"id"`
	Status          string            `json:"status"`
	Customer        expandable        `json:"customer"`
	Metadata        map[string]string `json:"metadata"`
	PauseCollection *struct {
		Behavior string `json:"behavior"`
	} `json:"pause_collection"`
}

// invoice reads both shapes Stripe has used: the subscription at the top (before 2025-03-31)
// or under parent.subscription_details (since).
type invoice struct {
	ID                  string     `json:"id"`
	Customer            expandable `json:"customer"`
	Currency            string     `json:"currency"`
	AmountPaid          int64      `json:"amount_paid"`
	AmountDue           int64      `json:"amount_due"`
	Subscription        expandable `json:"subscription"`
	SubscriptionDetails *struct {
		Metadata map[string]string `json:"metadata"`
	} `json:"subscription_details"`
	Parent *struct {
		SubscriptionDetails *struct {
			Subscription expandable        `json:"subscription"`
			Metadata     map[string]string `json:"metadata"`
		} `json:"subscription_details"`
	} `json:"parent"`
	Lines struct {
		Data []struct {
			Period struct {
				Start int64 `json:"start"`
				End   int64 `json:"end"`
			} `json:"period"`
		} `json:"data"`
	} `json:"lines"`
}

type subscriptionSession struct {
	checkoutSession
	Mode         string     `json:"mode"`
	Subscription expandable `json:"subscription"`
	Customer     expandable `json:"customer"`
}

// parseSubscription reads a subscription event; ok is false for events about something else.
func parseSubscription(ev *event) (st *payments.SubscriptionEvent, ok bool, err error) {
	switch ev.Type {
	case eventCompleted:
		var s subscriptionSession
		if err := json.Unmarshal(ev.Data.Object, &s); err != nil {
			return nil, true, err
		}
		if s.Mode != modeSubscription {
			return nil, false, nil
		}
		out := &payments.SubscriptionEvent{Kind: payments.SubscriptionStarted,
			SubscriptionRef: s.Subscription.ID, CustomerRef: s.Customer.ID}
		out.MembershipID, _ = strconv.ParseInt(s.Metadata[MetaMembershipID], 10, 64)
		return out, true, nil
	case eventInvoicePaid, eventInvoiceFailed:
		var in invoice
		if err := json.Unmarshal(ev.Data.Object, &in); err != nil {
			return nil, true, err
		}
		out := &payments.SubscriptionEvent{Kind: payments.SubscriptionPaid, InvoiceRef: in.ID,
			CustomerRef: in.Customer.ID, SubscriptionRef: in.Subscription.ID, Currency: strings.ToUpper(in.Currency)}
		if ev.Type == eventInvoiceFailed {
			out.Kind = payments.SubscriptionFailed
		}
		meta := map[string]string{}
		if in.SubscriptionDetails != nil {
			meta = in.SubscriptionDetails.Metadata
		}
		if in.Parent != nil && in.Parent.SubscriptionDetails != nil {
			if out.SubscriptionRef == "" {
				out.SubscriptionRef = in.Parent.SubscriptionDetails.Subscription.ID
			}
			if len(in.Parent.SubscriptionDetails.Metadata) > 0 {
				meta = in.Parent.SubscriptionDetails.Metadata
			}
		}
		if out.SubscriptionRef == "" {
			return nil, false, nil // a one-off invoice, not a subscription's
		}
		out.MembershipID, _ = strconv.ParseInt(meta[MetaMembershipID], 10, 64)
		// The period paid is the subscription line's; an invoice's own period_start/end are
		// the previous period's for a renewal.
		for _, l := range in.Lines.Data {
			if l.Period.End > l.Period.Start {
				out.PeriodStart, out.PeriodEnd = time.Unix(l.Period.Start, 0).UTC(), time.Unix(l.Period.End, 0).UTC()
				break
			}
		}
		amount := in.AmountPaid
		if out.Kind == payments.SubscriptionFailed {
			amount = in.AmountDue
		}
		if cents, ok := fromMinor(out.Currency, amount); ok {
			out.AmountCents = cents
		}
		return out, true, nil
	case eventSubscriptionDeleted, eventSubscriptionUpdated:
		var s subscription
		if err := json.Unmarshal(ev.Data.Object, &s); err != nil {
			return nil, true, err
		}
		out := &payments.SubscriptionEvent{Kind: payments.SubscriptionUpdated, SubscriptionRef: s.ID, CustomerRef: s.Customer.ID,
			Paused: s.PauseCollection != nil && s.PauseCollection.Behavior != "",
			Ended:  s.Status == subscriptionStatusEnded || s.Status == subscriptionStatusExpired}
		if ev.Type == eventSubscriptionDeleted {
			out.Kind = payments.SubscriptionCancelled
		}
		out.MembershipID, _ = strconv.ParseInt(s.Metadata[MetaMembershipID], 10, 64)
		return out, true, nil
	}
	return nil, false, nil
}
