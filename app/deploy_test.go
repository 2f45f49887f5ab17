package app

import (
	"bytes"
	"debug/elf"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
		`VOLUME ["/data"]`, "FRONTDESK_DATA=/data", `HEALTHCHECK`, `CMD ["/frontdesk", "healthcheck"]`, "frontdesk/app/buildinfo.version=",
		"-p 127.0.0.1:8080:8080", "FRONTDESK_TRUSTED_PROXIES=172.17.0.1"} {
		if !strings.Contains(docker, want) {
			t.Errorf("deploy/Dockerfile lacks %q", want)
		}
	}
	// `go mod download` runs before the rest of the source is copied: a module go.mod replaces
	// with a folder of this repository must be copied before it, or the download fails.
	gomod, err := os.ReadFile(filepath.Join("..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	download := strings.Index(docker, "RUN go mod download")
	for _, m := range regexp.MustCompile(`(?m)=>\s*\./(\S+)`).FindAllStringSubmatch(string(gomod), -1) {
		top := strings.SplitN(m[1], "/", 2)[0]
		if at := strings.Index(docker, "COPY "+top+"/"); at < 0 || at > download {
			t.Errorf("deploy/Dockerfile does not copy %s/ before go mod download (go.mod replaces a module with ./%s)", top, m[1])
		}
	}
	// docker stop kills the container 10 s after SIGTERM unless told otherwise: the example
	// gives serve's graceful stop the time it may take.
	cfg, err := parseServeConfig(Env{Getenv: func(string) string { return "" }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`docker run .*--stop-timeout (\d+)`).FindStringSubmatch(docker)
	if m == nil {
		t.Fatal("the Dockerfile's docker run example has no --stop-timeout (docker stop waits 10 s)")
	}
	if n, _ := strconv.Atoi(m[1]); time.Duration(n)*time.Second <= cfg.ShutdownTimeout {
		t.Errorf("--stop-timeout %s is not longer than serve's --shutdown-timeout %s", m[1], cfg.ShutdownTimeout)
	}
}

// The commands the Dockerfile's header tells an operator to run in the container work as
// written, with the image's environment (FRONTDESK_DATA=/data).
func TestContainerHeaderCommands(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "deploy", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	dir := newDataDir(t)
	vars := map[string]string{"FRONTDESK_DATA": dir}
	n := 0
	for _, line := range strings.Split(string(raw), "\n") {
		rest, ok := strings.CutPrefix(strings.TrimLeft(line, "# "), "docker exec frontdesk /frontdesk ")
		if !ok {
			continue
		}
		if c := strings.Index(rest, " #"); c >= 0 {
			rest = rest[:c]
		}
		n++
		var out, errOut bytes.Buffer
		code := Run(t.Context(), Env{Args: strings.Fields(rest), Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return vars[k] }})
		if code != exitOK || out.Len() == 0 {
			t.Errorf("%q: exit %d\n%s%s", line, code, out.String(), errOut.String())
		}
	}
	if n == 0 {
		t.Fatal("the Dockerfile's header shows no docker exec command")
	}
}

// .dockerignore keeps a local data directory (database, WAL, backups, secrets.key) out of the
// build context, which `COPY . .` puts in a layer — and keeps every file the build reads: the
// Go files and embedded files of every package of this module the binary is built from, as go
// list reports them. Patterns are read as Docker reads them: relative to the context, * within
// one path element, ** across any number, and a pattern that matches a directory excludes what
// is under it.
func TestDockerignore(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	var patterns []*regexp.Regexp
	for _, line := range strings.Split(string(raw), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "!") {
			t.Fatalf("exceptions (%q) are not read by this test", line)
		}
		patterns = append(patterns, dockerPattern(strings.TrimPrefix(filepath.Clean(line), "/")))
	}
	excluded := func(path string) bool {
		for p := path; p != "."; p = filepath.Dir(p) {
			for _, re := range patterns {
				if re.MatchString(p) {
					return true
				}
			}
		}
		return false
	}
	for _, p := range []string{"data/frontdesk.db", "data/frontdesk.db-wal", "data/frontdesk.db-shm", "data/secrets.key",
		"data/serve.lock", "data/frontdesk.db.pre-upgrade-20260101T000000Z-schema120", "data/certificates/acme/key.pem",
		"frontdesk.db", "other/place/secrets.key", "frontdesk", ".git/config"} {
		if !excluded(p) {
			t.Errorf(".dockerignore lets %s into the build context", p)
		}
	}
	out, err := exec.Command("go", "list", "-deps", "-f",
		`{{if .Module}}{{if eq .Module.Path "frontdesk"}}{{.Dir}}|{{join .GoFiles ","}},{{join .EmbedFiles ","}}{{end}}{{end}}`, "..").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	root, _ := filepath.Abs("..")
	needed := []string{"go.mod", "go.sum"}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		dir, files, _ := strings.Cut(line, "|")
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range strings.Split(files, ",") {
			if f != "" {
				needed = append(needed, filepath.Join(rel, f))
			}
		}
	}
	if len(needed) < 100 {
		t.Fatalf("go list named only %d files the build reads", len(needed))
	}
	for _, f := range needed {
		if excluded(f) {
			t.Errorf(".dockerignore keeps out %s, which the build reads", f)
		}
	}
}

// dockerPattern is a .dockerignore pattern as a regular expression over a slash-separated path.
func dockerPattern(p string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(p); i++ {
		switch {
		case strings.HasPrefix(p[i:], "**/"):
			b.WriteString("(.*/)?")
			i += 2
		case strings.HasPrefix(p[i:], "**"):
			b.WriteString(".*")
			i++
		case p[i] == '*':
			b.WriteString("[^/]*")
		case p[i] == '?':
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(p[i : i+1]))
		}
	}
	return regexp.MustCompile(b.String() + "$")
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
