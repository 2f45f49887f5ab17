package app

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"frontdesk/db"
)

// litestreamBinary finds the pinned Litestream that .ci/run installs (in PATH or GOPATH/bin).
func litestreamBinary(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("litestream"); err == nil {
		return p
	}
	if gopath, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		p := filepath.Join(strings.TrimSpace(string(gopath)), "bin", "litestream")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("litestream is needed (.ci/run installs it with go install …/litestream@v0.5.18)")
	}
	t.Skip("litestream not installed: go install github.com/benbjohnson/litestream/cmd/litestream@v0.5.18")
	return ""
}

// readmeLitestreamConfig returns the README's Litestream configuration with the example paths
// replaced: the test replicates as the README says.
func readmeLitestreamConfig(t *testing.T, h *testHost) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```yaml\n(\\s*# /etc/litestream.yml\n.*?)```").FindStringSubmatch(string(raw))
	if m == nil {
		t.Fatal("README has no litestream.yml block")
	}
	config := h.paths.Replace(m[1])
	// The replica syncs continuously; a shorter interval only makes the test quicker.
	return strings.Replace(config, "    replica:\n", "    replica:\n        sync-interval: 100ms\n", 1)
}

// The README's Litestream recipe, with real Litestream: replicate while the service writes,
// lose its clients, then run the README's restore steps exactly as written (the same command
// lines, paths in temporary directories; as root, with the service's user as the owner of the
// data directory, when the test runs as root). Every committed row is back, integrity_check is
// clean, the files are the service's and private, and the service starts and takes writes.
func TestLitestreamRoundTrip(t *testing.T) {
	ls := litestreamBinary(t)
	work := t.TempDir()
	replica := filepath.Join(work, "replica")
	cfgPath := filepath.Join(work, "litestream.yml")
	h, dir, _ := newTestHost(t, "/etc/litestream.yml", cfgPath, "/var/backups/frontdesk", replica)
	if err := os.WriteFile(cfgPath, []byte(readmeLitestreamConfig(t, h)), 0o600); err != nil {
		t.Fatal(err)
	}
	h.settings = []string{"FRONTDESK_RATE_LIMIT_PER_MINUTE=0"}
	uid := h.users["frontdesk"]
	if code, _, stderr := runBinAs(t, uid, h.frontdesk(), "", nil, "migrate", "--data", dir); code != 0 {
		t.Fatalf("migrate: %d %s", code, stderr)
	}
	code, key, stderr := runBinAs(t, uid, h.frontdesk(), "", nil, "apikey", "create", "--data", dir, "--name", "litestream", "--full-access")
	if code != 0 {
		t.Fatalf("apikey create: %d %s", code, stderr)
	}
	key = strings.TrimSpace(key)

	// Litestream runs as root (as its Debian unit does), beside the service.
	logs := &lockedBuffer{}
	var rep *exec.Cmd
	h.units["litestream"] = &testUnit{
		start: func() {
			rep = exec.Command(ls, "replicate", "-config", cfgPath)
			rep.Stdout, rep.Stderr = logs, logs
			if err := rep.Start(); err != nil {
				t.Fatal(err)
			}
		},
		stop: func() {
			if rep == nil {
				return
			}
			rep.Process.Signal(syscall.SIGTERM)
			done := make(chan error, 1)
			go func() { done <- rep.Wait() }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				rep.Process.Kill()
				t.Errorf("litestream did not stop on SIGTERM:\n%s", logs)
			}
			rep = nil
		},
	}
	t.Cleanup(h.units["litestream"].stop)
	h.units["frontdesk"].start()
	h.units["litestream"].start()

	// Four writers create clients through the API while Litestream replicates; a client counts
	// as committed once the API answered 201.
	var mu sync.Mutex
	var committed []int64
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 60 {
				status, id := createClient(t, h.service.URL, key, fmt.Sprintf("W%d", w), fmt.Sprintf("N%d", i))
				if status == http.StatusCreated {
					mu.Lock()
					committed = append(committed, id)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if len(committed) != 240 {
		t.Fatalf("%d clients committed, want 240", len(committed))
	}
	// Wait until the replica holds every committed row (restored to a scratch file), so that
	// what the recipe restores can be compared with what was committed.
	scratch := filepath.Join(work, "scratch")
	waitUntil(t, 60*time.Second, "the replica to hold every committed client", func() bool {
		os.RemoveAll(scratch)
		path := filepath.Join(scratch, "frontdesk.db")
		if out, err := exec.Command(ls, "restore", "-config", cfgPath, "-o", path, db.Path(dir)).CombinedOutput(); err != nil {
			t.Logf("restore: %v %s", err, out)
			return false
		}
		return missingClients(t, path, committed) == 0
	})

	// The README's restore steps; once the services have stopped, the clients are lost from the
	// database, which stays where it is (as after a mistaken change, or a damaged file).
	steps := readmeSteps(t, "To restore, as root: stop frontdesk")
	var restored bool
	for _, step := range steps {
		if step[0] == "litestream" {
			loseClients(t, db.Path(dir))
			restored = true
		}
		h.step(step)
	}
	if !restored || h.service == nil || rep == nil {
		t.Fatalf("README's restore steps lack a litestream restore or a start of both: %v", steps)
	}

	if n := missingClients(t, db.Path(dir), committed); n != 0 {
		t.Errorf("%d committed clients are not in the restored database", n)
	}
	conn, err := sql.Open("sqlite", "file:"+db.Path(dir)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var check string
	if err := conn.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check of the restored database: %q, %v", check, err)
	}
	if rows, err := conn.Query(`PRAGMA foreign_key_check`); err != nil || rows.Next() {
		t.Errorf("foreign_key_check of the restored database found violations (%v)", err)
	}
	if fi, err := os.Stat(db.Path(dir)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the restored database: %v (%v), want mode 0600", fi.Mode(), err)
	}
	if uid >= 0 {
		for _, p := range []string{db.Path(dir), db.Path(dir) + "-wal", db.Path(dir) + "-shm"} {
			if fi, err := os.Stat(p); err == nil {
				if owner, _ := db.FileOwner(fi); owner != uid {
					t.Errorf("%s belongs to %s, not to the service's user", p, db.UserName(owner))
				}
			}
		}
	}
	// The service (started by the last step) serves the restored database and writes to it.
	if status, _ := createClient(t, h.service.URL, key, "After", "Restore"); status != http.StatusCreated {
		t.Errorf("a write after the restore: %d\n%s", status, h.service.logs)
	}
}

// loseClients deletes every client from the database at path.
func loseClients(t *testing.T, path string) {
	t.Helper()
	conn, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Exec(`DELETE FROM clients`); err != nil {
		t.Fatal(err)
	}
}

// createClient POSTs a client to /v3/clients and returns the status and the new id.
func createClient(t *testing.T, base, key, first, last string) (int, int64) {
	body := fmt.Sprintf(`{"first_name":%q,"last_name":%q,"email":"%s.%s@example.com"}`, first, last, strings.ToLower(first), strings.ToLower(last))
	req, _ := http.NewRequest(http.MethodPost, base+"/v3/clients", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Error(err)
		return 0, 0
	}
	defer res.Body.Close()
	var c struct{ ID int64 }
	json.NewDecoder(res.Body).Decode(&c)
	return res.StatusCode, c.ID
}

func missingClients(t *testing.T, path string, ids []int64) int {
	t.Helper()
	conn, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return len(ids)
	}
	defer conn.Close()
	have := map[int64]bool{}
	rows, err := conn.QueryContext(context.Background(), `SELECT id FROM clients`)
	if err != nil {
		return len(ids)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		rows.Scan(&id)
		have[id] = true
	}
	n := 0
	for _, id := range ids {
		if !have[id] {
			n++
		}
	}
	return n
}

// Litestream keeps its place in the WAL; a TRUNCATE (or RESTART) checkpoint forced by frontdesk
// would pull the WAL from under it. Nothing outside tests asks for one.
func TestNoForcedCheckpoint(t *testing.T) {
	forced := regexp.MustCompile(`(?i)wal_checkpoint\s*\(\s*(truncate|restart)`)
	err := filepath.WalkDir("..", func(path string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || strings.HasSuffix(path, "_test.go") ||
			!(strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".sql")) {
			return err
		}
		raw, err := os.ReadFile(path)
		if err == nil && forced.Match(raw) {
			t.Errorf("%s forces a checkpoint: %s", path, forced.Find(raw))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
