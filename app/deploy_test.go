package app

import (
	"bytes"
	"debug/elf"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"frontdesk/app/nettest"
)

// The systemd unit in deploy/ is valid for this systemd (systemd-analyze verify prints nothing)
// and carries the hardening the docs promise.
func TestSystemdUnitVerifies(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("systemd-analyze is needed (Debian package systemd; .ci/run installs it): %v", err)
		}
		t.Skipf("systemd-analyze not installed: %v", err)
	}
	unit, err := os.ReadFile(filepath.Join("..", "deploy", "frontdesk.service"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Type=notify", "WatchdogSec=", "ExecStart=/usr/local/bin/frontdesk serve", "User=frontdesk",
		"StateDirectory=frontdesk", "UMask=0027", "ProtectSystem=strict", "ProtectHome=true", "PrivateTmp=true",
		"PrivateDevices=true", "NoNewPrivileges=true", "SystemCallFilter=@system-service",
		"CapabilityBoundingSet=CAP_NET_BIND_SERVICE", "Environment=FRONTDESK_DATA=/var/lib/frontdesk"} {
		if !bytes.Contains(unit, []byte("\n"+want)) {
			t.Errorf("the unit lacks %q", want)
		}
	}
	// verify checks that ExecStart's binary exists: point it at the real build.
	bin := buildFrontdesk(t)
	path := filepath.Join(t.TempDir(), "frontdesk.service")
	if err := os.WriteFile(path, bytes.ReplaceAll(unit, []byte("/usr/local/bin/frontdesk"), []byte(bin)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(analyze, "verify", path).CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Fatalf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// The container's pieces: a static binary (no dynamic loader, no shared libraries: it runs on
// a distroless/static base) and a Dockerfile whose health check is the binary itself, running
// as a non-root user with its data in /data.
func TestContainerRecipe(t *testing.T) {
	bin := buildFrontdesk(t)
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the binary asks for a dynamic loader; it must be static (CGO_ENABLED=0)")
		}
	}
	if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
		t.Errorf("the binary links shared libraries %v", libs)
	}
	raw, err := os.ReadFile(filepath.Join("..", "deploy", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	docker := string(raw)
	for _, want := range []string{"CGO_ENABLED=0 go build", "FROM gcr.io/distroless/static", "USER 65532:65532",
		`VOLUME ["/data"]`, "FRONTDESK_DATA=/data", `HEALTHCHECK`, `CMD ["/frontdesk", "healthcheck"]`, "frontdesk/app/buildinfo.version="} {
		if !strings.Contains(docker, want) {
			t.Errorf("deploy/Dockerfile lacks %q", want)
		}
	}
}

// healthcheck exits 0 against a ready server (found from FRONTDESK_ADDR like serve finds its
// address) and 1 when nothing answers.
func TestHealthcheck(t *testing.T) {
	srv := serveInProcess(t, t.TempDir(), []string{"--addr", "127.0.0.1:0"})
	addr := strings.TrimPrefix(srv.URL, "http://")
	var out, errOut bytes.Buffer
	code := Run(t.Context(), Env{Args: []string{"healthcheck"}, Stdout: &out, Stderr: &errOut,
		Getenv: func(k string) string { return map[string]string{"FRONTDESK_ADDR": addr}[k] }})
	if code != 0 || !strings.Contains(out.String(), "ready") {
		t.Fatalf("healthcheck of a ready server: exit %d, %s %s", code, out.String(), errOut.String())
	}
	closed := nettest.RefusedAddr(t)
	code, _, stderr := run(t, "", "healthcheck", "--url", "http://"+closed+"/readyz", "--timeout", "2s")
	if code != exitFail || !strings.Contains(stderr, closed) {
		t.Fatalf("healthcheck of nothing: exit %d, %s; want 1 naming the address", code, stderr)
	}
	if code, _, _ := run(t, "", "healthcheck", "extra"); code != exitUsage {
		t.Errorf("healthcheck with an argument: exit %d, want 2", code)
	}
}

// Under systemd (NOTIFY_SOCKET, WATCHDOG_USEC) serve says READY=1 once it listens, pings the
// watchdog while it runs, and says STOPPING=1 when it stops.
func TestSystemdNotify(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "notify.sock")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	msgs := make(chan string, 64)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := conn.Read(buf)
			if err != nil {
				close(msgs)
				return
			}
			msgs <- string(buf[:n])
		}
	}()
	srv := serveInProcess(t, t.TempDir(), []string{"--addr", "127.0.0.1:0"},
		"NOTIFY_SOCKET="+sock, "WATCHDOG_USEC=100000", "WATCHDOG_PID="+strconv.Itoa(syscall.Getpid()))
	next := func(prefix string) string {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case m := <-msgs:
				if strings.HasPrefix(m, prefix) {
					return m
				}
			case <-deadline:
				t.Fatalf("no %q from serve within 10 s", prefix)
			}
		}
	}
	if m := next("READY=1"); !strings.Contains(m, "STATUS=serving "+srv.URL) {
		t.Errorf("READY message %q lacks the status", m)
	}
	next("WATCHDOG=1")
	next("WATCHDOG=1")
	if code := srv.stop(); code != 0 {
		t.Fatalf("serve exited %d", code)
	}
	next("STOPPING=1")
}
