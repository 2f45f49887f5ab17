package app

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestWebhookDeliveriesSurviveSIGKILL runs the real binary: events are queued, the server is
// killed with SIGKILL while deliveries are in flight, and after a restart every event reaches
// the receiver at least once (SPEC §6: at-least-once, a crash at any instant loses nothing).
func TestWebhookDeliveriesSurviveSIGKILL(t *testing.T) {
	bin := buildFrontdesk(t)
	data := t.TempDir()

	var mu sync.Mutex
	seen := map[string]int{}
	arrived := make(chan struct{}, 100)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		seen[r.Header.Get("webhook-id")]++
		mu.Unlock()
		select {
		case arrived <- struct{}{}:
		default:
		}
		time.Sleep(300 * time.Millisecond) // slow, so that a kill finds deliveries in flight
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(recv.Close)

	runBin(t, bin, "migrate", "--data", data)
	runBin(t, bin, "webhook", "create", "--data", data, "--url", recv.URL+"/hooks", "--events", "*", "--allow-private")
	serve := []string{"serve", "--data", data, "--addr", "127.0.0.1:0", "--webhook-allow-private",
		"--webhook-retry-schedule", "0s,100ms,200ms,400ms,800ms,1s,1s,1s,1s,1s", "--webhook-timeout", "2s", "--shutdown-timeout", "5s"}

	first := startServer(t, bin, serve...)
	var events []string
	for range 8 {
		events = append(events, strings.TrimSpace(runBin(t, bin, "webhook", "test", "--data", data, "1")))
	}
	select {
	case <-arrived:
	case <-time.After(20 * time.Second):
		t.Fatal("no delivery reached the receiver before the kill")
	}
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	first.Wait()

	mu.Lock()
	before := len(seen)
	mu.Unlock()
	if before >= len(events) {
		t.Logf("every event arrived before the kill; the restart only has to deliver nothing new")
	}

	second := startServer(t, bin, serve...)
	deadline := time.Now().Add(30 * time.Second)
	for {
		mu.Lock()
		var missing []string
		for _, id := range events {
			if seen[id] == 0 {
				missing = append(missing, id)
			}
		}
		mu.Unlock()
		if len(missing) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the restart %d of %d events never reached the receiver: %v", len(missing), len(events), missing)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := second.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := second.Wait(); err != nil {
		t.Errorf("graceful stop after SIGTERM: %v", err)
	}
}

// runBin runs one command of the binary to completion and returns its stdout.
func runBin(t *testing.T, bin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = envWithoutFrontdeskVars()
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("frontdesk %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

// startServer starts `frontdesk serve` and waits until it logs that it is listening. The
// process is killed when the test ends if it is still running.
func startServer(t *testing.T, bin string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = envWithoutFrontdeskVars()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	listening := make(chan struct{})
	var logMu sync.Mutex
	var log strings.Builder
	go func() {
		sc := bufio.NewScanner(stderr)
		once := sync.Once{}
		for sc.Scan() {
			logMu.Lock()
			log.WriteString(sc.Text() + "\n")
			logMu.Unlock()
			if strings.Contains(sc.Text(), `"msg":"listening"`) {
				once.Do(func() { close(listening) })
			}
		}
	}()
	select {
	case <-listening:
	case <-time.After(30 * time.Second):
		logMu.Lock()
		defer logMu.Unlock()
		t.Fatalf("serve did not start listening within 30 s; log:\n%s", log.String())
	}
	return cmd
}
