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

// readmeLitestream returns the README's Litestream configuration and restore command with the
// example paths replaced: the test runs the recipe as the README gives it.
func readmeLitestream(t *testing.T, dataDir, replicaDir, configPath string) (config string, restore []string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	m := regexp.MustCompile("(?s)```yaml\n(\\s*# /etc/litestream.yml\n.*?)```").FindStringSubmatch(readme)
	if m == nil {
		t.Fatal("README has no litestream.yml block")
	}
	r := regexp.MustCompile("(?m)^\\s*(litestream restore .*)$").FindStringSubmatch(readme)
	if r == nil {
		t.Fatal("README has no litestream restore command")
	}
	swap := strings.NewReplacer("/var/lib/frontdesk", dataDir, "/var/backups/frontdesk", replicaDir, "/etc/litestream.yml", configPath)
	config = swap.Replace(m[1])
	// The replica syncs continuously; a shorter interval only makes the test quicker.
	config = strings.Replace(config, "    replica:\n", "    replica:\n        sync-interval: 100ms\n", 1)
	return config, strings.Fields(swap.Replace(r[1]))[1:]
}

// The README's Litestream recipe, with real Litestream: replicate while the server writes,
// restore, and find every committed row and a clean integrity_check.
func TestLitestreamRoundTrip(t *testing.T) {
	ls := litestreamBinary(t)
	root := t.TempDir()
	dir := filepath.Join(root, "data")
	replica := filepath.Join(root, "replica")
	cfgPath := filepath.Join(root, "litestream.yml")
	config, restoreArgs := readmeLitestream(t, dir, replica, cfgPath)
	if err := os.WriteFile(cfgPath, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}

	if code, _, stderr := run(t, "", "migrate", "--data", dir); code != 0 {
		t.Fatalf("migrate: %d %s", code, stderr)
	}
	_, key, _ := run(t, "", "apikey", "create", "--data", dir, "--name", "litestream", "--full-access")
	key = strings.TrimSpace(key)
	srv := serveInProcess(t, dir, []string{"--addr", "127.0.0.1:0", "--rate-limit-per-minute", "0"})

	logs := &lockedBuffer{}
	rep := exec.Command(ls, "replicate", "-config", cfgPath)
	rep.Stdout, rep.Stderr = logs, logs
	if err := rep.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	stopReplication := func() {
		if stopped {
			return
		}
		stopped = true
		rep.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- rep.Wait() }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			rep.Process.Kill()
			t.Errorf("litestream did not stop on SIGTERM:\n%s", logs)
		}
	}
	t.Cleanup(stopReplication)

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
				body := fmt.Sprintf(`{"first_name":"W%d","last_name":"N%d","email":"w%d.n%d@example.com"}`, w, i, w, i)
				req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v3/clients", strings.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+key)
				req.Header.Set("Content-Type", "application/json")
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				var c struct{ ID int64 }
				json.NewDecoder(res.Body).Decode(&c)
				res.Body.Close()
				if res.StatusCode == http.StatusCreated {
					mu.Lock()
					committed = append(committed, c.ID)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if len(committed) != 240 {
		t.Fatalf("%d clients committed, want 240", len(committed))
	}

	// Restore (as the README says) until the replica has caught up with every committed row.
	restored := filepath.Join(root, "restored", "frontdesk.db")
	var missing int
	waitUntil(t, 60*time.Second, "a restore with every committed client", func() bool {
		os.RemoveAll(filepath.Dir(restored))
		args := append([]string(nil), restoreArgs...)
		for i, a := range args {
			if a == "-o" {
				args[i+1] = restored
			}
		}
		if out, err := exec.Command(ls, args...).CombinedOutput(); err != nil {
			t.Logf("restore: %v %s", err, out)
			return false
		}
		missing = missingClients(t, restored, committed)
		return missing == 0
	})
	stopReplication()

	conn, err := sql.Open("sqlite", "file:"+restored+"?mode=ro")
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
	// The restored database is one frontdesk opens: serve starts on it.
	restoredSrv := serveInProcess(t, filepath.Dir(restored), []string{"--addr", "127.0.0.1:0"})
	res, err := http.Get(restoredSrv.URL + "/readyz")
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("serve on the restored database: %v %v", res, err)
	}
	res.Body.Close()
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
