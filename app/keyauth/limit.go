package keyauth

import (
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Limits are the per-key request limits, as Connect v3 has them: a per-minute burst and a daily
// quota (per UTC day). Zero disables a limit. Counters live in memory, so a restart forgives
// everyone.
type Limits struct {
	PerMinute int
	PerDay    int
}

// Usage is a key's standing after one request was counted.
type Usage struct {
	Burst, Daily Window
	now          time.Time
}

// Window is one limit's state; Limit 0 means the limit is off.
type Window struct {
	Limit, Remaining int
	Reset            time.Time
	Exceeded         bool
}

// Take counts one request of keyID against both windows.
func (k *Keys) Take(keyID int64) Usage {
	now := k.now()
	burst, daily := k.limiter.take(keyID, now)
	return Usage{Burst: burst, Daily: daily, now: now}
}

// SetHeaders writes Connect v3's X-RateLimit-* headers for u.
func (u Usage) SetHeaders(h http.Header) {
	if u.Daily.Limit > 0 {
		h.Set("X-RateLimit-Limit", strconv.Itoa(u.Daily.Limit))
		h.Set("X-RateLimit-Remaining", strconv.Itoa(u.Daily.Remaining))
		h.Set("X-RateLimit-Reset", strconv.FormatInt(u.Daily.Reset.Unix(), 10))
	}
	if u.Burst.Limit > 0 {
		h.Set("X-RateLimit-Burst-Limit", strconv.Itoa(u.Burst.Limit))
		h.Set("X-RateLimit-Burst-Remaining", strconv.Itoa(u.Burst.Remaining))
		h.Set("X-RateLimit-Burst-Reset", strconv.FormatInt(u.Burst.Reset.Unix(), 10))
	}
}

// Exceeded reports whether the request is over a limit: which one (Connect v3's detail,
// "daily_quota_exceeded" or "burst_limit_exceeded") and how many whole seconds until it resets
// (at least 1, for Retry-After).
func (u Usage) Exceeded() (detail string, retryAfter int, over bool) {
	var w Window
	switch {
	case u.Daily.Exceeded:
		w, detail = u.Daily, "daily_quota_exceeded"
	case u.Burst.Exceeded:
		w, detail = u.Burst, "burst_limit_exceeded"
	default:
		return "", 0, false
	}
	wait := int(w.Reset.Sub(u.now).Seconds() + 0.999)
	return detail, max(wait, 1), true
}

type window struct {
	start time.Time
	count int
}

type limiter struct {
	limits Limits
	mu     sync.Mutex
	minute map[int64]*window
	day    map[int64]*window
}

func newLimiter(l Limits) *limiter {
	return &limiter{limits: l, minute: map[int64]*window{}, day: map[int64]*window{}}
}

// take counts one request against both windows and reports their state.
func (l *limiter) take(keyID int64, now time.Time) (burst, daily Window) {
	l.mu.Lock()
	defer l.mu.Unlock()
	burst = count(l.minute, keyID, now.Truncate(time.Minute), time.Minute, l.limits.PerMinute)
	daily = count(l.day, keyID, now.UTC().Truncate(24*time.Hour), 24*time.Hour, l.limits.PerDay)
	return burst, daily
}

func count(m map[int64]*window, keyID int64, start time.Time, length time.Duration, limit int) Window {
	if limit <= 0 {
		return Window{}
	}
	w := m[keyID]
	if w == nil || !w.start.Equal(start) {
		w = &window{start: start}
		m[keyID] = w
	}
	st := Window{Limit: limit, Reset: start.Add(length)}
	if w.count >= limit {
		st.Exceeded = true
		return st
	}
	w.count++
	st.Remaining = limit - w.count
	return st
}
