package app

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// Acceptance: a backup taken while writes are running opens as a consistent database, holding
// every transaction committed before it started and no half of any transaction.
func TestBackupWhileWriting(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	d := dbtest.Open(t, db.Path(dir))

	// Each writer commits transactions of two rows — a category and a client with the same
	// name, "w<writer>-<sequence>" — one after another, counting what it has committed.
	const writers = 4
	var committed [writers]atomic.Int64
	stop := make(chan struct{})
	errs := make(chan error, writers)
	var wg sync.WaitGroup
	for g := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				name := fmt.Sprintf("w%d-%06d", g, n)
				err := d.InTx(ctx, func(q *db.Queries) error {
					if _, err := q.CreateCategory(ctx, db.CreateCategoryParams{Name: name, SortOrder: int64(n), CreatedAt: 1, UpdatedAt: 1}); err != nil {
						return err
					}
					_, err := q.ImportClient(ctx, db.ImportClientParams{FirstName: name, CreatedAt: 1, UpdatedAt: 1})
					return err
				})
				if err != nil {
					errs <- err
					return
				}
				committed[g].Store(int64(n + 1))
			}
		}()
	}
	total := func(c *[writers]atomic.Int64) (sum int64) {
		for g := range c {
			sum += c[g].Load()
		}
		return sum
	}
	stopWriters := func() {
		select {
		case <-stop:
		default:
			close(stop)
		}
		wg.Wait()
	}
	defer stopWriters()
	// Enough rows that copying them takes a while, so that writers commit during the copy.
	deadline := time.Now().Add(60 * time.Second)
	for total(&committed) < 1000 {
		if time.Now().After(deadline) {
			t.Fatalf("writers committed only %d transactions in 60 s", total(&committed))
		}
		time.Sleep(5 * time.Millisecond) // waiting for other goroutines' progress; nothing to block on
	}

	var before [writers]int64
	for g := range writers {
		before[g] = committed[g].Load()
	}
	dest := filepath.Join(t.TempDir(), "backup.db")
	code, _, stderr := runImportCLI(t, "", "backup", "--data", dir, dest)
	duringBackup := total(&committed)
	stopWriters()
	close(errs)
	for err := range errs {
		t.Fatalf("writer: %v", err)
	}
	if code != 0 {
		t.Fatalf("backup: got exit %d, stderr %q; want 0", code, stderr)
	}
	// The copy says what it means for an erasure: the client stays in it (docs/data.md).
	if !strings.Contains(stderr, "a client erased later stays in it") {
		t.Errorf("backup's note: stderr %q, want it to say an erased client stays in the copy", stderr)
	}
	var sumBefore int64
	for _, n := range before {
		sumBefore += n
	}
	if duringBackup <= sumBefore {
		t.Fatalf("no transaction committed while the backup ran (%d before, %d after); the test proves nothing", sumBefore, duringBackup)
	}

	b, err := db.Open(ctx, dest)
	if err != nil {
		t.Fatalf("open the backup: %v", err)
	}
	defer b.Close()
	var integrity string
	if err := b.Read.QueryRow(`PRAGMA integrity_check`).Scan(&integrity); err != nil || integrity != "ok" {
		t.Fatalf("integrity_check: got %q, %v; want ok", integrity, err)
	}
	rows, err := b.Read.Query(`PRAGMA foreign_key_check`)
	if err != nil {
		t.Fatal(err)
	}
	if rows.Next() {
		t.Errorf("foreign_key_check: got violations, want none")
	}
	rows.Close()

	for g := range writers {
		prefix := fmt.Sprintf("w%d-", g)
		var categories, clients, last int64
		err := b.Read.QueryRow(`SELECT count(*), coalesce(max(CAST(substr(name, 4) AS INTEGER)), -1) FROM categories WHERE name LIKE ? || '%'`, prefix).Scan(&categories, &last)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Read.QueryRow(`SELECT count(*) FROM clients WHERE first_name LIKE ? || '%'`, prefix).Scan(&clients); err != nil {
			t.Fatal(err)
		}
		var matched int64
		if err := b.Read.QueryRow(`SELECT count(*) FROM categories c JOIN clients k ON k.first_name = c.name WHERE c.name LIKE ? || '%'`, prefix).Scan(&matched); err != nil {
			t.Fatal(err)
		}
		switch {
		case categories < before[g]:
			t.Errorf("writer %d: the backup holds %d transactions, want at least the %d committed before it started", g, categories, before[g])
		case last != categories-1:
			t.Errorf("writer %d: the backup holds %d transactions up to number %d, want a gap-free prefix", g, categories, last)
		case clients != categories || matched != categories:
			t.Errorf("writer %d: %d categories, %d clients, %d pairs; want whole transactions only", g, categories, clients, matched)
		}
	}
}

// The README's "Restoring a backup" steps exactly as written (the same command lines, paths in
// temporary directories, as root with the data directory the service's): the backup taken as
// root while the service ran is what the service serves afterwards, a write made after it is
// gone, the files are the service's and private, and the service takes writes.
func TestRestoreBackupAsWritten(t *testing.T) {
	h, dir, rootDir := newTestHost(t)
	h.settings = []string{"FRONTDESK_RATE_LIMIT_PER_MINUTE=0"}
	uid := h.users["frontdesk"]
	if code, _, stderr := runBinAs(t, uid, h.frontdesk(), "", nil, "migrate", "--data", dir); code != 0 {
		t.Fatalf("migrate: %d %s", code, stderr)
	}
	code, key, stderr := runBinAs(t, uid, h.frontdesk(), "", nil, "apikey", "create", "--data", dir, "--name", "k", "--full-access")
	if code != 0 {
		t.Fatalf("apikey create: %d %s", code, stderr)
	}
	key = strings.TrimSpace(key)
	h.units["frontdesk"].start()
	before, _ := createClient(t, h.service.URL, key, "Before", "Backup")
	backup := filepath.Join(rootDir, "frontdesk-backup.db")
	if code, _, stderr := runBinAs(t, -1, h.frontdesk(), "", nil, "backup", "--data", dir, backup); code != 0 || before != 201 {
		t.Fatalf("backup as root while serving: %d %s (client: %d)", code, stderr, before)
	}
	if after, _ := createClient(t, h.service.URL, key, "After", "Backup"); after != 201 {
		t.Fatalf("client after the backup: %d", after)
	}
	for _, step := range readmeSteps(t, "- **Restoring a backup**") {
		h.step(step)
	}
	if h.service == nil {
		t.Fatal("the README's restore steps do not start frontdesk again")
	}
	conn, err := sql.Open("sqlite", "file:"+db.Path(dir)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var names string
	if err := conn.QueryRow(`SELECT group_concat(first_name) FROM clients`).Scan(&names); err != nil || names != "Before" {
		t.Errorf("clients after the restore: %q (%v), want only the one in the backup", names, err)
	}
	if fi, err := os.Stat(db.Path(dir)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the restored database: %v (%v), want mode 0600", fi.Mode(), err)
	}
	if uid >= 0 {
		if others := notOwnedBy(t, dir, uid); len(others) > 0 {
			t.Errorf("after the restore the data directory holds files the service does not own: %v", others)
		}
	}
	if status, _ := createClient(t, h.service.URL, key, "Restored", "Write"); status != 201 {
		t.Errorf("a write after the restore: %d\n%s", status, h.service.logs)
	}
}
