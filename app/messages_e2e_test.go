package app

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"

	"frontdesk/app/messages/smtptest"
	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// messagesSetup imports the fixture into a fresh data directory and returns it with an API key.
func messagesSetup(t *testing.T) (dir, key string) {
	t.Helper()
	dir = t.TempDir()
	dbtest.NewFile(t, db.Path(dir)) // what import would create, migrated once per test binary
	file := filepath.Join("messages", "testdata", "business.json")
	if code, _, stderr := run(t, "", "import", "--data", dir, file); code != 0 {
		t.Fatalf("import: exit %d, %s", code, stderr)
	}
	code, out, stderr := run(t, "", "apikey", "create", "--data", dir, "--name", "messages", "--full-access")
	if code != 0 {
		t.Fatalf("apikey create: exit %d, %s", code, stderr)
	}
	return dir, strings.TrimSpace(out)
}

// postBooking books client 1 at start through POST /v3/bookings.
func postBooking(t *testing.T, base, key string, start time.Time) {
	t.Helper()
	body := `{"location_id":1,"service_id":1,"provider_id":1,"client_id":1,"status_id":1,"start_time":"` + start.Format(time.RFC3339) + `"}`
	req, _ := http.NewRequest(http.MethodPost, base+"/v3/bookings", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /v3/bookings: %d %s", resp.StatusCode, raw)
	}
}

// A booking made through the API produces a confirmation at a real SMTP server, sent with the
// server's --smtp-url and --mail-from, naming the local time and carrying an .ics that parses
// to the booked instant; `frontdesk messages test` reaches the same server.
func TestBookingThroughAPISendsConfirmation(t *testing.T) {
	dir, key := messagesSetup(t)
	smtp := smtptest.Start(t)
	smtp.RequireAuth("studio", "p@ss word")

	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	stopped := make(chan int, 1)
	smtpURL := "smtp://studio:p%40ss%20word@" + smtp.Host() + ":" + strconv.Itoa(smtp.Port()) + "?starttls=off"
	go func() {
		stopped <- Run(ctx, Env{
			Args: []string{"serve", "--data", dir, "--addr", "127.0.0.1:0"}, Stdout: io.Discard, Stderr: io.Discard,
			Getenv: func(k string) string {
				return map[string]string{"FRONTDESK_SMTP_URL": smtpURL, "FRONTDESK_MAIL_FROM": "Studio Ana <hola@studio-ana.example>"}[k]
			},
			Ready: func(addr string) { ready <- addr },
		})
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-stopped:
		case <-time.After(30 * time.Second):
			t.Errorf("serve did not stop")
		}
	})
	var base string
	select {
	case addr := <-ready:
		base = "http://" + addr
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not start")
	}
	santiago, _ := time.LoadLocation("America/Santiago")
	day := time.Now().In(santiago).AddDate(0, 0, 3)
	start := time.Date(day.Year(), day.Month(), day.Day(), 15, 30, 0, 0, santiago)
	postBooking(t, base, key, start)

	got := waitSMTP(t, smtp, 1)[0]
	p, err := smtptest.Parse(got.Data)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Subject, "Booking confirmed: Haircut on") || !strings.HasSuffix(p.Subject, "at 15:30") {
		t.Errorf("subject %q, want the local start 15:30", p.Subject)
	}
	_, offset := start.Zone()
	zone := "UTC−3"
	if offset == -4*3600 {
		zone = "UTC−4"
	}
	if !strings.Contains(p.Text, "15:30 (America/Santiago, "+zone+")") {
		t.Errorf("text lacks the local time with its zone:\n%s", p.Text)
	}
	if from := p.Header.Get("From"); !strings.Contains(from, "hola@studio-ana.example") {
		t.Errorf("From %q, want --mail-from", from)
	}
	cal, err := ics.ParseCalendar(bytes.NewReader(p.Attachments["booking.ics"]))
	if err != nil || len(cal.Events()) != 1 {
		t.Fatalf("booking.ics: %v", err)
	}
	if at, err := cal.Events()[0].GetStartAt(); err != nil || !at.Equal(start) {
		t.Errorf(".ics starts %v (%v), want %v", at, err, start)
	}

	code, out, stderr := run(t, "", "messages", "test", "--data", dir, "--to", "owner@example.com", "--smtp-url", smtpURL,
		"--mail-from", "Studio Ana <hola@studio-ana.example>")
	if code != 0 {
		t.Fatalf("messages test: exit %d, %s", code, stderr)
	}
	if !strings.Contains(out, "2") {
		t.Errorf("messages test printed %q, want the server's answer", out)
	}
	test := waitSMTP(t, smtp, 2)[1]
	if len(test.To) != 1 || test.To[0] != "owner@example.com" {
		t.Errorf("test email to %v", test.To)
	}
	if code, _, _ := run(t, "", "messages", "test", "--data", dir, "--to", "x@example.com\r\nBcc: y@example.com"); code != 2 {
		t.Errorf("messages test with a line break in --to: exit %d, want 2", code)
	}
}

