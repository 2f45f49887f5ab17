package stripe

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// The calls frontdesk makes are few (create, read and expire a Checkout Session, create a
// refund, read the balance, list webhook endpoints), so they are made here over net/http
// rather than through Stripe's Go library, which links in its whole API: about 1.4 MB of
// binary and half a megabyte of memory resident in every appliance. What the library did for
// these calls is done the same way: the pinned API version, form-encoded parameters, an
// idempotency key on every POST, and up to two retries of what may be retried (retryable).

// apiVersion is the Stripe API version every request asks for, so the shapes read below never
// change under frontdesk (it is stripe-go v85's, which this client replaced).
const apiVersion = "2026-03-25.dahlia"

// maxRetries is how many times a failed call is tried again (the library's default).
const maxRetries = 2

// Error is an error answer of Stripe's API: {"error": {"type", "code", "message"}}.
type Error struct {
	HTTPStatusCode int    `json:"-"`
	Type           string `json:"type"`
	Code           string `json:"code"`
	Msg            string `json:"message"`
	Param          string `json:"param"`
}

func (e *Error) Error() string {
	return fmt.Sprintf("stripe: %d %s %s: %s", e.HTTPStatusCode, e.Type, e.Code, e.Msg)
}

// Stripe's error types that providerError and ExpireCheckout tell apart.
const (
	errorTypeAPI            = "api_error"
	errorTypeInvalidRequest = "invalid_request_error"
	errorTypeRateLimit      = "rate_limit"
)

// client calls Stripe's API with one secret key.
type client struct {
	base   string // "https://api.stripe.com"
	key    string
	http   *http.Client
	sleep  func(ctx context.Context, d time.Duration) error // between retries; replaced in tests
	agent  string
	newKey func() string // an idempotency key for a POST that brought none
}

func newClient(cfg Config, secret string) *client {
	return &client{base: strings.TrimSuffix(cfg.APIURL, "/"), key: secret, http: cfg.HTTPClient, sleep: sleepCtx,
		agent: "frontdesk", newKey: randomKey}
}

// call makes one API call: form is the parameters (a POST's body, a GET's query), out is
// decoded from the answer. A POST carries idemKey, or a fresh key, so that a retry is never
// applied twice.
func (c *client) call(ctx context.Context, method, path string, form url.Values, idemKey string, out any) error {
	target := c.base + path
	var body string
	if method == http.MethodGet {
		if len(form) > 0 {
			target += "?" + form.Encode()
		}
	} else {
		body = form.Encode()
		if idemKey == "" {
			idemKey = c.newKey()
		}
	}
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, method, target, strings.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+c.key)
		req.Header.Set("Stripe-Version", apiVersion)
		req.Header.Set("User-Agent", c.agent)
		if method != http.MethodGet {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Idempotency-Key", idemKey)
		}
		resp, err := c.http.Do(req)
		answered := false
		var raw []byte
		if err == nil {
			raw, err = io.ReadAll(io.LimitReader(resp.Body, 8<<20))
			resp.Body.Close()
			answered = err == nil
		}
		if answered && resp.StatusCode < 300 {
			if err := json.Unmarshal(raw, out); err != nil {
				return fmt.Errorf("stripe: %s %s: unreadable answer: %w", method, path, err)
			}
			return nil
		}
		if answered {
			err = answerError(resp, raw)
		}
		if attempt >= maxRetries || !retryable(ctx, err) {
			return err
		}
		if c.sleep(ctx, backoff(attempt)) != nil {
			return err
		}
	}
}

// answerError is Stripe's error answer as an *Error, or a plain error when the body is not one
// (a proxy's page), which providerError treats as temporary.
func answerError(resp *http.Response, raw []byte) error {
	var e struct {
		Error *Error `json:"error"`
	}
	if json.Unmarshal(raw, &e) != nil || e.Error == nil {
		return fmt.Errorf("stripe: %s answered %d: %.200s", resp.Request.URL.Path, resp.StatusCode, raw)
	}
	e.Error.HTTPStatusCode = resp.StatusCode
	return e.Error
}

// retryable is the library's rule: never once the context is done; an error answer from
// Stripe only when it is a lock timeout (429 lock_timeout: the request met another on the
// same object), never a rate limit or anything else Stripe decided; anything else — no answer,
// or an answer that is not Stripe's (a proxy's 502) — yes, unless it never can work (a
// certificate no authority signed, a bad scheme, a redirect loop).
func retryable(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	var se *Error
	if errors.As(err, &se) {
		return se.HTTPStatusCode == http.StatusTooManyRequests && se.Code == "lock_timeout"
	}
	var unknownCA x509.UnknownAuthorityError
	msg := err.Error()
	return !errors.As(err, &unknownCA) && !strings.Contains(msg, "unsupported protocol scheme") &&
		!strings.Contains(msg, "stopped after 10 redirects")
}

// backoff is the library's wait before retry n+1: 0.5 s × (1 + n²), at most 5 s, less up to a
// quarter of jitter, never under 0.5 s.
func backoff(n int) time.Duration {
	d := min(500*time.Millisecond*time.Duration(1+n*n), 5*time.Second)
	d -= time.Duration(rand.Int64N(int64(d/4) + 1))
	return max(d, 500*time.Millisecond)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func randomKey() string {
	var b [16]byte
	crand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// The objects read from Stripe: only the fields frontdesk uses.

type checkoutSession struct {
	ID            string            `json:"id"`
	URL           string            `json:"url"`
	Status        string            `json:"status"`
	PaymentStatus string            `json:"payment_status"`
	Currency      string            `json:"currency"`
	AmountTotal   int64             `json:"amount_total"`
	ExpiresAt     int64             `json:"expires_at"`
	Metadata      map[string]string `json:"metadata"`
	PaymentIntent expandable        `json:"payment_intent"`
	Mode          string            `json:"mode"`
	SetupIntent   expandable        `json:"setup_intent"`
	Customer      expandable        `json:"customer"`
}

type refund struct {
	ID            string     `json:"id"`
	Status        string     `json:"status"`
	Currency      string     `json:"currency"`
	Amount        int64      `json:"amount"`
	PaymentIntent expandable `json:"payment_intent"`
}

type balance struct {
	Livemode bool `json:"livemode"`
}

type webhookEndpoint struct {
	ID            string   `json:"id"`
	URL           string   `json:"url"`
	Status        string   `json:"status"`
	EnabledEvents []string `json:"enabled_events"`
}

type webhookEndpointList struct {
	Data    []webhookEndpoint `json:"data"`
	HasMore bool              `json:"has_more"`
}

// event is a webhook event; Data.Object is the object it is about, read by its type.
type event struct {
	ID     string `json:"id"`
	Object string `json:"object"`
	Type   string `json:"type"`
	Data   *struct {
		Object json.RawMessage `json:"object"`
	} `json:"data"`
}

// expandable is a reference Stripe sends as an id, or as the object itself when expanded; its
// ID is "" when null.
type expandable struct{ ID string }

func (e *expandable) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		e.ID = ""
		return nil
	case len(b) > 0 && b[0] == '"':
		return json.Unmarshal(b, &e.ID)
	}
	var obj struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(b, &obj); err != nil {
		return err
	}
	e.ID = obj.ID
	return nil
}
