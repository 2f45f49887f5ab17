// Package stripe is the Stripe provider of app/payments: Stripe Checkout Sessions for payment
// requests, Stripe's signed webhook events, refunds and reads, through a small client of
// Stripe's API over net/http (client.go) and Stripe's signature scheme (signature.go). It only
// translates — every decision (what is owed, settlement, flags) is
// app/payments's. docs/payments.md says how to set Stripe up and what each event does.
package stripe

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/payments"
	"frontdesk/ui/i18n"
)

// Name is the provider's name: the setting's value and the notification path /stripe/webhook.
const Name = "stripe"

// DefaultAPIURL is Stripe's API.
const DefaultAPIURL = "https://api.stripe.com"

// Metadata keys frontdesk puts on every Checkout Session and its PaymentIntent.
const (
	MetaRequestID   = "payment_request_id"
	MetaRequestUUID = "payment_request_uuid"
)

// Stripe's bounds on a Checkout Session's expires_at: 30 minutes to 24 hours after creation.
const (
	minLifetime = 30 * time.Minute
	maxLifetime = 24 * time.Hour
)

// Config is where and how to reach Stripe.
type Config struct {
	// APIURL is Stripe's API (DefaultAPIURL when empty); tests and local development point it
	// at stripe-mock (docs/payments.md "Test mode").
	APIURL string
	// HTTPClient makes the calls (a client with a 30 s timeout when nil).
	HTTPClient *http.Client
}

// Registration is the Stripe provider for payments.NewOnline.
func Registration(cfg Config) payments.Registration {
	if cfg.APIURL == "" {
		cfg.APIURL = DefaultAPIURL
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 30 * time.Second}
	}
	return payments.Registration{
		Name: Name, Label: "Stripe",
		New:              func(c payments.Credentials) (payments.Provider, error) { return newProvider(cfg, c), nil },
		CheckCredentials: checkCredentials,
		MinLifetime:      minLifetime, MaxLifetime: maxLifetime,
		Hint: hint, CheckoutOrigins: []string{"https://checkout.stripe.com", "https://billing.stripe.com"}, Cards: true,
	}
}

// checkCredentials checks the shape of keys as Stripe issues them: secret keys sk_test_/sk_live_
// (or restricted rk_…), webhook signing secrets whsec_. Publishable keys (pk_…) are the usual
// mistake and are named.
func checkCredentials(c payments.Credentials) map[string]i18n.Msg {
	out := map[string]i18n.Msg{}
	if k := c.SecretKey; k != "" {
		switch {
		case strings.HasPrefix(k, "pk_"):
			out["secret_key"] = i18n.M("pay_settings.stripe.publishable_key")
		case !hasAnyPrefix(k, "sk_test_", "sk_live_", "rk_test_", "rk_live_") || len(k) < 16 || strings.ContainsAny(k, " \t\r\n"):
			out["secret_key"] = i18n.M("pay_settings.stripe.secret_key_shape")
		}
	}
	if s := c.WebhookSecret; s != "" && (!strings.HasPrefix(s, "whsec_") || len(s) < 16 || strings.ContainsAny(s, " \t\r\n")) {
		out["webhook_secret"] = i18n.M("pay_settings.stripe.webhook_secret_shape")
	}
	return out
}

func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// hint shows a key's kind and its last four characters: "sk_test_…4242".
func hint(secret string) string {
	if len(secret) < 12 {
		return "…"
	}
	kind := secret[:strings.LastIndex(secret[:min(len(secret), 8)], "_")+1]
	return kind + "…" + secret[len(secret)-4:]
}

type provider struct {
	client *client
	creds  payments.Credentials
}

func newProvider(cfg Config, c payments.Credentials) *provider {
	return &provider{client: newClient(cfg, c.SecretKey), creds: c}
}

// CreateCheckout creates a Checkout Session in payment mode with one line per item, in the
// business's currency, with Adaptive Pricing off (the customer pays exactly the amount and
// currency asked, so the webhook's amount can be checked against it).
func (p *provider) CreateCheckout(ctx context.Context, c payments.CheckoutParams) (payments.CheckoutState, error) {
	currency := strings.ToLower(c.Currency)
	form := url.Values{
		"mode":                      {"payment"},
		"success_url":               {c.SuccessURL},
		"cancel_url":                {c.CancelURL},
		"client_reference_id":       {c.RequestUUID},
		"expires_at":                {strconv.FormatInt(c.ExpiresAt.Unix(), 10)},
		"adaptive_pricing[enabled]": {"false"},
		"locale":                    {locale(c.Language)},
	}
	for _, prefix := range []string{"metadata", "payment_intent_data[metadata]"} {
		form.Set(prefix+"["+MetaRequestID+"]", strconv.FormatInt(c.RequestID, 10))
		form.Set(prefix+"["+MetaRequestUUID+"]", c.RequestUUID)
	}
	if c.SaveCard {
		// The card paid with is kept on a Customer for charges without the customer (the
		// cancellation policy's fees): Stripe asks for the consent this needs on its page.
		form.Set("payment_intent_data[setup_future_usage]", "off_session")
		form.Set("customer_creation", "always")
	}
	for i, l := range c.Lines {
		item := fmt.Sprintf("line_items[%d]", i)
		form.Set(item+"[quantity]", strconv.FormatInt(l.Quantity, 10))
		form.Set(item+"[price_data][currency]", currency)
		form.Set(item+"[price_data][unit_amount]", strconv.FormatInt(toMinor(c.Currency, l.UnitCents), 10))
		form.Set(item+"[price_data][product_data][name]", l.Name)
	}
	var s checkoutSession
	if err := p.client.call(ctx, http.MethodPost, "/v1/checkout/sessions", form, c.IdempotencyKey, &s); err != nil {
		return payments.CheckoutState{}, providerError(err)
	}
	return sessionState(&s), nil
}

