package payments

import (
	"context"
	"time"
)

// SubscriptionProvider is a Provider that also sells recurring plans (memberships.go): a hosted
// checkout in subscription mode, the provider's own page where the subscriber manages it, and
// the owner's pause, resume and cancel. Stripe implements it (app/payments/stripe
// subscriptions.go).
type SubscriptionProvider interface {
	// CreateSubscriptionCheckout opens a hosted checkout that starts a monthly subscription.
	// The same IdempotencyKey returns the same checkout.
	CreateSubscriptionCheckout(ctx context.Context, p SubscriptionParams) (CheckoutState, error)
	// PortalURL is a short-lived link to the provider's page where the subscriber pauses,
	// cancels or changes the card of their subscriptions, coming back to returnURL.
	PortalURL(ctx context.Context, customerRef, returnURL string) (string, error)
	// CancelSubscription ends a subscription now.
	CancelSubscription(ctx context.Context, ref string) error
	// PauseSubscription stops (pause) or restarts collecting a subscription's payments.
	PauseSubscription(ctx context.Context, ref string, pause bool) error
}

// SubscriptionParams is a subscription checkout to open.
type SubscriptionParams struct {
	MembershipID   int64
	MembershipUUID string
	PlanName       string
	AmountCents    int64 // per month
	Currency       string
	Email          string // the subscriber's, prefilled
	SuccessURL     string
	CancelURL      string
	IdempotencyKey string
	Language       string
}

// Kinds of subscription reports.
const (
	SubscriptionStarted   = "started"   // the subscription checkout completed
	SubscriptionPaid      = "paid"      // a period's invoice was paid (the first one and every renewal)
	SubscriptionFailed    = "failed"    // a period's payment failed
	SubscriptionCancelled = "cancelled" // the subscription ended
	SubscriptionUpdated   = "updated"   // paused or resumed (in the provider's page, say)
)

// SubscriptionEvent is what a provider reports about a subscription.
type SubscriptionEvent struct {
	Kind            string
	MembershipID    int64 // from the metadata frontdesk set, when the report carries it
	SubscriptionRef string
	CustomerRef     string
	InvoiceRef      string
	// The period an invoice pays (SubscriptionPaid, SubscriptionFailed).
	PeriodStart, PeriodEnd time.Time
	AmountCents            int64
	Currency               string
	Paused                 bool // SubscriptionUpdated: collection is paused
	Ended                  bool // SubscriptionUpdated: the subscription is over (canceled)
}
