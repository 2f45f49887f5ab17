package dbtest

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"frontdesk/db"
)

// Migrating a new database runs every migration, and under the race detector that costs
// seconds per database (the SQLite engine is transpiled C, which the detector slows the most),
// while copying a migrated file costs milliseconds. So each test binary migrates one template
// once and every test gets its own copy of it: still a real SQLite file of its own, in its own
// directory, exactly what db.Open would have left behind on a fresh one.
var template struct {
	once sync.Once
	raw  []byte
	err  error
}

// Migrated returns the bytes of a freshly migrated, empty database file (WAL checkpointed, so
// the file alone is the whole database). The first call in a test binary migrates it.
func Migrated(t testing.TB) []byte {
	t.Helper()
	template.once.Do(func() { template.raw, template.err = migrate() })
	if template.err != nil {
		t.Fatalf("migrated template database: %v", template.err)
	}
	return template.raw
}

func migrate() ([]byte, error) {
	dir, err := os.MkdirTemp("", "frontdesk-dbtest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, db.FileName)
	d, err := db.Open(context.Background(), path)
	if err != nil {
		return nil, err
	}
	// Closing the last connection checkpoints the WAL into the file and removes it; the file
	// alone is then the whole database, which is checked rather than assumed.
	if err := d.Close(); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
		return nil, fmt.Errorf("%s-wal still holds %d bytes after closing", path, fi.Size())
	}
	return os.ReadFile(path)
}

// fresh gives a copy the values each new installation draws at random while migrating, so no
// two tests share a key as no two installations do. A migration that adds such a value adds
// its statement here; TestCopyIsLikeFresh finds one that was forgotten.
var fresh = []string{
	`UPDATE mcp_settings SET slot_key = randomblob(32)`,                 // 00240_mcp.sql
	`UPDATE site_settings SET calendar_id = lower(hex(randomblob(16)))`, // 00270_booking_site.sql
	`UPDATE message_settings SET unsubscribe_key = randomblob(32)`,      // 00290_messages.sql
}

// NewFile writes a migrated, empty database to path, which must not exist yet (its directory
// must), with this installation's own random values. db.Open on it finds nothing to migrate;
// so does `frontdesk serve --data` on its directory when path is db.Path(dir).
func NewFile(t testing.TB, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(Migrated(t)); err != nil {
		f.Close()
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	conn, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := refresh(conn); err != nil {
		t.Fatal(err)
	}
	if err := conn.Close(); err != nil {
		t.Fatal(err)
	}
}

// refresh runs fresh in one transaction. The trigger on site_settings counts the new
// calendar_id as a catalog change; a fresh database has had none, so the counter is put back.
func refresh(conn *sql.DB) error {
	tx, err := conn.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int64
	if err := tx.QueryRow(`SELECT n FROM catalog_version WHERE id = 1`).Scan(&n); err != nil {
		return fmt.Errorf("catalog version: %w", err)
	}
	for _, q := range fresh {
		if _, err := tx.Exec(q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	if _, err := tx.Exec(`UPDATE catalog_version SET n = ? WHERE id = 1`, n); err != nil {
		return err
	}
	return tx.Commit()
}

// Open is db.Open on a new copy of the migrated template at path (see NewFile); the database is
// closed when the test ends.
func Open(t testing.TB, path string) *db.DB {
	t.Helper()
	NewFile(t, path)
	d, err := db.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}
