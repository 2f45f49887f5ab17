package db

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// Each upgrade writes a backup next to the database first; only the newest UpgradeBackupsKept
// stay. An up-to-date database is opened without one.
func TestUpgradeBackupsKept(t *testing.T) {
	fromScratch(t)
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
// database made by an earlier build can lack migrations below its newest one. Each case is the
// set of migrations of a commit on main that later gained lower ones. Opening such a database
// applies the missing migrations and the newer ones, after a backup; a command that must not
// migrate refuses it as behind.
func TestUpgradeAppliesMigrationsMergedBelowTheDatabase(t *testing.T) {
	fromScratch(t)
	early := []int64{1, 10, 11, 20, 30, 50, 51, 90, 100, 110, 111, 112, 113, 120, 130, 131}
	for _, tc := range []struct {
		commit  string
		present []int64
	}{
		{"cc69bd9", append(slices.Clone(early), 240, 290)},
		{"9696ddb", append(slices.Clone(early), 200, 220, 221, 222, 230, 231, 240, 290, 310)},
		{"e26c036", append(slices.Clone(early), 200, 220, 221, 222, 230, 231, 240, 250, 270, 290, 310, 360, 361, 362)},
		{"42cffb3", append(slices.Clone(early), 200, 220, 221, 222, 230, 231, 240, 250, 270, 290, 310, 355, 356, 357, 360, 361, 362)},
	} {
		t.Run(tc.commit, func(t *testing.T) {
			upgradeFrom(t, tc.present)
		})
	}
}

func upgradeFrom(t *testing.T, present []int64) {
	ctx := context.Background()
	path, conn := emptyDatabase(t)
	provider, err := newProvider(conn)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range present {
		if _, err := provider.ApplyVersion(ctx, v, true); err != nil {
			t.Fatalf("apply %d: %v", v, err)
		}
	}
	conn.Close()

	// doctor's reading says what is missing (Inspect).
	want := 0
	for _, src := range provider.ListSources() {
		if v := src.Version; v < slices.Max(present) && !slices.Contains(present, v) {
			want++
		}
	}
	if st := Inspect(ctx, path); st.Schema != slices.Max(present) || st.Missing != want || want == 0 {
		t.Errorf("Inspect: schema %d, missing %d; want %d and %d (> 0)", st.Schema, st.Missing, slices.Max(present), want)
	}
	if _, err := OpenWith(ctx, path, OpenOptions{MustExist: true, Pending: RefusePending}); err == nil {
		t.Fatal("a command that must not migrate opened a database missing migrations; want a BehindError")
	}
	var backups []string
	d, err := OpenWith(ctx, path, OpenOptions{OnUpgradeBackup: func(p string, from, to int64) { backups = append(backups, p) }})
	if err != nil {
		t.Fatalf("open a database missing migrations below its newest: %v", err)
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
	// The schema is the one the migrations make in order.
	_, fresh := migratedTo(t, KnownSchema())
	if got, want := schemaNames(t, d.Read), schemaNames(t, fresh); !slices.Equal(got, want) {
		t.Fatalf("schema objects after the upgrade differ from a fresh database's:\ngot  %v\nwant %v", got, want)
	}
}

// schemaNames describes a schema, sorted: every index, trigger and view with its SQL, and every
// table column with its type, constraint and default. A column added by ALTER TABLE goes to the
// end of its table, so a table's columns may stand in another order when its migrations ran in
// another order; nothing depends on their order (sqlc names every column).
func schemaNames(t *testing.T, conn *sql.DB) []string {
	t.Helper()
	rows, err := conn.Query(`
		SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_schema
		WHERE type <> 'table' AND name NOT LIKE 'sqlite_%'
		UNION ALL
		SELECT 'column ' || m.name || '.' || c.name || ' ' || c.type || ' ' || c."notnull" || ' ' || coalesce(c.dflt_value, '') || ' ' || c.pk
		FROM sqlite_schema AS m, pragma_table_info(m.name) AS c
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'
		ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		names = append(names, s)
	}
	return names
}

// A database at the newest schema that lacks an earlier migration is refused as behind in
// words that fit: not "has schema version 382 and this frontdesk uses 382".
func TestBehindErrorWithoutNewerSchema(t *testing.T) {
	e := &BehindError{Path: "data/frontdesk.db", Schema: 382, Known: 382}
	if msg := e.Error(); !strings.Contains(msg, "lacks earlier migrations") || strings.Contains(msg, "uses 382") {
		t.Errorf("message %q", msg)
	}
	e = &BehindError{Path: "data/frontdesk.db", Schema: 290, Known: 382}
	if msg := e.Error(); !strings.Contains(msg, "has schema version 290 and this frontdesk uses 382") {
		t.Errorf("message %q", msg)
	}
}
