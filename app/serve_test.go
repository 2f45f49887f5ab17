package app

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// runBinary runs a short command of the built binary and returns its standard output.
func runBinary(t *testing.T, bin, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = envWithoutFrontdeskVars()
	cmd.Stdin = strings.NewReader(stdin)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("frontdesk %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// served is a running `frontdesk serve` process.
type served struct {
	cmd  *exec.Cmd
	addr string
	done chan struct{} // closed when the process has exited and its log is read

	mu  sync.Mutex
	log []string
}

// startServe starts `frontdesk serve --addr 127.0.0.1:0 --demo` on dir and waits until it logs
// the address it listens on and answers /readyz.
func startServe(t *testing.T, bin, dir string) *served {
	t.Helper()
	s := &served{done: make(chan struct{})}
	s.cmd = exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data", dir, "--demo")
	s.cmd.Env = envWithoutFrontdeskVars()
	stderr, err := s.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	listening := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			s.mu.Lock()
			s.log = append(s.log, line)
			s.mu.Unlock()
			var entry struct{ Msg, Addr string }
			if json.Unmarshal([]byte(line), &entry) == nil && entry.Msg == "listening" {
				listening <- entry.Addr
			}
		}
		s.cmd.Wait()
		close(s.done)
	}()
	t.Cleanup(func() {
		select {
		case <-s.done:
		default:
			s.cmd.Process.Kill()
			<-s.done
		}
	})
	select {
	case s.addr = <-listening:
	case <-s.done:
		t.Fatalf("serve exited before listening; log:\n%s", s.logText())
	case <-time.After(60 * time.Second):
		t.Fatalf("serve did not log its address within 60 s; log:\n%s", s.logText())
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get("http://" + s.addr + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz did not answer 200 within 30 s (last: %v); log:\n%s", err, s.logText())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (s *served) logText() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.log, "\n")
}

// Acceptance: the process stops cleanly on SIGTERM with no error in the log.
func TestServeStopsCleanlyOnSIGTERM(t *testing.T) {
	bin := buildFrontdesk(t)
	dir := t.TempDir()
	// With an owner, a normal start logs nothing above INFO (a fresh instance warns with its
	// one-time setup URL).
	runBinary(t, bin, "", "migrate", "--data", dir)
	runBinary(t, bin, "a long enough password\n", "owner", "create", "--data", dir, "--email", "owner@example.com")
	s := startServe(t, bin, dir)

	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		t.Fatalf("serve did not exit within 30 s of SIGTERM; log:\n%s", s.logText())
	}
	if code := s.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("got exit status %d, want 0; log:\n%s", code, s.logText())
	}
	var sawDemo, sawStopped bool
	for _, line := range strings.Split(s.logText(), "\n") {
		var entry struct{ Level, Msg string }
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			if low := strings.ToLower(line); strings.Contains(low, "error") || strings.Contains(low, "panic") {
				t.Errorf("log line %q: want no errors", line)
			}
			continue
		}
		if entry.Level == "ERROR" || entry.Level == "WARN" {
			t.Errorf("log line %s: want nothing above INFO", line)
		}
		sawDemo = sawDemo || entry.Msg == "loaded the demo business"
		sawStopped = sawStopped || entry.Msg == "stopped"
	}
	if !sawDemo || !sawStopped {
		t.Errorf("got log\n%s\nwant the demo loaded and a final \"stopped\"", s.logText())
	}
}

// Acceptance: on a fresh clone, the README's run command serves the demo business, and
// `curl -H "Authorization: Bearer $KEY" 127.0.0.1:8080/v3/services` returns the list envelope.
func TestREADMEServesDemoServices(t *testing.T) {
	bin := buildFrontdesk(t)
	dir := t.TempDir()
	s := startServe(t, bin, dir)
	key := strings.TrimSpace(runBinary(t, bin, "", "apikey", "create", "--data", dir, "--name", "test", "--full-access"))

	req, err := http.NewRequest(http.MethodGet, "http://"+s.addr+"/v3/services", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /v3/services: got status %d, want 200; body %s", resp.StatusCode, body)
	}
	var list struct {
		Data []struct {
			ID   int64  `json:"id"`
			Name string `json:"name"`
		} `json:"data"`
		Pagination *struct {
			CurrentPage  int64 `json:"current_page"`
			PerPage      int64 `json:"per_page"`
			TotalRecords int64 `json:"total_records"`
			TotalPages   int64 `json:"total_pages"`
		} `json:"pagination"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatalf("GET /v3/services: %v; body %s", err, body)
	}
	if list.Pagination == nil || list.Pagination.CurrentPage != 1 || list.Pagination.PerPage != 30 || list.Pagination.TotalPages != 1 {
		t.Errorf("got pagination %+v, want page 1 of 1, 30 per page", list.Pagination)
	}
	if len(list.Data) < 8 || list.Pagination == nil || list.Pagination.TotalRecords != int64(len(list.Data)) {
		t.Errorf("got %d services (total_records %+v), want the demo's services on one page; body %s", len(list.Data), list.Pagination, body)
	}
	names := map[string]bool{}
	for _, svc := range list.Data {
		names[svc.Name] = true
	}
	if !names["Haircut & Style"] || !names["Deep Tissue Massage"] {
		t.Errorf("got services %v, want the demo's", names)
	}
}
