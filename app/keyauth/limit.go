package keyauth

import (
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Limits are the per-key request limits, as Connect v3 has them: a per-minute burst and a daily
// quota (per UTC day). Zero disables a limit. State lives in memory, so a restart forgives
// everyone.
//
// The burst limit is a GCRA (generic cell rate algorithm), a token bucket kept as one
// timestamp: a key holds up to PerMinute requests and gets one back every minute/PerMinute.
// Unlike a fixed minute window it has no boundary to straddle: PerMinute requests at
// 10:00:59.9 leave none for 10:01:00.0, and a key that keeps sending is admitted at the steady
// rate. Over any span of t seconds at most PerMinute·(1 + t/60) requests pass. The daily quota
// counts only requests both limits admitted, so a client hammering on a closed door does not
// use up its day. See docs/api.md, "Rate limits".
type Limits struct {
	PerMinute int
	PerDay    int
}

// Usage is a key's standing after one request was counted.
type Usage struct {
	Burst, Daily Window
	now          time.Time
	limits       *limitValues
}

// Window is one limit's state; Limit 0 means the limit is off.
type Window struct {
	Limit, Remaining int
	// Reset: for the burst, when the bucket is whole again if nothing more is sent; for the
	// daily quota, the next UTC midnight.
	Reset    time.Time
	Exceeded bool
	retry    time.Time // when exceeded: the earliest instant a request would pass
}

// Take decides whether a request of keyID passes both limits now and, only if it does,
// spends it from both.
func (k *Keys) Take(keyID int64) Usage {
	now := k.now()
	burst, daily := k.limiter.take(keyID, now)
	return Usage{Burst: burst, Daily: daily, now: now, limits: k.limiter.values}
}

// SetHeaders writes Connect v3's X-RateLimit-* headers for u. The keys are written in their
// canonical form (what Header.Set would make of "X-RateLimit-Limit" on every answer), and the
// limits, the same on every answer, as values made once.
func (u Usage) SetHeaders(h http.Header) {
	if u.Daily.Limit > 0 {
		h["X-Ratelimit-Limit"] = u.limits.daily
		h["X-Ratelimit-Remaining"] = []string{strconv.Itoa(u.Daily.Remaining)}
		h["X-Ratelimit-Reset"] = []string{strconv.FormatInt(u.Daily.Reset.Unix(), 10)}
	}
	if u.Burst.Limit > 0 {
		h["X-Ratelimit-Burst-Limit"] = u.limits.burst
		h["X-Ratelimit-Burst-Remaining"] = []string{strconv.Itoa(u.Burst.Remaining)}
		h["X-Ratelimit-Burst-Reset"] = []string{strconv.FormatInt(ceilUnix(u.Burst.Reset), 10)}
	}
}

// limitValues are the limits as header values, shared by every answer and never modified: a
// later Set replaces a slice and an Add copies it (its capacity is its length).
type limitValues struct{ daily, burst []string }

func newLimitValues(l Limits) *limitValues {
	return &limitValues{daily: []string{strconv.Itoa(l.PerDay)}, burst: []string{strconv.Itoa(l.PerMinute)}}
}

// Exceeded reports whether the request is over a limit: which one (Connect v3's detail,
// "daily_quota_exceeded" or "burst_limit_exceeded") and how many whole seconds until a
// request would pass (at least 1, for Retry-After).
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
	wait := w.retry.Sub(u.now)
	return detail, max(int((wait+time.Second-1)/time.Second), 1), true
}

// ceilUnix is t in Unix seconds, rounded up: a client that waits until then is never early.
func ceilUnix(t time.Time) int64 {
	s := t.Unix()
	if t.Nanosecond() > 0 {
		s++
	}
	return s
}

type limiter struct {
	limits Limits
	values *limitValues // limits as header values
	mu     sync.Mutex
	keys   map[int64]*keyState
}

// keyState is one key's limits: tat is the GCRA's theoretical arrival time (the instant at
// which the bucket is whole again), day the UTC day the count belongs to.
type keyState struct {
	tat   time.Time
	day   time.Time
	count int
}

func newLimiter(l Limits) *limiter {
	return &limiter{limits: l, values: newLimitValues(l), keys: map[int64]*keyState{}}
}

func (l *limiter) take(keyID int64, now time.Time) (burst, daily Window) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := l.keys[keyID]
	if k == nil {
		k = &keyState{}
		l.keys[keyID] = k
	}
	daily = l.daily(k, now)
	burst = l.burst(k, now, !daily.Exceeded)
	if !burst.Exceeded && !daily.Exceeded && daily.Limit > 0 {
		k.count++
		daily.Remaining--
	}
	return burst, daily
}

// daily reports the quota before the request is counted.
func (l *limiter) daily(k *keyState, now time.Time) Window {
	limit := l.limits.PerDay
	if limit <= 0 {
		return Window{}
	}
	day := now.UTC().Truncate(24 * time.Hour)
	if !k.day.Equal(day) {
		k.day, k.count = day, 0
	}
	next := day.Add(24 * time.Hour)
	w := Window{Limit: limit, Remaining: limit - k.count, Reset: next}
	if k.count >= limit {
		w.Exceeded, w.Remaining, w.retry = true, 0, next
	}
	return w
}

// burst applies the GCRA; spend says whether an admitted request takes its share (not when the
// daily quota refuses it anyway).
func (l *limiter) burst(k *keyState, now time.Time, spend bool) Window {
	limit := l.limits.PerMinute
	if limit <= 0 {
		return Window{}
	}
	interval := time.Minute / time.Duration(limit) // one request's share of the bucket
	capacity := time.Minute                        // limit × interval, without rounding
	tat := k.tat
	if tat.Before(now) {
		tat = now
	}
	w := Window{Limit: limit}
	next := tat.Add(interval)
	if next.Sub(now) > capacity {
		// Refused: it passes once the bucket has drained enough to hold one more.
		w.Exceeded, w.retry, w.Reset = true, next.Add(-capacity), tat
		return w
	}
	if spend {
		tat = next
		k.tat = next
	}
	w.Remaining = int((capacity - tat.Sub(now)) / interval)
	w.Reset = tat
	return w
}
