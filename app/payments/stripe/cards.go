package stripe

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"frontdesk/app/payments"
)

// Cards: a Customer per client, Checkout in setup mode to save a card, the SetupIntent read
// back for the card's brand and last four digits, and off-session PaymentIntents that charge it
// (docs/payments.md "Card on file", "Cancellation fees").

var _ payments.CardProvider = (*provider)(nil)

// CreateCustomer creates the Stripe Customer a client's cards are saved to.
func (p *provider) CreateCustomer(ctx context.Context, c payments.CustomerParams) (string, error) {
	form := url.Values{"metadata[client_id]": {strconv.FormatInt(c.ClientID, 10)}}
	if c.Name != "" {
		form.Set("name", c.Name)
	}
	if c.Email != "" {
		form.Set("email", c.Email)
	}
	var out struct {
		ID string `json:"id"`
	}
	if err := p.client.call(ctx, http.MethodPost, "/v1/customers", form, c.IdempotencyKey, &out); err != nil {
		return "", providerError(err)
	}
	return out.ID, nil
}

// CreateSetupCheckout creates a Checkout Session in setup mode for a card, for the customer,
// usable off session (setup_intent_data's usage is off_session by default).
func (p *provider) CreateSetupCheckout(ctx context.Context, c payments.SetupParams) (payments.CheckoutState, error) {
	form := url.Values{
		"mode":                    {"setup"},
		"customer":                {c.CustomerRef},
		"currency":                {strings.ToLower(c.Currency)},
		"payment_method_types[0]": {"card"},
		"success_url":             {c.SuccessURL},
		"cancel_url":              {c.CancelURL},
		"client_reference_id":     {c.RequestUUID},
		"expires_at":              {strconv.FormatInt(c.ExpiresAt.Unix(), 10)},
		"locale":                  {locale(c.Language)},
	}
	for _, prefix := range []string{"metadata", "setup_intent_data[metadata]"} {
		form.Set(prefix+"["+MetaRequestID+"]", strconv.FormatInt(c.RequestID, 10))
		form.Set(prefix+"["+MetaRequestUUID+"]", c.RequestUUID)
	}
	var s checkoutSession
	if err := p.client.call(ctx, http.MethodPost, "/v1/checkout/sessions", form, c.IdempotencyKey, &s); err != nil {
		return payments.CheckoutState{}, providerError(err)
	}
	return sessionState(&s), nil
}

// intentWithCard is a SetupIntent or a PaymentIntent read with its payment method expanded.
type intentWithCard struct {
	ID            string     `json:"id"`
	Status        string     `json:"status"`
	Customer      expandable `json:"customer"`
	PaymentMethod struct {
		ID   string `json:"id"`
		Card struct {
			Brand string `json:"brand"`
			Last4 string `json:"last4"`
		} `json:"card"`
	} `json:"payment_method"`
}

// readIntentCard reads the intent at path (its payment method expanded).
func (p *provider) readIntentCard(ctx context.Context, path string) (intentWithCard, error) {
	var in intentWithCard
	q := url.Values{"expand[0]": {"payment_method"}}
	if err := p.client.call(ctx, http.MethodGet, path, q, "", &in); err != nil {
		return in, providerError(err)
	}
	return in, nil
}

// card is the saved card an intent names.
func (in intentWithCard) card() payments.Card {
	return payments.Card{CustomerRef: in.Customer.ID, PaymentMethodRef: in.PaymentMethod.ID,
		Brand: in.PaymentMethod.Card.Brand, Last4: in.PaymentMethod.Card.Last4}
}

// SavedCard reads the SetupIntent a setup session completed.
func (p *provider) SavedCard(ctx context.Context, setupRef string) (payments.Card, error) {
	si, err := p.readIntentCard(ctx, "/v1/setup_intents/"+url.PathEscape(setupRef))
	if err != nil {
		return payments.Card{}, err
	}
	if si.Status != "succeeded" || si.PaymentMethod.ID == "" {
		return payments.Card{}, &payments.ProviderError{Code: si.Status, Message: "the card was not saved"}
	}
	return si.card(), nil
}

