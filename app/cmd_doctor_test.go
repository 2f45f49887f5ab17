package app

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// doctor's checks on loopback: a free port reachable through the public host, a port held by
// another program (a failure, exit 1), a port held by a running frontdesk, a database that is
// not there yet (a warning) — and it changes nothing on disk.
func TestDoctor(t *testing.T) {
	t.Run("ready to serve", func(t *testing.T) {
		dir := newDataDir(t)
		port := strconv.Itoa(freePort(t))
		before := snapshot(t, dir)
		code, out, stderr := run(t, "", "doctor", "--data", dir, "--addr", "127.0.0.1:"+port, "--public-url", "http://localhost:"+port)
		if code != 0 {
			t.Fatalf("exit %d\n%s%s", code, out, stderr)
		}
		for _, want := range []string{"ok    database: ", "(current)", "ok    public URL: http://localhost:" + port,
			"ok    public host: localhost resolves to", "an address of this machine",
			"ok    port 127.0.0.1:" + port + " (HTTP): free", "ok    reachable at localhost:" + port, "all checks passed"} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
		if snapshot(t, dir) != before {
			t.Error("doctor changed the data directory")
		}
	})
	t.Run("port held by another program", func(t *testing.T) {
		other := httptest.NewServer(http.NotFoundHandler())
		defer other.Close()
		addr := strings.TrimPrefix(other.URL, "http://")
		dir := filepath.Join(t.TempDir(), "data")
		code, out, _ := run(t, "", "doctor", "--data", dir, "--addr", addr)
		if code != exitFail {
			t.Errorf("exit %d, want 1", code)
		}
		for _, want := range []string{"warn  database: ", "does not exist yet", "warn  public URL: not set", "FAIL  port " + addr + " (HTTP): in use by another program"} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
		if _, err := os.Stat(dir); err == nil {
			t.Error("doctor created the data directory")
		}
	})
	t.Run("port held by frontdesk", func(t *testing.T) {
		dir := newDataDir(t)
		srv := serveInProcess(t, dir, []string{"--addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0"})
		addr := strings.TrimPrefix(srv.URL, "http://")
		_, port, _ := net.SplitHostPort(addr)
		metrics := srv.listening["metrics"]
		code, out, _ := run(t, "", "doctor", "--data", dir, "--addr", addr, "--public-url", "http://localhost:"+port, "--metrics-addr", metrics)
		if code != 0 || !strings.Contains(out, "in use by a running frontdesk") || !strings.Contains(out, "ok    reachable at localhost:"+port) ||
			!strings.Contains(out, "ok    port "+metrics+" (metrics): in use by a running frontdesk") {
			t.Errorf("exit %d:\n%s", code, out)
		}
	})
	// serve cannot open --metrics-addr where another program listens: doctor says so first.
	t.Run("metrics port held by another program", func(t *testing.T) {
		other := httptest.NewServer(http.NotFoundHandler())
		defer other.Close()
		metrics := strings.TrimPrefix(other.URL, "http://")
		port := strconv.Itoa(freePort(t))
		code, out, _ := run(t, "", "doctor", "--data", newDataDir(t), "--addr", "127.0.0.1:"+port, "--metrics-addr", metrics)
		if code != exitFail || !strings.Contains(out, "FAIL  port "+metrics+" (metrics): in use by another program") {
			t.Errorf("exit %d, want %d and the metrics port failed:\n%s", code, exitFail, out)
		}
	})
}
