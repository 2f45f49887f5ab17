package stripetest

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Cards in the Fake: setup-mode Checkout Sessions, the SetupIntents they complete with a card,
// and off-session PaymentIntents that charge a saved card as the card says (succeed, need the
// customer's authentication, or be declined).

// Card behaviours for ChargeAs.
const (
	CardSucceeds      = "succeeds"
	CardNeedsAuth     = "authentication_required"
	CardDeclined      = "card_declined"
	defaultBrand      = "visa"
	setupIntentPrefix = "seti_"
)

type cardState struct {
	setupIntents map[string]map[string]any // by id
	behaviour    map[string]string         // payment method → CardSucceeds, …
	intents      []map[string]any          // PaymentIntents created
	paid         map[string]map[string]any // PaymentIntents of paid sessions that saved a card, by id
	stall        chan struct{}             // the next PaymentIntent answer waits for it
	stalled      []chan struct{}           // closed once a stalled answer is recorded
}

// answered is told (under f.mu) that an idempotent answer was recorded.
func (f *Fake) answered() {
	if f.card == nil {
		return
	}
	for _, ch := range f.card.stalled {
		close(ch)
	}
	f.card.stalled = nil
}

func (f *Fake) cards() *cardState {
	if f.card == nil {
		f.card = &cardState{setupIntents: map[string]map[string]any{}, behaviour: map[string]string{}, paid: map[string]map[string]any{}}
	}
	return f.card
}

// SaveCard completes setup session id as a customer who typed a card of brand ending last4
// would, and returns the saved payment method's id.
func (f *Fake) SaveCard(id, brand, last4 string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.sessions[id]
	pm := "pm_" + randomID()
	si := s["setup_intent"].(string)
	f.cards().setupIntents[si] = map[string]any{
		"id": si, "object": "setup_intent", "status": "succeeded", "usage": "off_session", "customer": s["customer"],
		"payment_method": map[string]any{"id": pm, "object": "payment_method", "type": "card",
			"card": map[string]any{"brand": brand, "last4": last4}},
	}
	s["status"] = "complete"
	return pm
}

// PayWithCard completes payment session id as a customer who paid with a card of brand ending
// last4 would; a session asked with customer_creation=always gets a Customer, and its
// PaymentIntent (read with GET /v1/payment_intents/{id}) has the card, kept for later when the
// session asked setup_future_usage. It returns the payment method's id.
func (f *Fake) PayWithCard(id, brand, last4 string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.sessions[id]
	pm := "pm_" + randomID()
	customer := "cus_" + randomID()
	pi := s["payment_intent"].(string)
	f.cards().paid[pi] = map[string]any{
		"id": pi, "object": "payment_intent", "status": "succeeded", "customer": customer,
		"amount": s["amount_total"], "currency": s["currency"], "setup_future_usage": s["setup_future_usage"],
		"payment_method": map[string]any{"id": pm, "object": "payment_method", "type": "card",
			"card": map[string]any{"brand": brand, "last4": last4}},
	}
	s["status"], s["payment_status"], s["customer"] = "complete", "paid", customer
	return pm
}

// ChargeAs makes charges of payment method pm behave as behaviour (CardSucceeds by default).
func (f *Fake) ChargeAs(pm, behaviour string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cards().behaviour[pm] = behaviour
}

// PaymentIntents are the PaymentIntents the Fake created (each answer once, whatever the
// replays of its idempotency key).
func (f *Fake) PaymentIntents() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]map[string]any, len(f.cards().intents))
	for i, pi := range f.cards().intents {
		out[i] = clone(pi)
	}
	return out
}

// StallNextCharge makes the next PaymentIntent be created but its answer held until the caller
// gives up (a timeout) — a call that does not come back. recorded is closed once Stripe has
// recorded the answer under the call's idempotency key (a repeat then gets it).
func (f *Fake) StallNextCharge() (recorded <-chan struct{}) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cards().stall = make(chan struct{})
	done := make(chan struct{})
	f.cards().stalled = append(f.cards().stalled, done)
	return done
}

// routeCards answers the card calls; false: not one of them.
func (f *Fake) routeCards(w http.ResponseWriter, r *http.Request, body []byte, form url.Values) bool {
	path := r.URL.Path
	switch {
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/v1/setup_intents/"+setupIntentPrefix):
		f.mu.Lock()
		si, ok := f.cards().setupIntents[strings.TrimPrefix(path, "/v1/setup_intents/")]
		var answer map[string]any
		if ok {
			answer = clone(si)
		}
		f.mu.Unlock()
		if !ok {
			return false
		}
		writeJSON(w, http.StatusOK, answer)
		return true
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/v1/payment_intents/"):
		f.mu.Lock()
		pi, ok := f.cards().paid[strings.TrimPrefix(path, "/v1/payment_intents/")]
		var answer map[string]any
		if ok {
			answer = clone(pi)
		}
		f.mu.Unlock()
		if !ok {
			return false
		}
		writeJSON(w, http.StatusOK, answer)
		return true
	case r.Method == http.MethodPost && path == "/v1/payment_intents":
		f.createPaymentIntent(w, r, body, form)
		return true
	}
	return false
}

// createPaymentIntent has stripe-mock validate the PaymentIntent, then answers it as the saved
// card behaves: succeeded; a 402 card_error authentication_required (the intent left
// requires_payment_method, as Stripe does for off-session confirmations); or a 402 decline.
func (f *Fake) createPaymentIntent(w http.ResponseWriter, r *http.Request, body []byte, form url.Values) {
	status, pi := f.call(r, body)
	if status != http.StatusOK {
		writeJSON(w, status, pi)
		return
	}
	amount, _ := strconv.ParseInt(form.Get("amount"), 10, 64)
	pi["id"] = "pi_" + randomID()
	pi["amount"], pi["currency"], pi["customer"], pi["payment_method"] = amount, form.Get("currency"), form.Get("customer"), form.Get("payment_method")
	meta := map[string]any{}
	for k := range form {
		if name, ok := strings.CutPrefix(k, "metadata["); ok {
			meta[strings.TrimSuffix(name, "]")] = form.Get(k)
		}
	}
	pi["metadata"] = meta
	f.mu.Lock()
	behaviour := f.cards().behaviour[form.Get("payment_method")]
	stall := f.cards().stall
	f.cards().stall = nil
	f.mu.Unlock()
	code, answer := http.StatusOK, map[string]any(nil)
	switch behaviour {
	case CardNeedsAuth, CardDeclined:
		pi["status"] = "requires_payment_method"
		code = http.StatusPaymentRequired
		answer = map[string]any{"error": map[string]any{"type": "card_error", "code": behaviour,
			"message": fmt.Sprintf("stripetest: %s", behaviour), "payment_intent": pi}}
	default:
		pi["status"] = "succeeded"
		answer = pi
	}
	f.mu.Lock()
	f.cards().intents = append(f.cards().intents, clone(pi))
	f.mu.Unlock()
	if stall != nil {
		select {
		case <-stall:
		case <-r.Context().Done():
		}
	}
	writeJSON(w, code, answer)
}
