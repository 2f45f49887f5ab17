package db

import (
	"context"
	"errors"
	"testing"
)

// TestKeptKeepsOnlyCommittedLoads: a value a write loads under a counter reading is kept only
// once that write has committed. A write that raised the counter itself and then rolls back
// (alone, or its savepoint in a group commit) leaves that reading free for the next write to
// the same tables, over other rows: nothing may be kept under it.
func TestKeptKeepsOnlyCommittedLoads(t *testing.T) {
	g := newGroupTest(t)
	ctx := context.Background()
	loads := 0
	kept := func(q *Queries, key string) (string, error) {
		return Kept(q, key, 7, func() (string, error) { loads++; return "loaded", nil })
	}
	// loaded reports whether fn's Kept call loaded (true) or found a kept value.
	loaded := func(fn func()) bool {
		before := loads
		fn()
		return loads > before
	}
	rollback := errors.New("roll back")
	write := func(key string, err error) func() {
		return func() {
			if got := g.d.InTx(ctx, func(q *Queries) error {
				if _, err := kept(q, key); err != nil {
					return err
				}
				return err
			}); !errors.Is(got, err) {
				t.Fatalf("InTx: %v, want %v", got, err)
			}
		}
	}

	if !loaded(write("alone", rollback)) || !loaded(write("alone", nil)) {
		t.Error("a write alone found a value kept by a write that rolled back")
	}
	if loaded(write("alone", nil)) {
		t.Error("a write alone did not find the value a committed write loaded")
	}

	// In a group commit: the first write's savepoint rolls back, the second's commits.
	out := g.batch(nil,
		func(ctx context.Context, q *Queries) error { kept(q, "group"); return rollback },
		func(ctx context.Context, q *Queries) error { kept(q, "other"); return nil },
	)
	if err, _ := out[0].(error); !errors.Is(err, rollback) || out[1] != nil {
		t.Fatalf("batch: %v", out)
	}
	if !loaded(write("group", nil)) {
		t.Error("a value loaded by a rolled-back savepoint was kept")
	}
	if loaded(write("other", nil)) {
		t.Error("a value loaded by a committed savepoint was not kept")
	}

	// Reads see only what has committed: their loads are kept at once.
	read := func() { kept(g.d.R, "read") }
	if !loaded(read) || loaded(read) {
		t.Error("a read's load was not kept")
	}
}
