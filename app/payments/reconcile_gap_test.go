package payments

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// TestReconcilerCoalescesWakes: a burst of commits (each wakes the worker) runs at most one
// pass per SweepGap, not one per commit, and a wake during the gap is still served after it.
func TestReconcilerCoalescesWakes(t *testing.T) {
	d := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName))
	r := NewReconciler(NewOnline(d, OnlineOptions{}), nil)
	r.SweepEvery, r.SweepGap = time.Hour, 100*time.Millisecond
	var passes atomic.Int64
	r.passed = func() { passes.Add(1) }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.Run(ctx)
	for passes.Load() == 0 { // the pass at start
		time.Sleep(time.Millisecond)
	}
	start := time.Now()
	for time.Since(start) < 250*time.Millisecond {
		r.Wake()
		time.Sleep(200 * time.Microsecond)
	}
	elapsed := time.Since(start)
	// One pass per gap at most, plus the one at start and the one a gap may have begun with.
	if n, most := passes.Load(), int64(elapsed/r.SweepGap)+2; n > most {
		t.Errorf("%d passes in %s of constant wakes, want at most %d (one per %s)", n, elapsed, most, r.SweepGap)
	}
	before := passes.Load()
	r.Wake()
	deadline := time.Now().Add(5 * time.Second)
	for passes.Load() == before {
		if time.Now().After(deadline) {
			t.Fatal("a wake after the burst was never served")
		}
		time.Sleep(time.Millisecond)
	}
}
