package admin

import (
	"sync"
	"time"
)

// Login throttling, in memory (a restart forgets it; that costs an attacker a restart per
// window, which they cannot cause). An account accepts 5 failed sign-ins per 15 minutes; an
// IP address 20, more because several people may share one address (an office, a proxy —
// behind a reverse proxy every request has the proxy's address, so this is the limit for
// everyone together). Once a limit is reached every attempt is refused — even with the right
// password — until the oldest failure is 15 minutes old.
const (
	throttleWindow = 15 * time.Minute
	accountLimit   = 5
	ipLimit        = 20
	// maxTracked bounds memory when someone sprays made-up emails: past it, failures older
	// than the window are dropped, and if that is not enough the table starts over.
	maxTracked = 50_000
)

type throttle struct {
	mu       sync.Mutex
	now      func() time.Time
	failures map[string][]time.Time // key → recent failures, oldest first, at most limit long
}

func newThrottle(now func() time.Time) *throttle {
	return &throttle{now: now, failures: map[string][]time.Time{}}
}

func accountKey(email string) string { return "account:" + email }
func ipKey(ip string) string         { return "ip:" + ip }

// wait returns how long a sign-in for email from ip must wait; 0 means go ahead.
func (t *throttle) wait(email, ip string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	return max(t.waitKey(accountKey(email), accountLimit, now), t.waitKey(ipKey(ip), ipLimit, now))
}

func (t *throttle) waitKey(key string, limit int, now time.Time) time.Duration {
	recent := t.recent(key, now)
	if len(recent) < limit {
		return 0
	}
	return recent[len(recent)-limit].Add(throttleWindow).Sub(now)
}

// recent drops failures that left the window and returns the rest.
func (t *throttle) recent(key string, now time.Time) []time.Time {
	fs := t.failures[key]
	i := 0
	for i < len(fs) && !fs[i].Add(throttleWindow).After(now) {
		i++
	}
	if i == len(fs) {
		delete(t.failures, key)
		return nil
	}
	fs = fs[i:]
	t.failures[key] = fs
	return fs
}

// fail records a failed sign-in for email from ip.
func (t *throttle) fail(email, ip string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	if len(t.failures) >= maxTracked {
		for k := range t.failures {
			t.recent(k, now)
		}
		if len(t.failures) >= maxTracked {
			clear(t.failures)
		}
	}
	t.add(accountKey(email), accountLimit, now)
	t.add(ipKey(ip), ipLimit, now)
}

func (t *throttle) add(key string, limit int, now time.Time) {
	fs := append(t.recent(key, now), now)
	if len(fs) > limit {
		fs = fs[len(fs)-limit:]
	}
	t.failures[key] = fs
}

// succeeded forgets an account's failures after a correct password. The address's failures
// stay: one valid account must not reset the count for guessing others.
func (t *throttle) succeeded(email string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.failures, accountKey(email))
}
