package stripetest

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	stripe "github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"
)

// Request is one call frontdesk made to Stripe, as sent.
type Request struct {
	Method string
	Path   string
	Header http.Header
	Form   url.Values
}

// Fake is a stateful Stripe in front of stripe-mock: Checkout Sessions it creates (through
// stripe-mock, which validates the request) are kept with what was asked — line items' total,
// currency, metadata, expiry, a payment intent of their own — and can be paid or expired by the
// test; reads and expiries answer from that state. Idempotency keys behave as Stripe's: the same
// key and body return the first answer, the same key with another body is an idempotency_error.
// Every request is recorded as sent.
type Fake struct {
	URL  string
	mock string

	mu       sync.Mutex
	requests []Request
	sessions map[string]map[string]any
	idem     map[string]idemEntry
	down     bool
	card     *cardState
}

type idemEntry struct {
	body   string
	status int
	answer []byte
}

// NewFake serves a Fake over the stripe-mock at mockURL until the test ends.
func NewFake(t testing.TB, mockURL string) *Fake {
	f := &Fake{mock: mockURL, sessions: map[string]map[string]any{}, idem: map[string]idemEntry{}}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	f.URL = srv.URL
	return f
}

// SetDown makes every call fail as Stripe's outage would (503), or work again.
func (f *Fake) SetDown(down bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down = down
}

// Requests are the recorded calls to path (all calls for "").
func (f *Fake) Requests(method, path string) []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Request
	for _, r := range f.requests {
		if (method == "" || r.Method == method) && (path == "" || r.Path == path) {
			out = append(out, r)
		}
	}
	return out
}

// Session is a copy of session id as Stripe would return it now (nil if unknown).
func (f *Fake) Session(id string) map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.sessions[id]
	if !ok {
		return nil
	}
	return clone(s)
}

// Update changes session id (status, payment_status, amount_total, …).
func (f *Fake) Update(id string, change func(s map[string]any)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	change(f.sessions[id])
}

// Pay completes session id with its payment taken.
func (f *Fake) Pay(id string) {
	f.Update(id, func(s map[string]any) { s["status"], s["payment_status"] = "complete", "paid" })
}

func (f *Fake) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	form, _ := url.ParseQuery(string(body))
	f.mu.Lock()
	f.requests = append(f.requests, Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Form: form})
	down := f.down
	f.mu.Unlock()
	if down {
		writeJSON(w, http.StatusServiceUnavailable, stripeError("api_error", "", "Stripe is down (stripetest)"))
		return
	}
	key := r.Header.Get("Idempotency-Key")
	if r.Method == http.MethodPost && key != "" {
		f.mu.Lock()
		e, seen := f.idem[key]
		if !seen {
			f.idem[key] = idemEntry{body: string(body)} // in flight: status 0
		}
		f.mu.Unlock()
		switch {
		case seen && e.status == 0:
			writeJSON(w, http.StatusConflict, stripeError("idempotency_error", "idempotency_key_in_use",
				"There is currently another in-progress request using this Stripe-Idempotency-Key."))
			return
		case seen && e.body == string(body):
			w.Header().Set("Idempotent-Replayed", "true")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(e.status)
			w.Write(e.answer)
			return
		case seen:
			writeJSON(w, http.StatusBadRequest, stripeError("idempotency_error", "",
				"Keys for idempotent requests can only be used with the same parameters they were first used with."))
			return
		}
		rec := httptest.NewRecorder()
		f.route(rec, r, body, form)
		f.mu.Lock()
		f.idem[key] = idemEntry{body: string(body), status: rec.Code, answer: rec.Body.Bytes()}
		f.answered()
		f.mu.Unlock()
		maps.Copy(w.Header(), rec.Header())
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
		return
	}
	f.route(w, r, body, form)
}

func (f *Fake) route(w http.ResponseWriter, r *http.Request, body []byte, form url.Values) {
	if f.routeCards(w, r, body, form) {
		return
	}
	path := r.URL.Path
	id, action, _ := strings.Cut(strings.TrimPrefix(path, "/v1/checkout/sessions/"), "/")
	switch {
	case r.Method == http.MethodPost && path == "/v1/checkout/sessions":
		f.createSession(w, r, body, form)
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/v1/checkout/sessions/") && action == "" && f.Session(id) != nil:
		writeJSON(w, http.StatusOK, f.Session(id))
	case r.Method == http.MethodPost && strings.HasPrefix(path, "/v1/checkout/sessions/") && action == "expire" && f.Session(id) != nil:
		f.mu.Lock()
		s := f.sessions[id]
		open := s["status"] == "open"
		if open {
			s["status"] = "expired"
		}
		answer := clone(s)
		f.mu.Unlock()
		if !open {
			writeJSON(w, http.StatusBadRequest, stripeError("invalid_request_error", "checkout_session_not_open",
				"Only Checkout Sessions with a status in [\"open\"] can be expired."))
			return
		}
		writeJSON(w, http.StatusOK, answer)
	case r.Method == http.MethodPost && path == "/v1/refunds":
		f.createRefund(w, r, body, form)
	default:
		f.forward(w, r, body)
	}
}