// locale is the Checkout page's language: the business's, where Stripe has it (Latin American
// Spanish for es, as the catalogs are), else Stripe's guess from the browser.
func locale(lang string) string {
	switch lang {
	case "es":
		return "es-419"
	case "en":
		return "en"
	}
	return "auto"
}

func (p *provider) Checkout(ctx context.Context, id string) (payments.CheckoutState, error) {
	var s checkoutSession
	if err := p.client.call(ctx, http.MethodGet, "/v1/checkout/sessions/"+url.PathEscape(id), nil, "", &s); err != nil {
		return payments.CheckoutState{}, providerError(err)
	}
	return sessionState(&s), nil
}

// ExpireCheckout expires an open session. Stripe refuses to expire one that is no longer open
// (complete, or already expired); then the session as it is is the answer.
func (p *provider) ExpireCheckout(ctx context.Context, id string) (payments.CheckoutState, error) {
	var s checkoutSession
	err := p.client.call(ctx, http.MethodPost, "/v1/checkout/sessions/"+url.PathEscape(id)+"/expire", nil, "", &s)
	var se *Error
	if errors.As(err, &se) && se.Type == errorTypeInvalidRequest && se.HTTPStatusCode != http.StatusNotFound {
		return p.Checkout(ctx, id)
	}
	if err != nil {
		return payments.CheckoutState{}, providerError(err)
	}
	return sessionState(&s), nil
}

func (p *provider) Refund(ctx context.Context, r payments.RefundParams) (payments.RefundState, error) {
	form := url.Values{
		"payment_intent": {r.PaymentRef},
		"amount":         {strconv.FormatInt(toMinor(r.Currency, r.AmountCents), 10)},
	}
	var ref refund
	if err := p.client.call(ctx, http.MethodPost, "/v1/refunds", form, r.IdempotencyKey, &ref); err != nil {
		return payments.RefundState{}, providerError(err)
	}
	return refundState(&ref), nil
}

// Checkout Session and refund events frontdesk acts on (docs/payments.md "What each event does").
const (
	eventCompleted      = "checkout.session.completed"
	eventAsyncSucceeded = "checkout.session.async_payment_succeeded"
	eventAsyncFailed    = "checkout.session.async_payment_failed"
	eventExpired        = "checkout.session.expired"
	// An off-session charge (a fee, cards.go ChargeCard).
	eventIntentSucceeded = "payment_intent.succeeded"
	eventIntentFailed    = "payment_intent.payment_failed"
	eventIntentAction    = "payment_intent.requires_action"
)

// ParseEvent verifies the Stripe-Signature header (signature.go: HMAC-SHA256 with the webhook
// signing secret, and a timestamp at most 5 minutes old, against replays). Events are read
// whatever API version the endpoint sends: the fields used (status, payment_status,
// amount_total, currency, metadata, payment_intent, expires_at) mean the same in every version.
func (p *provider) ParseEvent(payload []byte, header textproto.MIMEHeader) (payments.Event, error) {
	if err := verifySignature(payload, header.Get("Stripe-Signature"), p.creds.WebhookSecret, time.Now()); err != nil {
		return payments.Event{}, fmt.Errorf("%w: %v", payments.ErrBadSignature, err)
	}
	var ev event
	switch err := json.Unmarshal(payload, &ev); {
	case err != nil:
		return payments.Event{}, fmt.Errorf("%w: %v", payments.ErrUnreadableEvent, err)
	case ev.Object != "event":
		return payments.Event{}, fmt.Errorf("%w: object %q, want an event", payments.ErrUnreadableEvent, ev.Object)
	case ev.Data == nil:
		return payments.Event{}, fmt.Errorf("%w: no data", payments.ErrUnreadableEvent)
	}
	out := payments.Event{ID: ev.ID, Type: ev.Type}
	// Memberships: a subscription checkout's completion, its invoices, its changes.
	if sub, ok, err := parseSubscription(&ev); err != nil {
		return payments.Event{}, fmt.Errorf("%w: %v", payments.ErrUnreadableEvent, err)
	} else if ok {
		out.Subscription = sub
		return out, nil
	}
	switch out.Type {
	case eventCompleted, eventAsyncSucceeded, eventAsyncFailed, eventExpired:
		var s checkoutSession
		if err := json.Unmarshal(ev.Data.Object, &s); err != nil {
			return payments.Event{}, fmt.Errorf("%w: %v", payments.ErrUnreadableEvent, err)
		}
		st := sessionState(&s)
		st.Failed = out.Type == eventAsyncFailed
		out.Checkout = &st
	case eventIntentSucceeded, eventIntentFailed, eventIntentAction:
		var pi paymentIntent
		if err := json.Unmarshal(ev.Data.Object, &pi); err != nil {
			return payments.Event{}, fmt.Errorf("%w: %v", payments.ErrUnreadableEvent, err)
		}
		out.Charge = intentCharge(out.Type, &pi)
	case "refund.created", "refund.updated", "refund.failed", "charge.refund.updated":
		var r refund
		if err := json.Unmarshal(ev.Data.Object, &r); err != nil {
			return payments.Event{}, fmt.Errorf("%w: %v", payments.ErrUnreadableEvent, err)
		}
		st := refundState(&r)
		out.Refund = &st
	}
	return out, nil
}