// freeAddr is a loopback address with a port nobody listens on right now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// waitSMTP waits until the server accepted n messages.
func waitSMTP(t *testing.T, s *smtptest.Server, n int) []smtptest.Message {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if got := s.Messages(); len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("the SMTP server got %d messages, want %d", len(s.Messages()), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// The real binary is SIGKILLed while messages are being sent: after the restart every
// confirmation arrives, and a message that arrives twice carries the same Message-ID both times.
func TestMessagesSurviveSIGKILL(t *testing.T) {
	bin := buildFrontdesk(t)
	dir, key := messagesSetup(t)
	smtp := smtptest.Start(t)
	var slow sync.Once
	inData := make(chan struct{})
	smtp.SetReply(func(stage string, accepted int) error {
		if stage == "data" {
			slow.Do(func() { close(inData) })
			time.Sleep(300 * time.Millisecond) // slow, so that the kill finds messages being sent
		}
		return nil
	})
	addr := freeAddr(t)
	serve := []string{"serve", "--data", dir, "--addr", addr, "--smtp-url", smtp.URL(),
		"--mail-from", "hola@studio-ana.example", "--message-retry-schedule", "0s,100ms,200ms,400ms,800ms,1s,1s,1s",
		"--shutdown-timeout", "5s"}
	first := startServer(t, bin, serve...)
	base := "http://" + addr
	santiago, _ := time.LoadLocation("America/Santiago")
	day := time.Now().In(santiago).AddDate(0, 0, 4)
	const n = 6
	for i := range n {
		postBooking(t, base, key, time.Date(day.Year(), day.Month(), day.Day(), 9+i, 0, 0, 0, santiago))
	}
	select {
	case <-inData:
	case <-time.After(20 * time.Second):
		t.Fatal("no message was being sent before the kill")
	}
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	first.Wait()

	second := startServer(t, bin, serve...)
	bySubject := map[string][]string{}
	deadline := time.Now().Add(40 * time.Second)
	for {
		bySubject = map[string][]string{}
		for _, m := range smtp.Messages() {
			p, err := smtptest.Parse(m.Data)
			if err != nil {
				t.Fatal(err)
			}
			bySubject[p.Subject] = append(bySubject[p.Subject], p.Header.Get("Message-Id"))
		}
		if len(bySubject) == n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the restart %d of %d confirmations arrived: %v", len(bySubject), n, bySubject)
		}
		time.Sleep(50 * time.Millisecond)
	}
	for subject, ids := range bySubject {
		for _, id := range ids[1:] {
			if id != ids[0] {
				t.Errorf("%q arrived %d times with different Message-IDs %v", subject, len(ids), ids)
			}
		}
	}
	if err := second.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := second.Wait(); err != nil {
		t.Errorf("graceful stop: %v", err)
	}
}
