package db

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// groupTest is a database with a table of labelled rows and a way to make the next writes
// queue up behind a blocked one, so that they commit as one batch.
type groupTest struct {
	t *testing.T
	d *DB
}

func newGroupTest(t *testing.T) *groupTest {
	d := openTest(t)
	if _, err := d.Write.ExecContext(context.Background(), `CREATE TABLE gc (label TEXT PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	return &groupTest{t: t, d: d}
}

func insert(ctx context.Context, q *Queries, label string) error {
	_, err := q.db.ExecContext(ctx, `INSERT INTO gc (label) VALUES (?)`, label)
	return err
}

// visible reports whether label is committed: the read pool sees only committed rows.
func (g *groupTest) visible(label string) bool {
	g.t.Helper()
	var n int
	if err := g.d.Read.QueryRowContext(context.Background(), `SELECT count(*) FROM gc WHERE label = ?`, label).Scan(&n); err != nil {
		g.t.Fatal(err)
	}
	return n == 1
}

// batch runs fns as one batch: a first write holds the writer until every fn has been handed to
// InTx, then lets go. It returns each fn's InTx result (or its panic value).
func (g *groupTest) batch(ctxs []context.Context, fns ...func(ctx context.Context, q *Queries) error) []any {
	g.t.Helper()
	release := make(chan struct{})
	blocker := make(chan error, 1)
	go func() {
		blocker <- g.d.InTx(context.Background(), func(q *Queries) error { <-release; return nil })
	}()
	for g.d.writesWaiting() != 0 || !g.running() { // the blocker holds the writer
		time.Sleep(time.Millisecond)
	}
	out := make([]any, len(fns))
	var wg sync.WaitGroup
	for i, fn := range fns { // one at a time, so that they queue in this order
		ctx := context.Background()
		if ctxs != nil && ctxs[i] != nil {
			ctx = ctxs[i]
		}
		wg.Go(func() {
			defer func() {
				if v := recover(); v != nil {
					out[i] = v
				}
			}()
			out[i] = g.d.InTx(ctx, func(q *Queries) error { return fn(ctx, q) })
		})
		for g.d.writesWaiting() != i+1 {
			time.Sleep(time.Millisecond)
		}
	}
	close(release)
	wg.Wait()
	if err := <-blocker; err != nil {
		g.t.Fatal(err)
	}
	return out
}

// running reports whether the committer holds a transaction (the blocker's): the writer's one
// connection is in use.
func (g *groupTest) running() bool { return g.d.Write.Stats().InUse == 1 }

// TestGroupCommit: writes that queue up behind a running one commit together in one
// transaction, each seeing the batch's earlier writes; a failing write undoes only its own
// changes; a panic reaches its own caller only; and a caller gone before its turn writes
// nothing.
func TestGroupCommit(t *testing.T) {
	g := newGroupTest(t)
	var sawUncommitted bool
	// The fourth caller goes away while its write waits in the batch (the second write cancels
	// it, after the committer took it).
	leaving, leave := context.WithCancel(context.Background())
	defer leave()
	ctxs := []context.Context{nil, nil, nil, leaving, nil}
	out := g.batch(ctxs,
		func(ctx context.Context, q *Queries) error { return insert(ctx, q, "a") },
		func(ctx context.Context, q *Queries) error {
			if err := insert(ctx, q, "b"); err != nil {
				return err
			}
			leave()
			return errors.New("b changes its mind")
		},
		func(ctx context.Context, q *Queries) error {
			if err := insert(ctx, q, "c"); err != nil {
				return err
			}
			panic("c panics")
		},
		func(ctx context.Context, q *Queries) error { return insert(ctx, q, "gone") },
		func(ctx context.Context, q *Queries) error {
			// The batch's earlier write "a" is visible here but not yet committed.
			var n int
			if err := q.db.QueryRowContext(ctx, `SELECT count(*) FROM gc WHERE label = 'a'`).Scan(&n); err != nil {
				return err
			}
			sawUncommitted = n == 1 && !g.visible("a")
			return insert(ctx, q, "e")
		},
	)
	if out[0] != nil || out[4] != nil {
		t.Fatalf("successful writes answered %v and %v", out[0], out[4])
	}
	if err, _ := out[1].(error); err == nil || err.Error() != "b changes its mind" {
		t.Errorf("failing write answered %v, want its own error", out[1])
	}
	if out[2] != "c panics" {
		t.Errorf("panicking write's caller got %v, want its panic", out[2])
	}
	if !errors.Is(out[3].(error), context.Canceled) {
		t.Errorf("cancelled caller got %v, want context.Canceled", out[3])
	}
	if !sawUncommitted {
		t.Error("the last write did not share a transaction with the first (no group commit)")
	}
	for label, want := range map[string]bool{"a": true, "b": false, "c": false, "gone": false, "e": true} {
		if g.visible(label) != want {
			t.Errorf("row %q committed = %v, want %v", label, !want, want)
		}
	}
}

// TestGroupCommitAbandoned: when SQLite ends the whole transaction under a batch (here a write
// that ends it itself, as a full disk or an I/O error would), the batch's earlier writes are
// answered with an error and not committed, and the later ones run in a fresh transaction.
func TestGroupCommitAbandoned(t *testing.T) {
	g := newGroupTest(t)
	out := g.batch(nil,
		func(ctx context.Context, q *Queries) error { return insert(ctx, q, "before") },
		func(ctx context.Context, q *Queries) error {
			if _, err := q.db.ExecContext(ctx, "ROLLBACK"); err != nil {
				return err
			}
			return errors.New("the transaction is gone")
		},
		func(ctx context.Context, q *Queries) error { return insert(ctx, q, "after") },
	)
	if out[0] == nil {
		t.Error("a write rolled back with its batch was answered as committed")
	}
	if out[1] == nil {
		t.Error("the write that ended the transaction was answered as committed")
	}
	if out[2] != nil {
		t.Errorf("the write after it answered %v, want a commit in a fresh transaction", out[2])
	}
	if g.visible("before") || !g.visible("after") {
		t.Errorf("committed: before %v (want false), after %v (want true)", g.visible("before"), g.visible("after"))
	}
	// The committer still works.
	if err := g.d.InTx(context.Background(), func(q *Queries) error { return insert(context.Background(), q, "later") }); err != nil {
		t.Fatal(err)
	}
}

// TestGroupCommitManyWriters: concurrent writers that each read a counter and add one never
// lose an update, and every acknowledged write is there.
func TestGroupCommitManyWriters(t *testing.T) {
	g := newGroupTest(t)
	ctx := context.Background()
	if _, err := g.d.Write.ExecContext(ctx, `CREATE TABLE counter (n INTEGER NOT NULL); INSERT INTO counter VALUES (0)`); err != nil {
		t.Fatal(err)
	}
	const writers, each = 16, 50
	var wg sync.WaitGroup
	var mu sync.Mutex
	acked := 0
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				err := g.d.InTx(ctx, func(q *Queries) error {
					var n int
					if err := q.db.QueryRowContext(ctx, `SELECT n FROM counter`).Scan(&n); err != nil {
						return err
					}
					if _, err := q.db.ExecContext(ctx, `UPDATE counter SET n = ?`, n+1); err != nil {
						return err
					}
					return insert(ctx, q, fmt.Sprintf("%d-%d", w, i))
				})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				acked++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	var n, rows int
	if err := g.d.Read.QueryRowContext(ctx, `SELECT (SELECT n FROM counter), (SELECT count(*) FROM gc)`).Scan(&n, &rows); err != nil {
		t.Fatal(err)
	}
	if n != acked || rows != acked || acked != writers*each {
		t.Fatalf("counter %d, rows %d, acknowledged %d; want %d each", n, rows, acked, writers*each)
	}
}

// TestInTxAfterClose: a write after Close is refused, not left waiting.
func TestInTxAfterClose(t *testing.T) {
	g := newGroupTest(t)
	g.d.Close()
	err := g.d.InTx(context.Background(), func(q *Queries) error { return nil })
	if !errors.Is(err, ErrClosed) {
		t.Fatalf("InTx after Close: %v, want ErrClosed", err)
	}
}

// TestInTxQuiet: a quiet write commits like any other, alone or in a batch, but its commit wakes
// the AfterCommit hooks only when a write of the same batch that is not quiet committed with it.
func TestInTxQuiet(t *testing.T) {
	g := newGroupTest(t)
	var woken atomic.Int64
	g.d.AfterCommit(func() { woken.Add(1) })
	ctx := context.Background()
	write := func(quiet bool, label string) func() error {
		fn := func(q *Queries) error { return insert(ctx, q, label) }
		if quiet {
			return func() error { return g.d.InTxQuiet(ctx, fn) }
		}
		return func() error { return g.d.InTx(ctx, fn) }
	}
	check := func(what string, wantWoken int64, labels ...string) {
		t.Helper()
		if got := woken.Swap(0); got != wantWoken {
			t.Errorf("%s: hooks ran %d times, want %d", what, got, wantWoken)
		}
		for _, l := range labels {
			if !g.visible(l) {
				t.Errorf("%s: row %q not committed", what, l)
			}
		}
	}

	if err := write(true, "alone")(); err != nil {
		t.Fatal(err)
	}
	check("a quiet write alone", 0, "alone")
	if err := write(false, "loud")(); err != nil {
		t.Fatal(err)
	}
	check("a write alone", 1, "loud")

	g.quietBatch(write(true, "q1"), write(true, "q2"))
	check("a batch of quiet writes", 0, "q1", "q2")
	g.quietBatch(write(true, "q3"), write(false, "w1"), write(true, "q4"))
	check("a batch with one write that is not quiet", 1, "q3", "w1", "q4")
	// A batch whose only loud write fails wakes nobody: nothing of it committed.
	g.quietBatch(write(true, "q5"), func() error {
		err := g.d.InTx(ctx, func(q *Queries) error { return errors.New("no") })
		if err == nil {
			return errors.New("the failing write was answered as committed")
		}
		return nil
	})
	check("a batch whose loud write failed", 0, "q5")
}

// quietBatch runs calls (each one InTx or InTxQuiet) as one batch behind a quiet write that
// holds the writer until all of them are queued, and fails the test on any error.
func (g *groupTest) quietBatch(calls ...func() error) {
	g.t.Helper()
	release := make(chan struct{})
	blocker := make(chan error, 1)
	go func() {
		blocker <- g.d.InTxQuiet(context.Background(), func(q *Queries) error { <-release; return nil })
	}()
	for g.d.writesWaiting() != 0 || !g.running() {
		time.Sleep(time.Millisecond)
	}
	errs := make([]error, len(calls))
	var wg sync.WaitGroup
	for i, call := range calls {
		wg.Go(func() { errs[i] = call() })
		for g.d.writesWaiting() != i+1 {
			time.Sleep(time.Millisecond)
		}
	}
	close(release)
	wg.Wait()
	if err := <-blocker; err != nil {
		g.t.Fatal(err)
	}
	for _, err := range errs {
		if err != nil {
			g.t.Error(err)
		}
	}
}
