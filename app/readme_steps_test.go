package app

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// readmeSteps returns the command lines of the first ```sh block after the line of README.md
// that contains marker, each split into words, comments dropped: the steps an operator copies.
func readmeSteps(t *testing.T, marker string) [][]string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	i := strings.Index(readme, marker)
	if i < 0 {
		t.Fatalf("README has no %q", marker)
	}
	rest := readme[i:]
	start := strings.Index(rest, "```sh\n")
	if start < 0 {
		t.Fatalf("README has no sh block after %q", marker)
	}
	rest = rest[start+len("```sh\n"):]
	end := strings.Index(rest, "```")
	if end < 0 {
		t.Fatalf("README's sh block after %q is not closed", marker)
	}
	var steps [][]string
	for _, line := range strings.Split(rest[:end], "\n") {
		if c := strings.Index(line, " #"); c >= 0 {
			line = line[:c]
		}
		if words := strings.Fields(line); len(words) > 0 {
			steps = append(steps, words)
		}
	}
	if len(steps) == 0 {
		t.Fatalf("README's sh block after %q is empty", marker)
	}
	return steps
}

// testHost runs the README's steps as an operator's shell would on a server set up by
// deploy/frontdesk.service, with its paths in temporary directories: sudo -u, install -o/-g and
// User= act as users (the service's user is serviceUID when the test runs as root, and this
// process's user otherwise), systemctl starts and stops the processes that stand for the units.
type testHost struct {
	t     *testing.T
	paths *strings.Replacer    // the README's paths → this test's
	users map[string]int       // the README's user names → uid here (-1: this process's user)
	built string               // the binary an operator has just built: "frontdesk" in install's source
	bin   string               // /usr/local/bin/frontdesk here
	units map[string]*testUnit // what systemctl starts and stops
	// service is the running frontdesk unit, nil while stopped.
	service *runningService
	// settings are the unit's /etc/frontdesk/frontdesk.env: FRONTDESK_* variables, "KEY=value".
	settings []string
}

// testUnit is what a systemd unit stands for: start and stop its process.
type testUnit struct {
	start func()
	stop  func()
}

// newTestHost lays out the server: data directory (owned by the service's user), /root and
// /usr/local/bin, and the frontdesk unit. more maps further README paths.
func newTestHost(t *testing.T, more ...string) (h *testHost, dataDir, rootDir string) {
	t.Helper()
	uid := -1
	if os.Geteuid() == 0 {
		uid = serviceUID
	}
	base := serviceTempDir(t)
	dataDir, rootDir = filepath.Join(base, "var-lib-frontdesk"), t.TempDir()
	binDir := filepath.Join(base, "usr-local-bin")
	mkdir(t, dataDir)
	mkdir(t, binDir)
	os.Chmod(binDir, 0o755)
	if uid >= 0 {
		chownTree(t, dataDir, uid)
	}
	h = &testHost{t: t, users: map[string]int{"frontdesk": uid}, built: binaryFor(t),
		bin: filepath.Join(binDir, "frontdesk"), units: map[string]*testUnit{}}
	h.paths = strings.NewReplacer(append([]string{"/var/lib/frontdesk", dataDir, "/root", rootDir, "/usr/local/bin", binDir}, more...)...)
	h.units["frontdesk"] = &testUnit{
		start: func() { h.service = startService(t, uid, h.frontdesk(), dataDir, h.settings...) },
		stop: func() {
			if h.service != nil {
				if code := h.service.stop(); code != 0 {
					t.Errorf("frontdesk stopped with exit %d:\n%s", code, h.service.logs)
				}
				h.service = nil
			}
		},
	}
	return h, dataDir, rootDir
}

// frontdesk is the frontdesk an operator's shell finds: the installed one once installed.
func (h *testHost) frontdesk() string {
	if _, err := os.Stat(h.bin); err == nil {
		return h.bin
	}
	return h.built
}

