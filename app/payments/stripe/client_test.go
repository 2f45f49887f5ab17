package stripe

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	stripego "github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"

	"frontdesk/app/payments"
)

// The client asks for the API version the library it replaced pinned.
func TestAPIVersionIsTheLibrarys(t *testing.T) {
	if apiVersion != stripego.APIVersion {
		t.Fatalf("apiVersion %q, stripe-go pins %q", apiVersion, stripego.APIVersion)
	}
}

// Signatures are judged as Stripe's own library judges them, case by case.
func TestSignatureVerdictsAreTheLibrarys(t *testing.T) {
	const secret = "whsec_test_secret_0123456789"
	payload := []byte(`{"id":"evt_1","object":"event","type":"checkout.session.completed","data":{"object":{}}}`)
	now := time.Now()
	sign := func(ts time.Time, sec string) string {
		return "v1=" + hexOf(webhook.ComputeSignature(ts, payload, sec))
	}
	tstamp := func(ts time.Time) string { return "t=" + itoa(ts.Unix()) }
	for _, tc := range []struct {
		name, header string
		ok           bool
	}{
		{"fresh", tstamp(now) + "," + sign(now, secret), true},
		{"rolled secret, second matches", tstamp(now) + "," + sign(now, "whsec_other_000000000") + "," + sign(now, secret), true},
		{"v0 and scheme noise ignored", tstamp(now) + ",v0=abc,x=1," + sign(now, secret), true},
		{"four minutes old", tstamp(now.Add(-4*time.Minute)) + "," + sign(now.Add(-4*time.Minute), secret), true},
		{"six minutes old", tstamp(now.Add(-6*time.Minute)) + "," + sign(now.Add(-6*time.Minute), secret), false},
		{"other secret", tstamp(now) + "," + sign(now, "whsec_other_000000000"), false},
		{"signed for another time", tstamp(now) + "," + sign(now.Add(-time.Second), secret), false},
		{"no timestamp", sign(now, secret), false},
		{"bad timestamp", "t=yesterday," + sign(now, secret), false},
		{"no v1", tstamp(now) + ",v0=" + strings.Repeat("ab", 32), false},
		{"not hex", tstamp(now) + ",v1=zz", false},
		{"a pair without =", tstamp(now) + ",v1", false},
		{"empty", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ours := verifySignature(payload, tc.header, secret, time.Now())
			theirs := webhook.ValidatePayload(payload, tc.header, secret)
			if (ours == nil) != tc.ok || (theirs == nil) != tc.ok {
				t.Fatalf("header %q: ours %v, stripe-go's %v; want accepted %v by both", tc.header, ours, theirs, tc.ok)
			}
		})
	}
}

// recorded is one request the test server got.
type recorded struct {
	method, path, query, body string
	header                    http.Header
}

// fakeAPI answers with answers[i] for request i (the last one repeats), recording each.
func fakeAPI(t *testing.T, answers ...func(w http.ResponseWriter)) (*client, *[]recorded) {
	t.Helper()
	var mu sync.Mutex
	var got []recorded
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, recorded{r.Method, r.URL.Path, r.URL.RawQuery, string(body), r.Header.Clone()})
		n := len(got)
		mu.Unlock()
		answers[min(n, len(answers))-1](w)
	}))
	t.Cleanup(srv.Close)
	c := newClient(Config{APIURL: srv.URL, HTTPClient: srv.Client()}, "sk_test_0123456789abcdef")
	c.sleep = func(context.Context, time.Duration) error { return nil }
	return c, &got
}

