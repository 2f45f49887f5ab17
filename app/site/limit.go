package site

import (
	"strconv"
	"sync"
	"time"
)

// postBurst is how many POSTs one address may make at once before the hourly rate applies.
const postBurst = 10

// limiter is a per-key GCRA (generic cell rate algorithm): each key may spend perHour requests an
// hour, at most postBurst at once. It keeps one timestamp per recently active key, in memory (a
// restart forgets it, which costs an abuser one burst).
type limiter struct {
	mu       sync.Mutex
	interval time.Duration // time one request "costs"
	now      func() time.Time
	tat      map[string]time.Time // theoretical arrival time of the next request, per key
	off      bool
}

func newLimiter(perHour int, now func() time.Time) *limiter {
	l := &limiter{now: now, tat: map[string]time.Time{}, off: perHour < 0}
	if perHour > 0 {
		l.interval = time.Hour / time.Duration(perHour)
	}
	return l
}

// allow spends one request of key, or says how long to wait.
func (l *limiter) allow(key string) (time.Duration, bool) {
	if l.off {
		return 0, true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if len(l.tat) > 10000 {
		for k, t := range l.tat {
			if t.Before(now) {
				delete(l.tat, k)
			}
		}
	}
	tat := l.tat[key]
	if tat.Before(now) {
		tat = now
	}
	next := tat.Add(l.interval)
	if allowAt := next.Add(-l.interval * postBurst); allowAt.After(now) {
		return allowAt.Sub(now), false
	}
	l.tat[key] = next
	return 0, true
}

// retryAfter is a Retry-After value in whole seconds, at least one.
func retryAfter(d time.Duration) string {
	return strconv.FormatInt(max(int64((d+time.Second-1)/time.Second), 1), 10)
}
