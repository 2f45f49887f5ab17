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

	"frontdesk/app/messages"
	"frontdesk/app/messages/watest"
	"frontdesk/app/secrets"
	"frontdesk/db"
)

// TestWebhookDeliveriesSurviveSIGKILL runs the real binary: events are queued, the server is
// killed with SIGKILL while deliveries are in flight, and after a restart every event reaches
// the receiver at least once (docs/webhooks.md: at-least-once, a crash at any instant loses nothing).
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

// TestTextsSurviveSIGKILL runs the real binary with WhatsApp as the client's channel (texts
// share the email outbox, so SMS is the same path): the server is killed with SIGKILL while
// messages are being sent to the Cloud API, and after a restart every booking's confirmation
// has reached the API — one the API took just before the kill, before its attempt was
// recorded, may arrive twice (docs/messages.md, "Guarantees": at least once).
func TestTextsSurviveSIGKILL(t *testing.T) {
	bin := buildFrontdesk(t)
	dir, key := messagesSetup(t)
	wa := watest.Start(t)
	ctx := context.Background()
	d, err := db.Open(ctx, db.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	box, err := secrets.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := messages.New(d, messages.Options{Secrets: box})
	token, secret := watest.AccessToken, watest.AppSecret
	if err := s.SaveWhatsAppSettings(ctx, messages.WhatsAppSettingsInput{Enabled: true, PhoneNumberID: watest.PhoneNumberID,
		VerifyToken: watest.VerifyToken, AccessToken: &token, AppSecret: &secret}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveWhatsAppTemplate(ctx, messages.WhatsAppTemplate{Kind: messages.Confirmation, Language: "en",
		Name: "booking_confirmation", Lang: "en_US", Params: []string{"ClientFirstName", "Time"}}); err != nil {
		t.Fatal(err)
	}
	// The real clock may be in the business's night: no quiet hours.
	if err := s.SaveTextPolicy(ctx, messages.TextPolicyInput{DailyCap: "200", QuietStart: 21 * 60, QuietEnd: 8 * 60,
		ByText: allByText()}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Write.Exec(`UPDATE clients SET phone = ? WHERE id = 1`, mariaPhone); err != nil {
		t.Fatal(err)
	}
	if err := d.InTx(ctx, func(q *db.Queries) error {
		return messages.SetClientChannel(ctx, q, 1, messages.ChannelWhatsApp, db.Millis(time.Now()))
	}); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}

	var slow sync.Once
	inFlight := make(chan struct{})
	wa.Hold(func() {
		slow.Do(func() { close(inFlight) })
		time.Sleep(300 * time.Millisecond) // slow, so that the kill finds messages being sent
	})
	addr := freeAddr(t)
	serve := []string{"serve", "--data", dir, "--addr", addr, "--whatsapp-api-url", wa.URL,
		"--message-retry-schedule", "0s,100ms,200ms,400ms,800ms,1s,1s,1s", "--shutdown-timeout", "5s"}
	first := startServer(t, bin, serve...)
	santiago, _ := time.LoadLocation("America/Santiago")
	day := time.Now().In(santiago).AddDate(0, 0, 4)
	const n = 6
	for i := range n {
		postBooking(t, "http://"+addr, key, time.Date(day.Year(), day.Month(), day.Day(), 9+i, 0, 0, 0, santiago))
	}
	select {
	case <-inFlight:
	case <-time.After(20 * time.Second):
		t.Fatal("no message was being sent before the kill")
	}
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	first.Wait()
	before := len(wa.Messages())

	second := startServer(t, bin, serve...)
	byTime := map[string]int{}
	deadline := time.Now().Add(40 * time.Second)
	for {
		byTime = map[string]int{}
		for _, m := range wa.Messages() {
			if len(m.Params) == 2 {
				byTime[m.Params[1]]++
			}
		}
		if len(byTime) == n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the restart %d of %d confirmations reached the API: %v", len(byTime), n, byTime)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if before >= n {
		t.Fatalf("every confirmation had gone before the kill (%d): the kill tested nothing", before)
	}
	t.Logf("before the kill %d messages reached the API; after the restart %v (local time: arrivals)", before, byTime)
	if err := second.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := second.Wait(); err != nil {
		t.Errorf("graceful stop: %v", err)
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