// Test reads the balance (any working secret or restricted key may) and looks for a webhook
// endpoint at notifyURL with the checkout events enabled; a key that may not list endpoints
// gets a note instead.
func (p *provider) Test(ctx context.Context, notifyURL string) (payments.TestResult, error) {
	var b balance
	if err := p.client.call(ctx, http.MethodGet, "/v1/balance", nil, "", &b); err != nil {
		return payments.TestResult{}, providerError(err)
	}
	res := payments.TestResult{Live: b.Livemode}
	found, events := false, map[string]bool{}
	page := url.Values{"limit": {"100"}}
	for more := true; more; {
		var list webhookEndpointList
		if err := p.client.call(ctx, http.MethodGet, "/v1/webhook_endpoints", page, "", &list); err != nil {
			res.Notes = append(res.Notes, i18n.M("pay_settings.stripe.cannot_list_endpoints"))
			return res, nil
		}
		for _, ep := range list.Data {
			if ep.URL == notifyURL && ep.Status != "disabled" {
				found = true
				for _, e := range ep.EnabledEvents {
					events[e] = true
				}
			}
		}
		more = list.HasMore && len(list.Data) > 0
		if more {
			page.Set("starting_after", list.Data[len(list.Data)-1].ID)
		}
	}
	switch {
	case !found:
		res.Notes = append(res.Notes, i18n.M("pay_settings.stripe.no_endpoint", "url", notifyURL))
	case !events["*"] && !(events[eventCompleted] && events[eventExpired]):
		res.Notes = append(res.Notes, i18n.M("pay_settings.stripe.missing_events", "events", eventCompleted+", "+eventExpired))
	}
	return res, nil
}

// sessionState reads what frontdesk needs from a Checkout Session.
func sessionState(s *checkoutSession) payments.CheckoutState {
	st := payments.CheckoutState{
		ID: s.ID, URL: s.URL, Status: s.Status, Currency: strings.ToUpper(s.Currency),
		Paid:        s.PaymentStatus == "paid",
		RequestUUID: s.Metadata[MetaRequestUUID],
	}
	if s.ExpiresAt > 0 {
		st.ExpiresAt = time.Unix(s.ExpiresAt, 0).UTC()
	}
	st.RequestID, _ = strconv.ParseInt(s.Metadata[MetaRequestID], 10, 64)
	if cents, ok := fromMinor(st.Currency, s.AmountTotal); ok {
		st.AmountCents = cents
	} else {
		st.AmountCents = -1
	}
	st.PaymentRef = s.PaymentIntent.ID
	st.Mode, st.SetupRef, st.CustomerRef = s.Mode, s.SetupIntent.ID, s.Customer.ID
	return st
}

func refundState(r *refund) payments.RefundState {
	st := payments.RefundState{ID: r.ID, Status: r.Status, PaymentRef: r.PaymentIntent.ID}
	if cents, ok := fromMinor(r.Currency, r.Amount); ok {
		st.AmountCents = cents
	}
	switch st.Status {
	case payments.RefundPending, payments.RefundSucceeded, payments.RefundFailed, payments.RefundCanceled:
	default: // requires_action, and anything newer: not final yet
		st.Status = payments.RefundPending
	}
	return st
}

// providerError sorts Stripe's errors into temporary (try again: network, rate limits, Stripe's
// 5xx, a concurrent request with the same idempotency key) and final ones.
func providerError(err error) error {
	var se *Error
	if !errors.As(err, &se) {
		return &payments.ProviderError{Temporary: true, Message: err.Error(), Err: err}
	}
	temporary := se.Type == errorTypeAPI || se.Type == errorTypeRateLimit ||
		se.HTTPStatusCode >= 500 || se.HTTPStatusCode == http.StatusConflict || se.HTTPStatusCode == http.StatusTooManyRequests
	code := cmp.Or(se.Code, se.Type)
	return &payments.ProviderError{Temporary: temporary, Code: code, Message: se.Msg, Err: err}
}
