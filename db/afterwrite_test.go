package db

import (
	"context"
	"errors"
	"sync"
	"testing"
)

// outcomes records what AfterWrite told each labelled write, and how many times.
type outcomes struct {
	mu sync.Mutex
	m  map[string][]bool
}

func (o *outcomes) register(t *testing.T, q *Queries, label string) {
	if !q.AfterWrite(func(committed bool) {
		o.mu.Lock()
		defer o.mu.Unlock()
		o.m[label] = append(o.m[label], committed)
	}) {
		t.Errorf("AfterWrite refused inside InTx (%s)", label)
	}
}

func (o *outcomes) check(t *testing.T, want map[string]bool) {
	t.Helper()
	o.mu.Lock()
	defer o.mu.Unlock()
	for label, committed := range want {
		got := o.m[label]
		if len(got) != 1 || got[0] != committed {
			t.Errorf("write %q was told %v, want exactly [%v]", label, got, committed)
		}
	}
}

// TestAfterWrite: a write's AfterWrite functions are told its true outcome exactly once —
// committed for a write whose savepoint was released and whose batch committed; rolled back for
// a failing or panicking write in the same batch, for the writes of a batch SQLite abandoned,
// and for a lone write that fails — and they have run by the time its caller is answered.
// Queries outside the committer refuse to register.
func TestAfterWrite(t *testing.T) {
	g := newGroupTest(t)
	o := &outcomes{m: map[string][]bool{}}
	write := func(label string, then func(ctx context.Context, q *Queries) error) func(ctx context.Context, q *Queries) error {
		return func(ctx context.Context, q *Queries) error {
			o.register(t, q, label)
			if err := insert(ctx, q, label); err != nil {
				return err
			}
			if then != nil {
				return then(ctx, q)
			}
			return nil
		}
	}
	g.batch(nil,
		write("a", nil),
		write("b", func(context.Context, *Queries) error { return errors.New("b changes its mind") }),
		write("c", func(context.Context, *Queries) error { panic("c panics") }),
		write("d", nil),
	)
	o.check(t, map[string]bool{"a": true, "b": false, "c": false, "d": true})

	// SQLite abandons the transaction under a batch: the write before is rolled back with it,
	// the write that ended it too, the write after commits in a fresh transaction.
	g.batch(nil,
		write("before", nil),
		write("ender", func(ctx context.Context, q *Queries) error {
			if _, err := q.db.ExecContext(ctx, "ROLLBACK"); err != nil {
				return err
			}
			return errors.New("the transaction is gone")
		}),
		write("after", nil),
	)
	o.check(t, map[string]bool{"before": false, "ender": false, "after": true})

	// Lone writes (a batch of one): told before InTx returns.
	ctx := context.Background()
	lone := func(fn func(ctx context.Context, q *Queries) error) func(q *Queries) error {
		return func(q *Queries) error { return fn(ctx, q) }
	}
	if err := g.d.InTx(ctx, lone(write("alone", nil))); err != nil {
		t.Fatal(err)
	}
	o.check(t, map[string]bool{"alone": true})
	g.d.InTx(ctx, lone(write("alone-fails", func(context.Context, *Queries) error { return errors.New("no") })))
	o.check(t, map[string]bool{"alone-fails": false})
	for label, want := range map[string]bool{"a": true, "b": false, "c": false, "d": true, "before": false, "after": true, "alone": true, "alone-fails": false} {
		if g.visible(label) != want {
			t.Errorf("row %q committed = %v, want %v (the outcome told must be the true one)", label, !want, want)
		}
	}

	if g.d.R.AfterWrite(func(bool) {}) || g.d.W.AfterWrite(func(bool) {}) {
		t.Error("AfterWrite accepted Queries that are not a write of the committer")
	}
	if g.d.R.Writer() != nil {
		t.Error("Writer of the read Queries is not nil")
	}
	var writer *DB
	g.d.InTx(ctx, func(q *Queries) error { writer = q.Writer(); return nil })
	if writer != g.d {
		t.Error("Writer inside InTx is not the database")
	}
}
