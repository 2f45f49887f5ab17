package app

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"frontdesk/app/messages/smtptest"
	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// A provider who asked for booking emails is told, in the business's language (Spanish here,
// while the client's name and the service are as stored), of a booking made through /v3 — one
// email — then of its move and of its cancel, one each, through a real SMTP server.
func TestProviderToldOfTheirBookingsThroughAPI(t *testing.T) {
	dir := t.TempDir()
	dbtest.NewFile(t, db.Path(dir))
	raw, err := os.ReadFile(filepath.Join("messages", "testdata", "business.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file map[string]any
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	file["company"].(map[string]any)["language"] = "es"
	ana := file["providers"].([]any)[0].(map[string]any)
	ana["email"], ana["notify_bookings"] = "Ana@Studio-Ana.example", true
	edited, _ := json.Marshal(file)
	path := filepath.Join(t.TempDir(), "business.json")
	if err := os.WriteFile(path, edited, 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "", "import", "--data", dir, path); code != 0 {
		t.Fatalf("import: exit %d, %s", code, stderr)
	}
	code, out, stderr := run(t, "", "apikey", "create", "--data", dir, "--name", "providers", "--full-access")
	if code != 0 {
		t.Fatalf("apikey create: exit %d, %s", code, stderr)
	}
	key := strings.TrimSpace(out)
	smtp := smtptest.Start(t)
	base := serveWithSMTP(t, dir, smtp)

	call := func(method, path, body string, want int) []byte {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		got, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != want {
			t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, got)
		}
		return got
	}
	toAna := func(n int) []smtptest.Parsed {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for {
			var out []smtptest.Parsed
			for _, m := range smtp.Messages() {
				if slices.Contains(m.To, "ana@studio-ana.example") {
					p, err := smtptest.Parse(m.Data)
					if err != nil {
						t.Fatal(err)
					}
					out = append(out, p)
				}
			}
			if len(out) >= n {
				return out
			}
			if time.Now().After(deadline) {
				t.Fatalf("the provider got %d emails, want %d", len(out), n)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}

	santiago, _ := time.LoadLocation("America/Santiago")
	day := time.Now().In(santiago).AddDate(0, 0, 3)
	start := time.Date(day.Year(), day.Month(), day.Day(), 15, 30, 0, 0, santiago)
	created := call(http.MethodPost, "/v3/bookings", `{"location_id":1,"service_id":1,"provider_id":1,"client_id":1,"status_id":1,"start_time":"`+
		start.Format(time.RFC3339)+`"}`, http.StatusCreated)
	var b struct {
		ID int64 `json:"id"`
	}
	if err := json.Unmarshal(created, &b); err != nil || b.ID == 0 {
		t.Fatalf("created booking %s: %v", created, err)
	}
	id := strconv.FormatInt(b.ID, 10)
	booked := toAna(1)[0]
	if !strings.HasPrefix(booked.Subject, "Nueva reserva: Haircut con María López el ") || !strings.HasSuffix(booked.Subject, "a las 15:30") {
		t.Errorf("subject %q, want the provider's Spanish new-booking subject at 15:30", booked.Subject)
	}
	if !strings.Contains(booked.Text, "Hola Ana:") || !strings.Contains(booked.Text, "tienes una nueva reserva") ||
		strings.Contains(booked.Text, "/messages/unsubscribe/") || booked.Header.Get("List-Unsubscribe") != "" {
		t.Errorf("new-booking email text:\n%s", booked.Text)
	}

	moved := start.Add(time.Hour)
	call(http.MethodPatch, "/v3/bookings/"+id, `{"start_time":"`+moved.Format(time.RFC3339)+`"}`, http.StatusOK)
	move := toAna(2)[1]
	if !strings.HasPrefix(move.Subject, "Reserva cambiada: Haircut con María López ahora el ") || !strings.HasSuffix(move.Subject, "a las 16:30") {
		t.Errorf("subject %q, want the provider's Spanish moved subject at 16:30", move.Subject)
	}
	call(http.MethodPatch, "/v3/bookings/"+id+"/cancel", ``, http.StatusNoContent)
	cancel := toAna(3)[2]
	if !strings.HasPrefix(cancel.Subject, "Reserva cancelada: Haircut con María López el ") {
		t.Errorf("subject %q, want the provider's Spanish cancelled subject", cancel.Subject)
	}
	// The client's three emails went too (so everything due has been sent), and the provider
	// got exactly one of each.
	waitSMTP(t, smtp, 6)
	if got := toAna(3); len(got) != 3 {
		t.Errorf("the provider got %d emails, want 3", len(got))
	}
}

// serveWithSMTP runs `frontdesk serve` on dir with its email going to smtp, until the test ends,
// and returns its base URL.
func serveWithSMTP(t *testing.T, dir string, smtp *smtptest.Server) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	stopped := make(chan int, 1)
	smtpURL := "smtp://" + smtp.Host() + ":" + strconv.Itoa(smtp.Port()) + "?starttls=off"
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
	select {
	case addr := <-ready:
		return "http://" + addr
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not start")
	}
	return ""
}
