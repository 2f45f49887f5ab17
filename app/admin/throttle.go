package admin

import (
	"sync"
	"time"
)

// Sign-in throttling, in memory (a restart forgets it; that costs an attacker a restart per
// window, which they cannot cause). It follows OWASP's "slow down online guessing with device
// cookies" (device.go): a browser that signed in to an account before carries a signed device
// cookie, and is counted on its own; everyone else is an untrusted client, counted per account
// and address. So someone who guesses passwords locks out only themselves: the owner's own
// devices keep signing in even while an account is under attack from everywhere. Once a limit
// is reached every attempt it covers is refused — even with the right password — until the
// oldest counted failure is throttleWindow old. The limits, per 15 minutes:
//
//   - a trusted device: 10 failures (then that device cookie is refused, not the account);
//   - an untrusted client, per account and address: 5;
//   - per address, any account: 20 (several people may share one address — an office, a
//     proxy; behind a reverse proxy that does not pass the client's address, everyone shares
//     it, so only trusted devices are sure to get in);
//   - per account, untrusted clients from all addresses together: 50, the ceiling a
//     distributed guesser reaches (50 guesses per 15 minutes is ~4,800 a day against an
//     argon2id hash of a password of at least 12 characters).
const (
	throttleWindow = 15 * time.Minute
	deviceLimit    = 10
	pairLimit      = 5
	ipLimit        = 20
	accountLimit   = 50
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

// attempt is who is signing in: the account (a lower-cased email), the client's address, and
// the nonce of a valid device cookie for that account ("" for an untrusted client).
type attempt struct {
	email, ip, device string
}

// limit is one counter an attempt is held to.
type limit struct {
	key string
	max int
}

// Why an attempt is refused, for the message the owner gets.
const (
	blockedNone    = ""
	blockedDevice  = "device"  // this trusted device
	blockedAddress = "address" // this address (for this account, or for every account)
	blockedAccount = "account" // every untrusted client of this account
)

// limits are the counters a: a trusted device has only its own; an untrusted client has the
// pair, its address and the account's untrusted total.
func (a attempt) limits() []limit {
	if a.device != "" {
		return []limit{{"device:" + a.device, deviceLimit}}
	}
	return []limit{
		{"pair:" + a.email + "\x00" + a.ip, pairLimit},
		{"ip:" + a.ip, ipLimit},
		{"account:" + a.email, accountLimit},
	}
}

// wait returns how long a must wait and which limit holds it; 0 means go ahead.
func (t *throttle) wait(a attempt) (time.Duration, string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	var longest time.Duration
	why := blockedNone
	for _, l := range a.limits() {
		if w := t.waitKey(l, now); w > longest {
			longest, why = w, blockedBy(l.key)
		}
	}
	return longest, why
}

func blockedBy(key string) string {
	switch key[:3] {
	case "dev":
		return blockedDevice
	case "acc":
		return blockedAccount
	default:
		return blockedAddress
	}
}

func (t *throttle) waitKey(l limit, now time.Time) time.Duration {
	recent := t.recent(l.key, now)
	if len(recent) < l.max {
		return 0
	}
	return recent[len(recent)-l.max].Add(throttleWindow).Sub(now)
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

// fail records a failed sign-in against every counter a is held to.
func (t *throttle) fail(a attempt) {
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
	for _, l := range a.limits() {
		fs := append(t.recent(l.key, now), now)
		if len(fs) > l.max {
			fs = fs[len(fs)-l.max:]
		}
		t.failures[l.key] = fs
	}
}

// succeeded forgets the failures of the client that just proved the password: its device, or
// its account-and-address pair. The address's and the account's totals stay: one valid
// sign-in must not reset the count for guessing other accounts, or for guessers elsewhere.
func (t *throttle) succeeded(a attempt) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.failures, a.limits()[0].key)
}
