package db

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Each upgrade writes a backup next to the database first; only the newest UpgradeBackupsKept
// stay. An up-to-date database is opened without one.
func TestUpgradeBackupsKept(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), FileName)
	d, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var reported []string
	for i := range 5 {
		// Pretend the newest migration was never applied: the next open upgrades.
		d, err := OpenWith(ctx, path, OpenOptions{Pending: IgnorePending})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Write.Exec(`DELETE FROM goose_db_version WHERE version_id = (SELECT max(version_id) FROM goose_db_version)`); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Write.Exec(`DROP TABLE app_versions`); err != nil {
			t.Fatal(err)
		}
		d.Close()
		now := at.Add(time.Duration(i) * time.Hour)
		d, err = OpenWith(ctx, path, OpenOptions{Now: func() time.Time { return now },
			OnUpgradeBackup: func(p string, from, to int64) { reported = append(reported, p) }})
		if err != nil {
			t.Fatal(err)
		}
		d.Close()
	}
	if len(reported) != 5 {
		t.Fatalf("got %d backups reported, want 5", len(reported))
	}
	kept := upgradeBackups(path)
	if len(kept) != UpgradeBackupsKept || kept[0] != reported[2] || kept[2] != reported[4] {
		t.Fatalf("kept %v, want the newest %d of %v", kept, UpgradeBackupsKept, reported)
	}
	for _, p := range kept {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, %v; want 0600", p, fi.Mode(), err)
		}
	}
	d, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if got := upgradeBackups(path); len(got) != UpgradeBackupsKept || got[2] != kept[2] {
		t.Errorf("opening an up-to-date database changed the backups: %v", got)
	}
}
