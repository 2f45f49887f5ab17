package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// inProcess is `frontdesk serve` run by Run in this process, with its log collected.
type inProcess struct {
	URL       string            // http://addr of the main listener
	listening map[string]string // other listeners by name ("metrics", "http", "https")
	logs      *lockedBuffer
	stop      func() int
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// serveInProcess starts serve with args (plus --data dir) and stops it when the test ends.
// env gives FRONTDESK_* variables as "KEY=value".
func serveInProcess(t *testing.T, dir string, args []string, env ...string) *inProcess {
	t.Helper()
	return serveInProcessAt(t, dir, nil, args, env...)
}

// serveInProcessAt is serveInProcess on the clock now (nil: the real one): tests of what
// happens at a time — a reminder — move it instead of waiting.
func serveInProcessAt(t *testing.T, dir string, now func() time.Time, args []string, env ...string) *inProcess {
	t.Helper()
	vars := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	p := &inProcess{logs: &lockedBuffer{}, listening: map[string]string{}}
	var mu sync.Mutex
	ready := make(chan string, 1)
	done := make(chan int, 1)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		done <- Run(ctx, Env{
			Args:   append([]string{"serve", "--data", dir}, args...),
			Getenv: func(k string) string { return vars[k] },
			Now:    now,
			Stdout: io.Discard, Stderr: p.logs,
			Ready: func(addr string) { ready <- addr },
			Listening: func(name, addr string) {
				mu.Lock()
				p.listening[name] = addr
				mu.Unlock()
			},
		})
	}()
	var once sync.Once
	code := 0
	p.stop = func() int {
		once.Do(func() {
			cancel()
			select {
			case code = <-done:
			case <-time.After(30 * time.Second):
				t.Error("serve did not stop within 30 s")
			}
		})
		return code
	}
	t.Cleanup(func() { p.stop() })
	select {
	case addr := <-ready:
		p.URL = "http://" + addr
	case code := <-done:
		t.Fatalf("serve exited with %d before it was ready:\n%s", code, p.logs)
	case <-time.After(60 * time.Second):
		t.Fatalf("serve not ready after 60 s:\n%s", p.logs)
	}
	return p
}

// logEntries returns the JSON log lines whose msg is msg.
func (p *inProcess) logEntries(msg string) []map[string]any {
	var out []map[string]any
	for _, line := range strings.Split(p.logs.String(), "\n") {
		var e map[string]any
		if json.Unmarshal([]byte(line), &e) == nil && e["msg"] == msg {
			out = append(out, e)
		}
	}
	return out
}

// newDataDir is a temp data directory with a fresh database in it, as `frontdesk migrate`
// leaves it (commands other than serve, migrate and import refuse a directory without one).
// The database is a copy of one migrated once per test binary (dbtest): migrating costs
// seconds under the race detector. TestMigrate and TestStartingCommandsCreateTheDatabase run
// the command itself.
func newDataDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	dbtest.NewFile(t, db.Path(dir))
	return dir
}