// createSession has stripe-mock validate and answer the creation, then keeps the session with
// what was asked.
func (f *Fake) createSession(w http.ResponseWriter, r *http.Request, body []byte, form url.Values) {
	status, s := f.call(r, body)
	if status != http.StatusOK {
		writeJSON(w, status, s)
		return
	}
	var total int64
	for i := 0; form.Has(fmt.Sprintf("line_items[%d][quantity]", i)); i++ {
		q, _ := strconv.ParseInt(form.Get(fmt.Sprintf("line_items[%d][quantity]", i)), 10, 64)
		unit, _ := strconv.ParseInt(form.Get(fmt.Sprintf("line_items[%d][price_data][unit_amount]", i)), 10, 64)
		total += q * unit
	}
	meta := map[string]any{}
	for k, v := range form {
		if name, ok := strings.CutPrefix(k, "metadata["); ok {
			meta[strings.TrimSuffix(name, "]")] = v[0]
		}
	}
	expires, _ := strconv.ParseInt(form.Get("expires_at"), 10, 64)
	mode := form.Get("mode")
	if mode == "" {
		mode = "payment"
	}
	s["status"], s["payment_status"], s["mode"] = "open", "unpaid", mode
	s["amount_total"], s["amount_subtotal"], s["currency"] = total, total, form.Get("line_items[0][price_data][currency]")
	if form.Get("mode") == "setup" {
		s["mode"], s["payment_status"], s["amount_total"], s["amount_subtotal"] = "setup", "no_payment_required", nil, nil
		s["currency"], s["customer"], s["setup_intent"] = form.Get("currency"), form.Get("customer"), setupIntentPrefix+randomID()
	}
	s["metadata"], s["client_reference_id"], s["expires_at"] = meta, form.Get("client_reference_id"), expires
	s["success_url"], s["cancel_url"] = form.Get("success_url"), form.Get("cancel_url")
	if v := form.Get("payment_intent_data[setup_future_usage]"); v != "" {
		s["setup_future_usage"] = v
	}
	if s["mode"] == "payment" {
		s["payment_intent"] = "pi_" + randomID()
	} else {
		s["payment_intent"] = nil
	}
	s["url"] = "https://checkout.stripe.com/c/pay/" + s["id"].(string)
	f.mu.Lock()
	f.sessions[s["id"].(string)] = s
	answer := clone(s)
	f.mu.Unlock()
	writeJSON(w, http.StatusOK, answer)
}

// createRefund has stripe-mock validate the refund and answers it as succeeded for what was asked.
func (f *Fake) createRefund(w http.ResponseWriter, r *http.Request, body []byte, form url.Values) {
	status, ref := f.call(r, body)
	if status != http.StatusOK {
		writeJSON(w, status, ref)
		return
	}
	amount, _ := strconv.ParseInt(form.Get("amount"), 10, 64)
	ref["amount"], ref["payment_intent"], ref["status"] = amount, form.Get("payment_intent"), "succeeded"
	f.mu.Lock()
	for _, s := range f.sessions {
		if s["payment_intent"] == form.Get("payment_intent") {
			ref["currency"] = s["currency"]
		}
	}
	f.mu.Unlock()
	writeJSON(w, http.StatusOK, ref)
}

// call sends r to stripe-mock and decodes its JSON answer.
func (f *Fake) call(r *http.Request, body []byte) (int, map[string]any) {
	req, _ := http.NewRequest(r.Method, f.mock+r.URL.RequestURI(), bytes.NewReader(body))
	req.Header = r.Header.Clone()
	req.Header.Del("Idempotency-Key")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return http.StatusBadGateway, stripeError("api_error", "", err.Error())
	}
	defer res.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		return http.StatusBadGateway, stripeError("api_error", "", err.Error())
	}
	return res.StatusCode, out
}

func (f *Fake) forward(w http.ResponseWriter, r *http.Request, body []byte) {
	status, out := f.call(r, body)
	writeJSON(w, status, out)
}

func stripeError(kind, code, msg string) map[string]any {
	e := map[string]any{"type": kind, "message": msg}
	if code != "" {
		e["code"] = code
	}
	return map[string]any{"error": e}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func clone(m map[string]any) map[string]any {
	raw, _ := json.Marshal(m)
	var out map[string]any
	json.Unmarshal(raw, &out)
	return out
}

func randomID() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Event is a Stripe event of type about object (a session or a refund), as Stripe sends it.
// Give a redelivery the same id: Stripe keeps an event's id across retries.
func Event(id, eventType string, object map[string]any) []byte {
	if id == "" {
		id = "evt_" + randomID()
	}
	raw, _ := json.Marshal(map[string]any{
		"id": id, "object": "event", "api_version": stripe.APIVersion, "created": time.Now().Unix(),
		"livemode": false, "pending_webhooks": 1, "type": eventType,
		"request": map[string]any{"id": nil, "idempotency_key": nil},
		"data":    map[string]any{"object": object},
	})
	return raw
}

// Sign signs payload with secret as Stripe does for each delivery (a fresh timestamp), using
// stripe-go's own test helper, and returns the Stripe-Signature header.
func Sign(secret string, payload []byte) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret}).Header
}