// ChargeCard confirms a PaymentIntent off session with the saved card. Stripe answers a card
// whose bank wants the client there with a card_error authentication_required (or a
// PaymentIntent that requires_action): NeedsAuthentication, not an error.
func (p *provider) ChargeCard(ctx context.Context, c payments.ChargeParams) (payments.ChargeResult, error) {
	form := url.Values{
		"amount":         {strconv.FormatInt(toMinor(c.Currency, c.AmountCents), 10)},
		"currency":       {strings.ToLower(c.Currency)},
		"customer":       {c.CustomerRef},
		"payment_method": {c.PaymentMethodRef},
		"off_session":    {"true"},
		"confirm":        {"true"},
		"description":    {c.Description},
	}
	for k, v := range c.Metadata {
		form.Set("metadata["+k+"]", v)
	}
	var pi paymentIntent
	err := p.client.call(ctx, http.MethodPost, "/v1/payment_intents", form, c.IdempotencyKey, &pi)
	var se *Error
	if errors.As(err, &se) && se.Type == "card_error" {
		res := payments.ChargeResult{Status: "failed", DeclineCode: cmpOr(se.Code, "card_error")}
		if se.Code == "authentication_required" {
			res.Status, res.NeedsAuthentication = "requires_action", true
		}
		return res, nil
	}
	if err != nil {
		return payments.ChargeResult{}, providerError(err)
	}
	res := payments.ChargeResult{ID: pi.ID, Status: pi.Status, Currency: strings.ToUpper(pi.Currency)}
	if cents, ok := fromMinor(res.Currency, pi.Amount); ok {
		res.AmountCents = cents
	}
	switch pi.Status {
	case "succeeded":
		res.Paid = true
	case "requires_action", "requires_confirmation":
		res.NeedsAuthentication = true
	case "requires_payment_method", "canceled":
		res.DeclineCode = pi.Status
	}
	return res, nil
}

// PaymentCard reads the PaymentIntent of a checkout that saved the card it was paid with.
func (p *provider) PaymentCard(ctx context.Context, paymentRef string) (payments.Card, error) {
	pi, err := p.readIntentCard(ctx, "/v1/payment_intents/"+url.PathEscape(paymentRef))
	if err != nil {
		return payments.Card{}, err
	}
	if pi.PaymentMethod.ID == "" {
		return payments.Card{}, &payments.ProviderError{Code: pi.Status, Message: "the payment has no card"}
	}
	return pi.card(), nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

type paymentIntent struct {
	ID       string            `json:"id"`
	Status   string            `json:"status"`
	Amount   int64             `json:"amount"`
	Currency string            `json:"currency"`
	Metadata map[string]string `json:"metadata"`
	// LastPaymentError is why the last attempt failed (payment_intent.payment_failed).
	LastPaymentError *struct {
		Code        string `json:"code"`
		DeclineCode string `json:"decline_code"`
	} `json:"last_payment_error"`
}

// intentCharge is what a payment_intent.* event of type says about an off-session charge:
// succeeded is paid; requires_action, or a failure for want of authentication, needs the
// client; another failure is declined, with Stripe's code.
func intentCharge(eventType string, pi *paymentIntent) *payments.ChargeEvent {
	ev := &payments.ChargeEvent{ChargeResult: payments.ChargeResult{ID: pi.ID, Status: pi.Status, Currency: strings.ToUpper(pi.Currency)}}
	if cents, ok := fromMinor(ev.Currency, pi.Amount); ok {
		ev.AmountCents = cents
	}
	ev.BookingID, _ = strconv.ParseInt(pi.Metadata["booking_id"], 10, 64)
	ev.Attempt, _ = strconv.ParseInt(pi.Metadata["fee_attempt"], 10, 64)
	ev.Fee = pi.Metadata["fee"]
	switch eventType {
	case eventIntentSucceeded:
		ev.Paid = pi.Status == "succeeded"
	case eventIntentAction:
		ev.NeedsAuthentication = true
	case eventIntentFailed:
		code := "payment_failed"
		if e := pi.LastPaymentError; e != nil {
			code = cmpOr(e.DeclineCode, cmpOr(e.Code, code))
			ev.NeedsAuthentication = e.Code == "authentication_required"
		}
		if !ev.NeedsAuthentication {
			ev.DeclineCode = code
		}
	}
	return ev
}