func answer(status int, body string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

const sessionJSON = `{"id":"cs_1","url":"https://checkout.stripe.com/c/1","status":"open","payment_status":"unpaid","currency":"usd","amount_total":1500,"expires_at":1900000000,"metadata":{"payment_request_id":"7"},"payment_intent":{"id":"pi_1","object":"payment_intent"}}`

// Every call carries the key and the pinned version; a POST carries its idempotency key, or a
// fresh one, and its form; the answer is read whether payment_intent comes as an id or expanded.
func TestClientSendsWhatStripeExpects(t *testing.T) {
	c, got := fakeAPI(t, answer(200, sessionJSON), answer(200, strings.Replace(sessionJSON, `{"id":"pi_1","object":"payment_intent"}`, `"pi_2"`, 1)),
		answer(200, strings.Replace(sessionJSON, `{"id":"pi_1","object":"payment_intent"}`, `null`, 1)))
	ctx := context.Background()
	var s checkoutSession
	if err := c.call(ctx, http.MethodPost, "/v1/checkout/sessions", url.Values{"mode": {"payment"}}, "key-1", &s); err != nil {
		t.Fatal(err)
	}
	if st := sessionState(&s); st.ID != "cs_1" || st.PaymentRef != "pi_1" || st.Currency != "USD" || st.RequestID != 7 || st.ExpiresAt.Unix() != 1900000000 {
		t.Fatalf("read %+v from an expanded payment_intent", st)
	}
	if err := c.call(ctx, http.MethodPost, "/v1/checkout/sessions/cs_1/expire", nil, "", &s); err != nil || s.PaymentIntent.ID != "pi_2" {
		t.Fatalf("got %v, payment_intent %q; want pi_2 from an id", err, s.PaymentIntent.ID)
	}
	if err := c.call(ctx, http.MethodGet, "/v1/checkout/sessions/cs_1", url.Values{"x": {"1"}}, "", &s); err != nil || s.PaymentIntent.ID != "" {
		t.Fatalf("got %v, payment_intent %q; want none from null", err, s.PaymentIntent.ID)
	}
	r := *got
	for _, x := range r {
		if x.header.Get("Authorization") != "Bearer sk_test_0123456789abcdef" || x.header.Get("Stripe-Version") != apiVersion {
			t.Errorf("%s %s: Authorization %q, Stripe-Version %q", x.method, x.path, x.header.Get("Authorization"), x.header.Get("Stripe-Version"))
		}
	}
	if r[0].header.Get("Idempotency-Key") != "key-1" || r[0].body != "mode=payment" || r[0].header.Get("Content-Type") != "application/x-www-form-urlencoded" {
		t.Errorf("first POST: key %q, body %q, type %q", r[0].header.Get("Idempotency-Key"), r[0].body, r[0].header.Get("Content-Type"))
	}
	if k := r[1].header.Get("Idempotency-Key"); len(k) < 16 {
		t.Errorf("a POST without a key got Idempotency-Key %q, want a fresh one", k)
	}
	if r[2].header.Get("Idempotency-Key") != "" || r[2].query != "x=1" || r[2].body != "" {
		t.Errorf("GET: key %q, query %q, body %q", r[2].header.Get("Idempotency-Key"), r[2].query, r[2].body)
	}
}

// What is retried (with the same idempotency key) and what is not, as the library did.
func TestClientRetries(t *testing.T) {
	for _, tc := range []struct {
		name      string
		answers   []func(w http.ResponseWriter)
		calls     int
		temporary bool // of the error, when the call fails
		ok        bool
	}{
		{"Stripe down: its 503 api_error is final for this call", []func(http.ResponseWriter){answer(503, `{"error":{"type":"api_error","message":"down"}}`)}, 1, true, false},
		{"a rate limit is not retried", []func(http.ResponseWriter){answer(429, `{"error":{"type":"invalid_request_error","code":"rate_limit","message":"slow"}}`)}, 1, true, false},
		{"a card or request error is final", []func(http.ResponseWriter){answer(400, `{"error":{"type":"invalid_request_error","code":"parameter_invalid_integer","message":"bad"}}`)}, 1, false, false},
		{"a lock timeout is retried", []func(http.ResponseWriter){answer(429, `{"error":{"type":"invalid_request_error","code":"lock_timeout","message":"busy"}}`), answer(200, sessionJSON)}, 2, false, true},
		{"a proxy's page is retried, twice at most", []func(http.ResponseWriter){answer(502, `<html>bad gateway</html>`)}, 3, true, false},
		{"a proxy's page, then Stripe", []func(http.ResponseWriter){answer(502, `<html>bad gateway</html>`), answer(200, sessionJSON)}, 2, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, got := fakeAPI(t, tc.answers...)
			var s checkoutSession
			err := c.call(context.Background(), http.MethodPost, "/v1/refunds", url.Values{"amount": {"5"}}, "idem-9", &s)
			if len(*got) != tc.calls {
				t.Fatalf("got %d requests, want %d", len(*got), tc.calls)
			}
			for _, r := range *got {
				if r.header.Get("Idempotency-Key") != "idem-9" || r.body != "amount=5" {
					t.Errorf("a retry sent key %q and body %q", r.header.Get("Idempotency-Key"), r.body)
				}
			}
			if tc.ok {
				if err != nil || s.ID != "cs_1" {
					t.Fatalf("got %v, %+v; want the session", err, s)
				}
				return
			}
			var pe *payments.ProviderError
			if !errors.As(providerError(err), &pe) || pe.Temporary != tc.temporary {
				t.Fatalf("got %v (%+v), want a provider error, temporary %v", err, pe, tc.temporary)
			}
		})
	}
	// A context that ends stops the retries.
	ctx, cancel := context.WithCancel(context.Background())
	c, got := fakeAPI(t, func(w http.ResponseWriter) { cancel(); answer(502, "no")(w) })
	var s checkoutSession
	if err := c.call(ctx, http.MethodGet, "/v1/balance", nil, "", &s); err == nil || len(*got) != 1 {
		t.Fatalf("got %v after %d requests, want an error after 1", err, len(*got))
	}
}

// An unreadable success is an error, not an empty session.
func TestClientRefusesAnUnreadableAnswer(t *testing.T) {
	c, _ := fakeAPI(t, answer(200, `{"id":`))
	var s checkoutSession
	var syntax *json.SyntaxError
	if err := c.call(context.Background(), http.MethodGet, "/v1/checkout/sessions/cs_1", nil, "", &s); !errors.As(err, &syntax) {
		t.Fatalf("got %v, want a JSON syntax error", err)
	}
}

func hexOf(b []byte) string { return hex.EncodeToString(b) }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
