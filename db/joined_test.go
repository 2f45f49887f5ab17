package db

import (
	"context"
	"errors"
	"testing"
)

// TestInTxJoinsTheCallersTransaction: an InTx called with a context marked by WithTx runs on the
// caller's transaction — it returns at once instead of waiting for the committer that runs the
// caller — in a savepoint of its own: a joined write that fails undoes only itself (and its
// AfterWrite functions hear it did not commit) while the caller's other changes commit; one that
// succeeds commits with the caller and not before, or not at all when the caller fails. Reader
// reads through the joined transaction, its uncommitted rows included. The same holds inside a
// group commit batch; a context kept past its write is refused.
func TestInTxJoinsTheCallersTransaction(t *testing.T) {
	g := newGroupTest(t)
	d := g.d
	ctx := context.Background()
	o := &outcomes{m: map[string][]bool{}}
	seen := func(q *Queries, label string) bool {
		var n int
		if err := q.db.QueryRowContext(ctx, `SELECT count(*) FROM gc WHERE label = ?`, label).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n == 1
	}

	var kept context.Context
	err := d.InTx(ctx, func(q *Queries) error {
		if err := insert(ctx, q, "outer"); err != nil {
			return err
		}
		jctx := WithTx(ctx, q)
		kept = jctx
		if !d.Joined(jctx) || d.Joined(ctx) {
			t.Error("Joined: want true only for the marked context")
		}
		if err := d.InTx(jctx, func(q *Queries) error {
			if !seen(d.Reader(jctx), "outer") {
				t.Error("Reader of a joined context does not see the caller's uncommitted row")
			}
			if seen(d.Reader(ctx), "outer") {
				t.Error("Reader of a plain context sees an uncommitted row")
			}
			return insert(ctx, q, "kept")
		}); err != nil {
			return err
		}
		failed := errors.New("changes its mind")
		err := d.InTx(jctx, func(q *Queries) error {
			o.register(t, q, "undone")
			if err := insert(ctx, q, "undone"); err != nil {
				return err
			}
			// Nested once more: released into the failing step, and undone with it.
			return errors.Join(d.InTx(jctx, func(q *Queries) error { return insert(ctx, q, "nested") }), failed)
		})
		if !errors.Is(err, failed) {
			t.Errorf("failing joined write: got %v", err)
		}
		if seen(q, "undone") || seen(q, "nested") {
			t.Error("a failed joined write left its rows in the caller's transaction")
		}
		if g.visible("kept") {
			t.Error("a joined write committed before its caller")
		}
		return d.InTxQuiet(jctx, func(q *Queries) error { return insert(ctx, q, "quiet") })
	})
	if err != nil {
		t.Fatal(err)
	}
	for label, want := range map[string]bool{"outer": true, "kept": true, "quiet": true, "undone": false, "nested": false} {
		if g.visible(label) != want {
			t.Errorf("row %q committed: %v, want %v", label, !want, want)
		}
	}
	o.check(t, map[string]bool{"undone": false})
	if err := d.InTx(kept, func(q *Queries) error { return insert(ctx, q, "late") }); !errors.Is(err, errJoinedEnded) {
		t.Errorf("InTx with a context kept past its write: got %v, want errJoinedEnded", err)
	}

	// A caller that fails takes its joined writes with it, inside a batch too.
	out := g.batch(nil,
		func(ctx context.Context, q *Queries) error {
			if err := d.InTx(WithTx(ctx, q), func(q *Queries) error { return insert(ctx, q, "joined-then-failed") }); err != nil {
				return err
			}
			return errors.New("the caller fails")
		},
		func(ctx context.Context, q *Queries) error {
			return d.InTx(WithTx(ctx, q), func(q *Queries) error { return insert(ctx, q, "joined-in-batch") })
		},
	)
	if out[0] == nil || out[1] != nil {
		t.Fatalf("batch answers: %v", out)
	}
	if g.visible("joined-then-failed") || !g.visible("joined-in-batch") {
		t.Error("joined writes in a batch did not share their caller's outcome")
	}
	// Queries that are not a committer's write leave the context unmarked.
	if d.Joined(WithTx(ctx, d.R)) {
		t.Error("WithTx marked a context with the read pool")
	}
}
