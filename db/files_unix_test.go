//go:build unix

package db_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"frontdesk/db"
)

// A new database, its WAL and its shared-memory index are readable by their owner only, as the
// backups are, whatever the umask lets through (SQLite alone would make all three 0644).
func TestNewDatabaseFilesArePrivate(t *testing.T) {
	old := syscall.Umask(0o022) // the usual umask, with which SQLite's own files are 0644
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), db.FileName)
	d, err := db.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.Write.Exec(`INSERT INTO categories (name, sort_order, created_at, updated_at) VALUES ('c', 0, 1, 1)`); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %04o, want 0600", filepath.Base(p), fi.Mode().Perm())
		}
	}
}
