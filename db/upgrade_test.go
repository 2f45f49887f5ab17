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

// Features land on main in any order, each with its own range of migration numbers, so a
// database made by an earlier build can lack migrations below its newest one: main at
// 2026-11-23 (commit cc69bd9) had 290 (messages) before 200–270 were merged. Opening it applies
// the missing migrations and the newer ones, after a backup; a command that must not migrate
// refuses it as behind.
func TestUpgradeAppliesMigrationsMergedBelowTheDatabase(t *testing.T) {
	ctx := context.Background()
	mergedLater := map[int64]bool{200: true, 220: true, 221: true, 222: true, 230: true, 231: true, 250: true, 270: true}
	path, conn := emptyDatabase(t)
	provider, err := newProvider(conn)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range provider.ListSources() {
		if s.Version > 290 || mergedLater[s.Version] {
			continue
		}
		if _, err := provider.ApplyVersion(ctx, s.Version, true); err != nil {
			t.Fatalf("apply %d: %v", s.Version, err)
		}
	}
	conn.Close()

	if _, err := OpenWith(ctx, path, OpenOptions{MustExist: true, Pending: RefusePending}); err == nil {
		t.Fatal("a command that must not migrate opened a database missing migrations; want a BehindError")
	}
	var backups []string
	d, err := OpenWith(ctx, path, OpenOptions{OnUpgradeBackup: func(p string, from, to int64) { backups = append(backups, p) }})
	if err != nil {
		t.Fatalf("open a database missing migrations 200–270 below its 290: %v", err)
	}
	defer d.Close()
	if len(backups) != 1 {
		t.Fatalf("got %d pre-upgrade backups, want 1", len(backups))
	}
	provider, err = newProvider(d.Write)
	if err != nil {
		t.Fatal(err)
	}
	if pending, err := provider.HasPending(ctx); err != nil || pending {
		t.Fatalf("pending after the upgrade: %v, %v", pending, err)
	}
	// What the missing migrations made is there: a table of each.
	for _, table := range []string{"app_versions", "products", "signing_keys", "site_settings"} {
		var n int
		if err := d.Read.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?`, table).Scan(&n); err != nil || n != 1 {
			t.Errorf("table %s after the upgrade: %d, %v", table, n, err)
		}
	}
}
