package keyauth

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestBurstLimiterBound drives the limiter directly with uneven arrivals and checks the
// promise of docs/api.md: in any span of t seconds, at most limit·(1 + t/60) requests pass,
// and never more than limit at one instant.
func TestBurstLimiterBound(t *testing.T) {
	const limit = 10
	l := newLimiter(Limits{PerMinute: limit})
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	var passed []time.Time
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		// Mostly steady pressure above the limit, with pauses now and then.
		gap := time.Duration(rng.Int64N(int64(2 * time.Second)))
		if rng.IntN(50) == 0 {
			gap = time.Duration(rng.Int64N(int64(90 * time.Second)))
		}
		now = now.Add(gap)
		if b, _ := l.take(1, now); !b.Exceeded {
			passed = append(passed, now)
		}
	}
	if len(passed) < 100 {
		t.Fatalf("only %d of 3000 passed; the limiter starves", len(passed))
	}
	for i := range passed {
		for j := i; j < len(passed); j++ {
			span := passed[j].Sub(passed[i])
			allowed := limit * (1 + span.Seconds()/60)
			if float64(j-i+1) > allowed+1e-9 {
				t.Fatalf("%d requests passed in %v, want at most %.2f", j-i+1, span, allowed)
			}
		}
	}
}
