package dispatch

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/queue"
	"frontdesk/app/webhook"
)

// Outcome is what one attempt produced, as far as scheduling cares.
type Outcome struct {
	// Status is the HTTP status code, or 0 when there was no response
	// (DNS, connect, TLS, timeout, forbidden address).
	Status int
	// RetryAfter is the receiver's Retry-After, or 0 when absent: under the
	// rules below a zero wait never changes the schedule, so "absent" and
	// "retry now" need not be told apart.
	RetryAfter time.Duration
}

// OutcomeOf reads an Outcome from a response; resp may be nil when the
// request failed.
func OutcomeOf(resp *http.Response, now time.Time) Outcome {
	if resp == nil {
		return Outcome{}
	}
	ra, _ := ParseRetryAfter(resp.Header.Get("Retry-After"), now)
	return Outcome{Status: resp.StatusCode, RetryAfter: ra}
}

// Verdict says what the dispatcher does with a delivery after an attempt.
type Verdict int

const (
	// Delivered: a 2xx. Done.
	Delivered Verdict = iota + 1
	// Retry: make another attempt at Decision.Next.
	Retry
	// Exhausted: the attempt failed and it was the schedule's last. The
	// delivery has failed; the endpoint is deactivated if nothing reached
	// it since this delivery began (docs/webhooks.md) — the caller knows that.
	Exhausted
	// Gone: the receiver answered 410 Gone, its way of saying "stop". The
	// endpoint is deactivated at once, whatever attempts remain.
	Gone
)

func (v Verdict) String() string {
	switch v {
	case Delivered:
		return "delivered"
	case Retry:
		return "retry"
	case Exhausted:
		return "exhausted"
	case Gone:
		return "gone"
	}
	return "Verdict(" + strconv.Itoa(int(v)) + ")"
}

// Decision is NextAttempt's answer. Next and Delay are set only for Retry.
type Decision struct {
	Verdict Verdict
	Next    time.Time
	Delay   time.Duration
}

// Tuning of NextAttempt; see its doc comment.
const (
	// Jitter spreads retries by ±20 % so that endpoints that failed
	// together (one outage, thousands of deliveries) are not retried in
	// one burst.
	Jitter = queue.Jitter
	// MaxRetryAfter caps how far a receiver can push a retry out, with
	// Retry-After or by slowing us down: a hostile or confused receiver
	// must not park deliveries for months.
	MaxRetryAfter = 24 * time.Hour
	// SlowDownMin is the shortest wait after 429, 502 or 504.
	SlowDownMin = 30 * time.Second
)

// NextAttempt decides what follows attempt number attempt (1-based; the
// first attempt is 1) that ended at now with outcome o. It is pure: rnd
// supplies the jitter (a value in [0, 1); nil means no jitter), so the
// same inputs always give the same answer. The rules, in order:
//
//  1. 2xx → Delivered.
//  2. 410 → Gone, even on the last attempt.
//  3. attempt ≥ len(s) → Exhausted. Any other status (including 3xx,
//     since redirects are not followed, and other 4xx) and no response at
//     all count as failures.
//  4. Otherwise Retry after s[attempt] (the wait before attempt+1),
//     jittered to between 0.8× (rnd=0) and 1.2× (rnd=1) of it.
//  5. 429, 502 and 504 mean the receiver or its proxy is overloaded:
//     the wait becomes at least twice the jittered delay and at least 30 s.
//  6. Retry-After (any status) is honoured as a lower bound: the wait is
//     at least RetryAfter.
//
// The waits from rules 5 and 6 are capped at MaxRetryAfter; they can only
// lengthen the jittered schedule delay, never shorten it, so a receiver can
// neither make us hammer it nor push a retry further than 24 h past the
// schedule's own step.
func NextAttempt(s webhook.Schedule, attempt int, o Outcome, now time.Time, rnd func() float64) Decision {
	attempt = max(attempt, 1) // a corrupt counter must not crash the dispatcher
	switch {
	case o.Status >= 200 && o.Status <= 299:
		return Decision{Verdict: Delivered}
	case o.Status == http.StatusGone:
		return Decision{Verdict: Gone}
	case s.Exhausted(attempt):
		return Decision{Verdict: Exhausted}
	}
	delay := s.Delay(attempt, rnd)

	var floor time.Duration
	switch o.Status {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusGatewayTimeout:
		floor = max(2*delay, SlowDownMin)
	}
	floor = min(max(floor, o.RetryAfter), MaxRetryAfter)
	delay = max(delay, floor)

	return Decision{Verdict: Retry, Next: now.Add(delay), Delay: delay}
}

// ParseRetryAfter reads a Retry-After header in either form RFC 9110
// allows: delay-seconds ("120") or an HTTP-date. A date in the past means
// "now" (0, true). Anything else — empty, negative, fractional, garbage —
// is ignored (0, false) rather than guessed at. Huge values saturate
// instead of overflowing; NextAttempt caps them at MaxRetryAfter.
func ParseRetryAfter(header string, now time.Time) (time.Duration, bool) {
	h := strings.TrimSpace(header)
	if h == "" {
		return 0, false
	}
	if strings.Trim(h, "0123456789") == "" {
		secs, err := strconv.ParseUint(h, 10, 64)
		if err != nil || secs > uint64(math.MaxInt64/int64(time.Second)) {
			return time.Duration(math.MaxInt64), true
		}
		return time.Duration(secs) * time.Second, true
	}
	t, err := http.ParseTime(h)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}
