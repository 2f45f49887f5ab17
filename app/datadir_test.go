package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"frontdesk/db"
)

// Every command except serve, migrate and import, given a data directory without a frontdesk
// database — mistyped, empty, holding an empty or foreign file — fails with exit 1 and a
// message naming the directory and what to do, and creates nothing (docs/deploy.md "Data
// directory").
func TestCommandsRefuseMissingDatabase(t *testing.T) {
	commands := [][]string{
		{"owner", "create", "--email", "ana@example.com"},
		{"owner", "reset-password", "--email", "ana@example.com"},
		{"apikey", "create", "--name", "laptop", "--full-access"},
		{"apikey", "list"},
		{"apikey", "revoke", "1"},
		{"webhook", "create", "--url", "https://hooks.example.com/in", "--events", "*"},
		{"webhook", "list"},
		{"webhook", "reactivate", "1"},
		{"webhook", "rotate-secret", "1"},
		{"webhook", "delete", "1"},
		{"webhook", "test", "1"},
		{"messages", "test", "--to", "ana@example.com"},
		{"backup", "BACKUP"},
	}
	dirs := []struct {
		name    string
		prepare func(t *testing.T, dir string)
		exists  bool
	}{
		{"mistyped (does not exist)", func(*testing.T, string) {}, false},
		{"empty directory", func(t *testing.T, dir string) { mkdir(t, dir) }, true},
		{"empty database file", func(t *testing.T, dir string) { mkdir(t, dir); write(t, db.Path(dir), nil) }, true},
		{"not a database", func(t *testing.T, dir string) { mkdir(t, dir); write(t, db.Path(dir), []byte("hello, not SQLite\n")) }, true},
		{"someone else's SQLite file", func(t *testing.T, dir string) { mkdir(t, dir); foreignSQLite(t, db.Path(dir)) }, true},
	}
	for _, d := range dirs {
		for _, cmd := range commands {
			for _, viaEnv := range []bool{false, true} {
				name := d.name + "/" + strings.Join(cmd[:2], " ")
				if viaEnv {
					name += "/FRONTDESK_DATA"
				}
				t.Run(name, func(t *testing.T) {
					root := t.TempDir()
					dir := filepath.Join(root, "data")
					d.prepare(t, dir)
					before := snapshot(t, root)
					args := make([]string, 0, len(cmd)+2)
					for _, a := range cmd {
						if a == "BACKUP" {
							a = filepath.Join(root, "backup.db")
						}
						args = append(args, a)
					}
					getenv := func(string) string { return "" }
					if viaEnv {
						getenv = func(k string) string {
							if k == "FRONTDESK_DATA" {
								return dir
							}
							return ""
						}
					} else {
						args = append(args, "--data", dir)
					}
					var stdout, stderr bytes.Buffer
					code := Run(context.Background(), Env{Args: args, Getenv: getenv, Stdin: strings.NewReader("a long enough password\n"),
						Stdout: &stdout, Stderr: &stderr, Now: time.Now})
					if code != exitFail {
						t.Errorf("got exit %d, want %d; stderr %s", code, exitFail, stderr.String())
					}
					msg := stderr.String()
					// Restoring a backup over a leftover -wal corrupts it: the hint says to delete it.
					for _, want := range []string{"no frontdesk database", dir, "--data", "frontdesk serve --data", "frontdesk.db-wal"} {
						if !strings.Contains(msg, want) {
							t.Errorf("message %q does not mention %q", msg, want)
						}
					}
					if stdout.Len() > 0 {
						t.Errorf("printed %q on stdout, want nothing", stdout.String())
					}
					if after := snapshot(t, root); after != before {
						t.Errorf("the command changed the file system:\nbefore %s\nafter  %s", before, after)
					}
				})
			}
		}
	}
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, name string, b []byte) {
	t.Helper()
	if err := os.WriteFile(name, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func foreignSQLite(t *testing.T, name string) {
	t.Helper()
	conn, err := sql.Open("sqlite", name)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Exec(`CREATE TABLE notes (body TEXT)`); err != nil {
		t.Fatal(err)
	}
}

// snapshot describes every file under root: path, mode and content hash.
func snapshot(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %v", strings.TrimPrefix(path, root), info.Mode())
		if !e.IsDir() {
			raw, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, " %x", sha256.Sum256(raw))
		}
		b.WriteString("; ")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// serve, migrate and import start installations: they create the directory and the database.
func TestStartingCommandsCreateTheDatabase(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "data")
	code, stdout, stderr := run(t, "", "migrate", "--data", dir)
	if code != 0 || !strings.Contains(stderr, "created a new database at "+db.Path(dir)) || !strings.Contains(stdout, "schema version") {
		t.Fatalf("migrate on a new directory: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if code, _, stderr := run(t, "", "apikey", "list", "--data", dir); code != 0 {
		t.Fatalf("apikey list after migrate: exit %d, %s", code, stderr)
	}
}
