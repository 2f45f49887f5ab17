package queue

import (
	"math"
	"sync"
	"time"
)

// Per-target concurrency that follows the target's latency (docs/webhooks.md, "Slow
// endpoints"). Every target may keep Config.PerTarget attempts in flight on the shared pool of
// Config.Workers, as before: that share is all a hanging or failing target can ever hold of the
// pool, so it never starves the others. A target whose store gives it a higher bound
// (Bounded) may go past its share on extra slots of its own — a goroutine and a connection
// each, no worker of the pool — while it stays slow and steady:
//
//   - each finished attempt updates the target's smoothed latency and its least latency seen
//     (which drifts up slowly, so a target that has become slower for good is judged by its
//     new normal);
//   - while work is queued for it, its latency is at least slowLatency (below that its share of
//     the pool drains it faster than our own CPU could use more), and the smoothed latency
//     stays within 1.5 times the least — more attempts at once do not slow it down — the limit
//     grows by one per finished attempt (so it doubles about every round trip);
//   - when the smoothed latency passes twice the least (the target is queueing our attempts),
//     the limit shrinks by a twentieth per attempt; a failure that means overload (a timeout, a
//     refused connection, 429, 5xx) halves it;
//   - it never goes below the share nor above the bound.
//
// An endpoint that answers in 2 s thus drains at bound ÷ 2 s instead of share ÷ 2 s, and one that
// hangs until the timeout stays at its share: its attempts never finish healthy.

// Bounded is implemented by a target type whose targets may each have their own bound on
// attempts in flight (a webhook's max_concurrency). A target type that does not implement it
// keeps every target at Config.PerTarget.
type Bounded interface {
	MaxConcurrency() int
}

// Healthy is implemented by a result type that tells an attempt refused for overload (a
// timeout, a refused connection, 429, 5xx) from any other outcome.
type Healthy interface {
	Healthy() bool
}

// slowLatency is the least smoothed latency at which a target's limit grows past its share.
const slowLatency = 10 * time.Millisecond

// limiter is one target's adaptive limit and the latencies it follows.
type limiter struct {
	limit       float64
	minRTT, rtt time.Duration
}

// limits holds the limiters of the open targets, owned by the dispatcher's loop.
type limits struct {
	share  int           // Config.PerTarget
	bounds map[int64]int // each open target's bound (≥ 1), from the last claim round
	by     map[int64]*limiter
}

func newLimits(share int) *limits {
	return &limits{share: share, bounds: map[int64]int{}, by: map[int64]*limiter{}}
}

// setBounds takes the open targets' bounds from a claim round and forgets the others.
func (ls *limits) setBounds(bounds map[int64]int) {
	ls.bounds = bounds
	for id := range ls.by {
		if _, ok := bounds[id]; !ok {
			delete(ls.by, id)
		}
	}
}

// shareOf is how many attempts target id may keep on the shared pool: the share, or its bound
// when that is lower (an owner may ask for less at once than the share).
func (ls *limits) shareOf(id int64) int {
	if b, ok := ls.bounds[id]; ok && b < ls.share {
		return b
	}
	return ls.share
}

// limit is how many attempts target id may have in flight now.
func (ls *limits) limit(id int64) int {
	if l := ls.by[id]; l != nil {
		return int(l.limit)
	}
	return ls.shareOf(id)
}

// Limit reports target id's current limit and bound (for tests and metrics).
func (ls *limits) Limit(id int64) (limit, bound int) {
	bound, ok := ls.bounds[id]
	if !ok {
		bound = ls.share
	}
	return ls.limit(id), bound
}

// observe updates target id's limit with an attempt that took took; backlog says whether work
// is queued for it.
func (ls *limits) observe(id int64, took time.Duration, healthy, backlog bool) {
	bound, share := ls.bounds[id], ls.shareOf(id)
	if bound <= share {
		delete(ls.by, id)
		return
	}
	l := ls.by[id]
	if l == nil {
		l = &limiter{limit: float64(share)}
		ls.by[id] = l
	}
	if !healthy {
		l.limit = max(float64(share), l.limit/2)
		return
	}
	if l.minRTT == 0 || took < l.minRTT {
		l.minRTT = took
	} else {
		l.minRTT += (took - l.minRTT) / 64
	}
	if l.rtt == 0 {
		l.rtt = took
	} else {
		l.rtt += (took - l.rtt) / 8
	}
	switch {
	case l.rtt > 2*l.minRTT:
		l.limit = max(float64(share), l.limit*0.95)
	case backlog && l.rtt >= slowLatency && l.rtt*2 <= l.minRTT*3:
		l.limit = min(float64(bound), l.limit+1)
	}
}

// rateWindow is the time constant of a target's delivery rate: attempts of about the last ten
// seconds count.
const rateWindow = 10 * time.Second

// TargetStats is how a target is being served now, for the owner's pages.
type TargetStats struct {
	// Limit is how many attempts it may have in flight now, Bound the most it ever may.
	Limit, Bound int
	// Rate is how many attempts to it finished per second, over about the last ten seconds.
	Rate float64
}

// targetRate is an exponentially decaying count of finished attempts.
type targetRate struct {
	rate float64 // per second, as of last
	last time.Time
}

func (r targetRate) at(now time.Time) float64 {
	if r.last.IsZero() {
		return 0
	}
	return r.rate * math.Exp(-now.Sub(r.last).Seconds()/rateWindow.Seconds())
}

// stats is what the loop publishes for Target: written by the loop, read by the owner's pages.
type stats struct {
	mu     sync.Mutex
	rates  map[int64]targetRate
	limits map[int64][2]int // limit, bound
}

func (s *stats) finished(id int64, now time.Time, limit, bound int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rates == nil {
		s.rates, s.limits = map[int64]targetRate{}, map[int64][2]int{}
	}
	r := s.rates[id]
	s.rates[id] = targetRate{rate: r.at(now) + 1/rateWindow.Seconds(), last: now}
	s.limits[id] = [2]int{limit, bound}
}

func (s *stats) keep(open map[int64]int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id := range s.rates {
		if _, ok := open[id]; !ok {
			delete(s.rates, id)
			delete(s.limits, id)
		}
	}
}

// Target returns how target id is being served; false when nothing has been sent to it since
// the dispatcher started (or it is closed).
func (d *Dispatcher[P, T, R]) Target(id int64) (TargetStats, bool) {
	d.stats.mu.Lock()
	defer d.stats.mu.Unlock()
	r, ok := d.stats.rates[id]
	if !ok {
		return TargetStats{}, false
	}
	l := d.stats.limits[id]
	return TargetStats{Limit: l[0], Bound: l[1], Rate: r.at(time.Now())}, true
}
