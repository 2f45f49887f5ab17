package bench

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestFanoutProducersCommitConcurrently: webhook_fanout's producers commit side by side, as
// bookings from many clients do, so that their commits can share a group commit. Each commit
// here waits until all producers are inside one at once.
func TestFanoutProducersCommitConcurrently(t *testing.T) {
	const producers = 8
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var inside atomic.Int64
	all := make(chan struct{})
	var once sync.Once
	var numbers sync.Map
	wait := startProducers(ctx, producers, time.Now().Add(time.Minute), make(chan struct{}, 4*producers), func(n int64) error {
		if _, dup := numbers.LoadOrStore(n, true); dup {
			t.Errorf("event %d committed twice", n)
		}
		if inside.Add(1) == producers {
			once.Do(func() { close(all) })
		}
		select {
		case <-all:
		case <-ctx.Done():
		}
		return nil
	})
	select {
	case <-all:
	case <-time.After(10 * time.Second):
		t.Errorf("at most %d of %d producers committed at once", inside.Load(), producers)
	}
	cancel()
	if err := wait(); err != nil {
		t.Fatal(err)
	}
}

// A full run's fan-out alternates in four slices like every scenario; a tiny one (the bench's
// own test) in fewer, each long enough for deliveries to arrive within it.
func TestFanoutRounds(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want int
	}{{10 * time.Second, 4}, {2 * time.Second, 4}, {time.Second, 4}, {600 * time.Millisecond, 2}, {200 * time.Millisecond, 1}, {0, 1}} {
		if got := fanoutRounds(c.d); got != c.want {
			t.Errorf("fanoutRounds(%v) = %d, want %d", c.d, got, c.want)
		}
	}
}
