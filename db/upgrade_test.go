package db

import (
	"context"
	"database/sql"
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
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var reported []string
	for i := range UpgradeBackupsKept + 1 {
		// A database at an earlier schema (120), as an older frontdesk left it.
		for _, suffix := range []string{"", "-wal", "-shm"} {
			os.Remove(path + suffix)
		}
		conn, err := sql.Open("sqlite", dsn(path, true))
		if err != nil {
			t.Fatal(err)
		}
		provider, err := newProvider(conn)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := provider.UpTo(ctx, 120); err != nil {
			t.Fatal(err)
		}
		conn.Close()
		now := at.Add(time.Duration(i) * time.Hour)
		d, err := OpenWith(ctx, path, OpenOptions{Now: func() time.Time { return now },
			OnUpgradeBackup: func(p string, from, to int64) { reported = append(reported, p) }})
		if err != nil {
			t.Fatal(err)
		}
		d.Close()
	}
	if len(reported) != UpgradeBackupsKept+1 {
		t.Fatalf("got %d backups reported, want %d", len(reported), UpgradeBackupsKept+1)
	}
	kept := upgradeBackups(path)
	if len(kept) != UpgradeBackupsKept || kept[0] != reported[1] || kept[len(kept)-1] != reported[len(reported)-1] {
		t.Fatalf("kept %v, want the newest %d of %v", kept, UpgradeBackupsKept, reported)
	}
	for _, p := range kept {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, %v; want 0600", p, fi.Mode(), err)
		}
	}
	d, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if got := upgradeBackups(path); len(got) != UpgradeBackupsKept || got[len(got)-1] != kept[len(kept)-1] {
		t.Errorf("opening an up-to-date database changed the backups: %v", got)
	}
}
