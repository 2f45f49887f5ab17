package api

import (
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Limits are the per-key request limits, as Connect v3 has them: a per-minute burst and a daily
// quota. Zero disables a limit. Counters live in memory, so a restart forgives everyone.
type Limits struct {
	PerMinute int
	PerDay    int
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

// take counts one request against both windows and reports the state for the headers.
func (l *limiter) take(keyID int64, now time.Time) (burst, daily status) {
	l.mu.Lock()
	defer l.mu.Unlock()
	burst = count(l.minute, keyID, now.Truncate(time.Minute), time.Minute, l.limits.PerMinute)
	daily = count(l.day, keyID, now.UTC().Truncate(24*time.Hour), 24*time.Hour, l.limits.PerDay)
	return burst, daily
}

type status struct {
	limit, remaining int
	reset            time.Time
	exceeded         bool
}

func count(m map[int64]*window, keyID int64, start time.Time, length time.Duration, limit int) status {
	if limit <= 0 {
		return status{}
	}
	w := m[keyID]
	if w == nil || !w.start.Equal(start) {
		w = &window{start: start}
		m[keyID] = w
	}
	st := status{limit: limit, reset: start.Add(length)}
	if w.count >= limit {
		st.exceeded = true
		return st
	}
	w.count++
	st.remaining = limit - w.count
	return st
}

// rateLimit applies the key's limits and sets the X-RateLimit-* headers on every answer.
func (a *API) rateLimit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		now := a.now()
		burst, daily := a.limiter.take(keyFrom(r.Context()).ID, now)
		h := w.Header()
		if daily.limit > 0 {
			h.Set("X-RateLimit-Limit", strconv.Itoa(daily.limit))
			h.Set("X-RateLimit-Remaining", strconv.Itoa(daily.remaining))
			h.Set("X-RateLimit-Reset", strconv.FormatInt(daily.reset.Unix(), 10))
		}
		if burst.limit > 0 {
			h.Set("X-RateLimit-Burst-Limit", strconv.Itoa(burst.limit))
			h.Set("X-RateLimit-Burst-Remaining", strconv.Itoa(burst.remaining))
			h.Set("X-RateLimit-Burst-Reset", strconv.FormatInt(burst.reset.Unix(), 10))
		}
		var exceeded *status
		detail := ""
		switch {
		case daily.exceeded:
			exceeded, detail = &daily, "daily_quota_exceeded"
		case burst.exceeded:
			exceeded, detail = &burst, "burst_limit_exceeded"
		}
		if exceeded != nil {
			wait := int(exceeded.reset.Sub(now).Seconds() + 0.999)
			h.Set("Retry-After", strconv.Itoa(max(wait, 1)))
			a.writeError(w, r, newError(http.StatusTooManyRequests, "rate_limited", detail))
			return
		}
		next.ServeHTTP(w, r)
	})
}
