package payments

import (
	"context"
	"errors"
	"fmt"
	"net/textproto"
	"time"

	"frontdesk/ui/i18n"
)

// Provider is an online payment service as frontdesk uses it: a hosted checkout page per payment
// request, signed notifications about it, refunds, and reads for reconciliation. Everything
// else — which request, how much, settlement, events, flags — is this package's, so a provider
// is one small file (app/payments/stripe is the model; docs/payments.md "Adding a provider"
// says what such a file must do).
//
// Amounts cross this interface in hundredths of the currency unit (the storage convention) with
// upper-case ISO 4217 codes; converting to the provider's own units is the provider's job.
type Provider interface {
	// CreateCheckout opens a hosted checkout. Calling it again with the same IdempotencyKey and
	// parameters must return the same checkout, not a second one.
	CreateCheckout(ctx context.Context, p CheckoutParams) (CheckoutState, error)
	// Checkout reads a checkout's current state (reconciliation; the customer's return).
	Checkout(ctx context.Context, id string) (CheckoutState, error)
	// ExpireCheckout closes an open checkout so it can no longer be paid and returns its final
	// state — which is paid if the customer finished first.
	ExpireCheckout(ctx context.Context, id string) (CheckoutState, error)
	// Refund returns part or all of a payment. The same IdempotencyKey returns the same refund.
	Refund(ctx context.Context, p RefundParams) (RefundState, error)
	// ParseEvent verifies a notification's signature and says what it reports. A notification
	// that fails verification is ErrBadSignature; one about something else is an Event with
	// neither Checkout nor Refund.
	ParseEvent(payload []byte, header textproto.MIMEHeader) (Event, error)
	// Test checks that the credentials work and that the provider notifies notifyURL (where
	// it can tell).
	Test(ctx context.Context, notifyURL string) (TestResult, error)
}

// Registration is a provider compiled into the binary: how to make one from stored
// credentials, how to check credentials an owner types, and its limits. app/server.go passes
// the list to NewOnline; its Name is the setting's value and the notification path
// /{name}/webhook.
type Registration struct {
	Name  string // "stripe": a lower-case identifier
	Label string // "Stripe": how the admin names it (a brand, not translated)
	// New makes a provider from credentials.
	New func(Credentials) (Provider, error)
	// CheckCredentials says what is wrong with credentials the owner typed (by field:
	// "secret_key", "webhook_secret"); an empty value means "keep the stored one" and is not
	// checked.
	CheckCredentials func(Credentials) map[string]i18n.Msg
	// MinLifetime and MaxLifetime bound how long after creation a checkout may expire
	// (Stripe: 30 minutes to 24 hours).
	MinLifetime, MaxLifetime time.Duration
	// Hint describes the credentials with a secret's first and last characters only.
	Hint func(secret string) string
	// CheckoutOrigins are where the provider's hosted pages are served (Stripe: Checkout,
	// "https://checkout.stripe.com", and the customer portal, "https://billing.stripe.com"):
	// the forms that lead there may be redirected there.
	CheckoutOrigins []string
	// Cards: its Provider is also a CardProvider (saves cards, charges them off session).
	Cards bool
}

// Credentials are what a provider needs: an API key and the secret its notifications are
// signed with.
type Credentials struct {
	SecretKey     string
	WebhookSecret string
}

// CheckoutParams is one hosted checkout to open.
type CheckoutParams struct {
	RequestID      int64
	RequestUUID    string
	Lines          []CheckoutLine
	AmountCents    int64  // Σ lines: what the customer pays now
	Currency       string // ISO 4217, upper case
	SuccessURL     string
	CancelURL      string
	ExpiresAt      time.Time
	IdempotencyKey string
	Language       string // the business's language, for the provider's page
	// SaveCard asks the provider to keep the card paid with for charges without the customer
	// (a deposit whose booking also needs a card on file; CardProvider.PaymentCard reads it).
	SaveCard bool
}

// CheckoutLine is one line of the hosted checkout.
type CheckoutLine struct {
	Name      string
	Quantity  int64
	UnitCents int64
}

// Checkout statuses as providers report them.
const (
	CheckoutOpen     = "open"
	CheckoutComplete = "complete"
	CheckoutExpired  = "expired"
)

// CheckoutState is what a provider says about a checkout.
type CheckoutState struct {
	ID     string
	URL    string
	Status string // CheckoutOpen, CheckoutComplete, CheckoutExpired
	// Paid: the money is taken. A complete checkout may be unpaid while a slow payment method
	// settles; Failed: such a payment failed.
	Paid, Failed bool
	// AmountCents and Currency are what the checkout charges; AmountCents is -1 when the
	// provider's amount has no exact value in hundredths.
	AmountCents int64
	Currency    string
	// RequestID and RequestUUID are the payment request the checkout names (its metadata).
	RequestID   int64
	RequestUUID string
	PaymentRef  string // the payment refunds refer to
	ExpiresAt   time.Time
	// Mode is "setup" for a checkout that saves a card (CardProvider), whose SetupRef names
	// what saved it and CustomerRef whom it was saved for; else "payment" or "".
	Mode, SetupRef, CustomerRef string
	// Card is the card a paid checkout that saves one kept (CheckoutParams.SaveCard), read from
	// the provider by Online before the transaction that settles it; nil otherwise.
	Card *Card
}

// RefundParams is a refund to make.
type RefundParams struct {
	PaymentRef     string
	AmountCents    int64
	Currency       string
	IdempotencyKey string
}

// Refund statuses, mirrored by the CHECK on refunds.status.
const (
	RefundPending   = "pending"
	RefundSucceeded = "succeeded"
	RefundFailed    = "failed"
	RefundCanceled  = "canceled"
)

// RefundState is what a provider says about a refund.
type RefundState struct {
	ID          string
	PaymentRef  string
	AmountCents int64
	Status      string
}

// Event is a verified notification.
type Event struct {
	ID       string
	Type     string
	Checkout *CheckoutState // a checkout changed
	Refund   *RefundState   // a refund changed
	// Subscription: a membership's subscription started, renewed, failed, changed or ended
	// (subscriptions.go).
	Subscription *SubscriptionEvent
	// Charge: an off-session charge (a fee, fees.go) succeeded, failed or needs the client.
	Charge *ChargeEvent
}

// TestResult is what a connection test found.
type TestResult struct {
	Live    bool       // the key moves real money
	Account string     // the account's name or id, when the provider says
	Notes   []i18n.Msg // things the owner should fix (a missing notification endpoint, …)
}

// ErrBadSignature is a notification that does not verify: forged, damaged, or signed with
// another secret.
var ErrBadSignature = errors.New("notification signature does not verify")

// ErrUnreadableEvent is a notification that verifies but cannot be read.
var ErrUnreadableEvent = errors.New("notification cannot be read")

// ProviderError is a provider refusing or failing a call. Temporary errors (network, timeouts,
// the provider's 5xx and rate limits) may succeed when tried again; others will not.
type ProviderError struct {
	Temporary bool
	Code      string // the provider's code, if any
	Message   string
	Err       error
}

func (e *ProviderError) Error() string {
	kind := "refused"
	if e.Temporary {
		kind = "unavailable"
	}
	return fmt.Sprintf("payment provider %s: %s (%s)", kind, e.Message, e.Code)
}

func (e *ProviderError) Unwrap() error { return e.Err }
