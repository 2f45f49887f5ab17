package db

import (
	"context"
	"database/sql"
	"runtime"
	"testing"
)

// A stamp must move with every commit — the committer's, and another connection's as another
// process would make — and stay put while nothing commits, reads included.
func TestStampMovesWithEveryCommit(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the WAL index is read only on Unix systems")
	}
	ctx := context.Background()
	d := openTest(t)
	other, err := sql.Open("sqlite", dsn(d.path, false))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	stamp := func(what string) Stamp {
		t.Helper()
		s, ok := d.Stamp()
		if !ok {
			t.Fatalf("%s: no stamp from a database in WAL mode", what)
		}
		return s
	}
	before := stamp("at start")
	if _, err := d.R.CatalogVersion(ctx); err != nil {
		t.Fatal(err)
	}
	if again := stamp("after a read"); again != before {
		t.Fatal("a read moved the stamp")
	}
	seen := map[Stamp]bool{before: true}
	for i := range 50 {
		var err error
		if i%2 == 0 {
			err = d.InTx(ctx, func(q *Queries) error {
				_, err := q.db.ExecContext(ctx, `UPDATE catalog_version SET n = n + 1`)
				return err
			})
		} else {
			_, err = other.Exec(`UPDATE catalog_version SET n = n + 1`)
		}
		if err != nil {
			t.Fatal(err)
		}
		s := stamp("after a commit")
		if seen[s] {
			t.Fatalf("commit %d left a stamp seen before", i)
		}
		seen[s] = true
	}
	if _, err := other.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Exec(`UPDATE catalog_version SET n = n + 1`); err != nil {
		t.Fatal(err)
	}
	if seen[stamp("after a checkpoint and a commit")] {
		t.Fatal("a commit after the WAL restarted left a stamp seen before")
	}
}