// step runs one README line and fails the test if it fails.
func (h *testHost) step(words []string) string {
	h.t.Helper()
	line := strings.Join(words, " ")
	args := make([]string, len(words))
	for i, w := range words {
		args[i] = h.paths.Replace(w)
	}
	uid := -1
	if args[0] == "sudo" {
		if len(args) < 4 || args[1] != "-u" {
			h.t.Fatalf("README step %q: sudo without -u USER", line)
		}
		u, ok := h.users[args[2]]
		if !ok {
			h.t.Fatalf("README step %q: unknown user %q", line, args[2])
		}
		uid, args = u, args[3:]
	}
	var cmd *exec.Cmd
	switch args[0] {
	case "systemctl":
		for _, name := range args[2:] {
			unit := h.units[name]
			if unit == nil {
				h.t.Fatalf("README step %q: no unit %q here", line, name)
			}
			switch args[1] {
			case "start":
				unit.start()
			case "stop":
				unit.stop()
			default:
				h.t.Fatalf("README step %q: systemctl %s", line, args[1])
			}
		}
		return ""
	case "frontdesk":
		cmd = exec.Command(h.frontdesk(), args[1:]...)
		cmd.Env = envWithoutFrontdeskVars()
	case "install":
		var out []string
		for i := 1; i < len(args); i++ {
			switch {
			case (args[i] == "-o" || args[i] == "-g") && i+1 < len(args):
				u, ok := h.users[args[i+1]]
				if !ok {
					h.t.Fatalf("README step %q: unknown user %q", line, args[i+1])
				}
				if u >= 0 { // as another user, nothing can be given away: the file stays this user's
					out = append(out, args[i], strconv.Itoa(u))
				}
				i++
			case args[i] == "frontdesk": // the binary just built, in the current directory
				out = append(out, h.built)
			default:
				out = append(out, args[i])
			}
		}
		cmd = exec.Command("install", out...)
	case "litestream":
		cmd = exec.Command(litestreamBinary(h.t), args[1:]...)
	case "rm":
		cmd = exec.Command("rm", args[1:]...)
	default:
		h.t.Fatalf("README step %q: this test does not know %s", line, args[0])
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := asUser(cmd, uid).Run(); err != nil {
		h.t.Fatalf("README step %q (as %v): %v\n%s%s", line, cmd.Args, err, stdout.String(), stderr.String())
	}
	return stdout.String() + stderr.String()
}

// runningService is frontdesk serve started as the unit starts it.
type runningService struct {
	URL  string
	logs *lockedBuffer
	stop func() int
}

// startService runs `frontdesk serve` as deploy/frontdesk.service does — as the service's user
// (uid; -1 for this process's), with FRONTDESK_DATA and settings — on a free loopback port, and waits until
// /readyz answers 200. It is stopped with SIGTERM when the test ends, if not before.
func startService(t *testing.T, uid int, bin, dataDir string, settings ...string) *runningService {
	t.Helper()
	addr := "127.0.0.1:" + strconv.Itoa(freePort(t))
	s := &runningService{URL: "http://" + addr, logs: &lockedBuffer{}}
	cmd := asUser(exec.Command(bin, "serve"), uid)
	cmd.Env = append(append(envWithoutFrontdeskVars(), "FRONTDESK_DATA="+dataDir, "FRONTDESK_ADDR="+addr), settings...)
	cmd.Stdout, cmd.Stderr = s.logs, s.logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan int, 1)
	go func() {
		err := cmd.Wait()
		var exit *exec.ExitError
		switch {
		case err == nil:
			exited <- 0
		case errors.As(err, &exit):
			exited <- exit.ExitCode()
		default:
			exited <- -1
		}
	}()
	code, done := 0, false
	s.stop = func() int {
		if !done {
			cmd.Process.Signal(syscall.SIGTERM)
			select {
			case code = <-exited:
			case <-time.After(30 * time.Second):
				cmd.Process.Kill()
				code = <-exited
				t.Errorf("serve did not stop within 30 s of SIGTERM:\n%s", s.logs)
			}
			done = true
		}
		return code
	}
	t.Cleanup(func() { s.stop() })
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case code = <-exited:
			done = true
			t.Fatalf("serve exited with %d before it was ready:\n%s", code, s.logs)
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/readyz", nil)
		res, err := http.DefaultClient.Do(req)
		cancel()
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve not ready after 60 s:\n%s", s.logs)
		}
		time.Sleep(50 * time.Millisecond) // polling a process we do not control
	}
}
