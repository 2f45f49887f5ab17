package bench

import (
	"context"
	"database/sql"
	"log/slog"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"frontdesk/app/webhook"
	"frontdesk/app/webhook/dispatch"
	"frontdesk/db"
	"frontdesk/db/dbtest"
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

// A paced run whose first commit stalls past the end of its planned window (another process
// holds the write lock) still times its deliveries: the window waits for its commits instead of
// ending before any of them.
func TestFanoutPacedSurvivesAStalledCommit(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	path := filepath.Join(t.TempDir(), db.FileName)
	d := dbtest.Open(t, path)
	h, err := registerHooks(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer h.remove(context.WithoutCancel(ctx))
	disp := dispatch.New(d, dispatch.Config{AllowPrivate: true, Poll: 10 * time.Millisecond, Handoff: webhook.NewHandoff(d)}, slog.New(slog.DiscardHandler), time.Now, prometheus.NewRegistry())
	d.AfterCommit(disp.Wake)
	stopped := make(chan error, 1)
	go func() { stopped <- disp.Run(ctx) }()
	defer func() { cancel(); <-stopped }()

	l := Load{Warmup: 20 * time.Millisecond, Duration: 100 * time.Millisecond}
	other, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	lock, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lock.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	held := 3 * (l.Warmup + l.Duration)
	go func() {
		time.Sleep(held) // the stall itself, not a wait for a condition
		lock.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
		lock.Close()
	}()
	f, err := h.fanoutPaced(ctx, l, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if f.Timed < minPaced*fanoutEndpoints {
		t.Fatalf("the paced run timed %d deliveries (errors %d: %s), want at least %d", f.Timed, f.Errors, f.FirstError, minPaced*fanoutEndpoints)
	}
}
