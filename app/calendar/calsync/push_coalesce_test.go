package calsync

import (
	"context"
	"testing"
	"time"
)

// A stream of commits wakes the pusher on every one; it looks for due bookings at once after a
// quiet spell, and then at most once every LookEvery however many wakes come.
func TestPusherCoalescesWakes(t *testing.T) {
	d := openDB(t)
	p := running(t, NewPusher(d, nil, nil, time.Now))
	p.awaitLooks(1) // the round Run starts with
	for range 100 {
		p.Wake()
		time.Sleep(2 * time.Millisecond) // the spacing of a stream of commits
	}
	if n := p.looks.Load(); n != 1 {
		t.Fatalf("%d rounds for 100 wakes within the interval, want the first one only", n)
	}

	// After a quiet spell longer than the interval a wake looks at once; waiting for the
	// interval would take the hour.
	q := running(t, NewPusher(d, nil, nil, time.Now))
	q.awaitLooks(1)
	q.lastLook.Store(time.Now().Add(-2 * time.Hour).UnixNano())
	q.Wake()
	q.awaitLooks(2)
}

// runningPusher is a Pusher whose Run goes on until the test ends.
type runningPusher struct {
	*Pusher
	t *testing.T
}

// running starts p.Run with an interval of an hour: no second round comes unless a quiet spell
// came first.
func running(t *testing.T, p *Pusher) runningPusher {
	p.LookEvery = time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != context.Canceled {
			t.Errorf("Run: %v", err)
		}
	})
	return runningPusher{p, t}
}

// awaitLooks waits until Run has started n rounds.
func (p runningPusher) awaitLooks(n int64) {
	p.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for p.looks.Load() < n {
		if time.Now().After(deadline) {
			p.t.Fatalf("%d rounds after 10 s, want %d", p.looks.Load(), n)
		}
		time.Sleep(time.Millisecond) // polling a counter: nothing to wait on
	}
}
