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

// TestForgetKept: after ForgetKept, every value either pool kept — the read pool's, the
// writer's, the database's Counted, its Catalog and its Unchanged readings — is loaded again,
// and kept again once loaded.
func TestForgetKept(t *testing.T) {
	g := newGroupTest(t)
	ctx := context.Background()
	loads := map[string]int{}
	load := func(key string) func() (string, error) {
		return func() (string, error) { loads[key]++; return key, nil }
	}
	use := func() {
		t.Helper()
		if _, err := Kept(g.d.R, "read", 3, load("read")); err != nil {
			t.Fatal(err)
		}
		if err := g.d.InTx(ctx, func(q *Queries) error {
			_, err := Kept(q, "write", 3, load("write"))
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if _, ok := g.d.Counted().Lookup("counted", 3); !ok {
			loads["counted"]++
			g.d.Counted().Store("counted", 3, "counted")
		}
		if _, ok := g.d.Catalog().Lookup(3, "catalog"); !ok {
			loads["catalog"]++
			g.d.Catalog().Store(3, "catalog", "catalog")
		}
		if _, err := Unchanged(g.d, "unchanged", load("unchanged")); err != nil {
			t.Fatal(err)
		}
	}
	want := func(n int, when string) {
		t.Helper()
		for _, key := range []string{"read", "write", "counted", "catalog", "unchanged"} {
			if loads[key] != n {
				t.Errorf("%s: %q loaded %d times, want %d", when, key, loads[key], n)
			}
		}
	}
	use()
	use()
	want(1, "kept")
	g.d.ForgetKept()
	use()
	want(2, "after ForgetKept")
	use()
	want(2, "kept again")
}
