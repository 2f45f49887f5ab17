package keyauth

import (
	"sync"
	"time"
)

// MaxFailuresPerMinute bounds failed authentications per client address. A key has 256 random
// bits, so guessing is hopeless anyway; the limit keeps a flood of made-up keys from costing a
// database lookup each. Callers pass the real client's address (middleware.ClientIP), so
// behind a trusted proxy one abuser does not lock out everyone else who comes through it.
const MaxFailuresPerMinute = 120

// failures counts failed authentications per client address in the current minute. The table
// starts over every minute, so its size is bounded by one minute of distinct addresses.
type failures struct {
	mu     sync.Mutex
	minute time.Time
	counts map[string]int
}

func (f *failures) roll(now time.Time) {
	if m := now.Truncate(time.Minute); !m.Equal(f.minute) || f.counts == nil {
		f.minute, f.counts = m, map[string]int{}
	}
}

// FailuresBlock reports how long the client at addr must wait before its next attempt is
// looked up; 0 means go ahead.
func (k *Keys) FailuresBlock(addr string) time.Duration {
	now := k.now()
	f := &k.failures
	f.mu.Lock()
	defer f.mu.Unlock()
	f.roll(now)
	if f.counts[addr] < MaxFailuresPerMinute {
		return 0
	}
	return f.minute.Add(time.Minute).Sub(now)
}

// Failed records a failed authentication from addr.
func (k *Keys) Failed(addr string) {
	now := k.now()
	f := &k.failures
	f.mu.Lock()
	defer f.mu.Unlock()
	f.roll(now)
	f.counts[addr]++
}
