package app

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"frontdesk/app/webhook"
	"frontdesk/db"
)

func TestWebhookCommands(t *testing.T) {
	dir := newDataDir(t)
	code, secret, stderr := run(t, "", "webhook", "create", "--data", dir, "--url", "https://hooks.example.com/in", "--events", "booking.*, client.created", "--description", "CRM")
	if code != 0 {
		t.Fatalf("create: exit %d, stderr %s", code, stderr)
	}
	secret = strings.TrimSuffix(secret, "\n")
	if !regexp.MustCompile(`^whsec_[A-Za-z0-9+/]{43}=$`).MatchString(secret) {
		t.Fatalf("create printed %q, want only the secret (whsec_ + base64 of 32 bytes)", secret)
	}
	if !strings.Contains(stderr, "webhook 1 created") {
		t.Errorf("create stderr %q, want it to name the new webhook's id", stderr)
	}

	code, list, _ := run(t, "", "webhook", "list", "--data", dir)
	if code != 0 || !strings.Contains(list, "https://hooks.example.com/in") || !strings.Contains(list, "booking.*,client.created") || !strings.Contains(list, "active") {
		t.Errorf("list: exit %d, output %q", code, list)
	}
	code, listJSON, _ := run(t, "", "webhook", "list", "--json", "--data", dir)
	var rows []map[string]any
	if err := json.Unmarshal([]byte(listJSON), &rows); err != nil || code != 0 || len(rows) != 1 {
		t.Fatalf("list --json: exit %d, %v, output %q", code, err, listJSON)
	}
	for _, field := range []string{"id", "url", "events", "state", "last_delivery", "success_rate", "description"} {
		if _, ok := rows[0][field]; !ok {
			t.Errorf("list --json row lacks %q: %v", field, rows[0])
		}
	}
	key := strings.TrimPrefix(secret, "whsec_")
	for _, out := range []string{list, listJSON} {
		if strings.Contains(out, key) || strings.Contains(out, "whsec_") {
			t.Errorf("list output shows a secret: %q", out)
		}
	}

	code, rotated, stderr := run(t, "", "webhook", "rotate-secret", "1", "--grace", "1h", "--data", dir)
	rotated = strings.TrimSpace(rotated)
	if code != 0 || !strings.HasPrefix(rotated, "whsec_") || rotated == secret {
		t.Errorf("rotate-secret: exit %d, printed %q (%s); want a new secret", code, rotated, stderr)
	}

	code, eventID, stderr := run(t, "", "webhook", "test", "--data", dir, "1")
	if code != 0 || !regexp.MustCompile(`^evt_[0-9A-Za-z]{24}\n$`).MatchString(eventID) {
		t.Errorf("test: exit %d, printed %q (%s); want the event id", code, eventID, stderr)
	}

	code, _, stderr = run(t, "", "webhook", "reactivate", "1", "--replay-missed", "--data", dir)
	if code != 0 || !strings.Contains(stderr, "already active") || !strings.Contains(stderr, "0 missed") {
		t.Errorf("reactivate of an active webhook: exit %d, stderr %q", code, stderr)
	}

	if code, _, stderr := run(t, "", "webhook", "delete", "1", "--data", dir); code != 0 {
		t.Errorf("delete: exit %d, %s", code, stderr)
	}
	if code, _, stderr := run(t, "", "webhook", "delete", "1", "--data", dir); code != 1 || !strings.Contains(stderr, "no webhook with id 1") {
		t.Errorf("delete again: exit %d, stderr %q; want 1 and a clear message", code, stderr)
	}
}

// TestWebhookKeyModeCommand: --key-mode is stored and shown by list (text and JSON); the
// default is standard.
func TestWebhookKeyModeCommand(t *testing.T) {
	dir := newDataDir(t)
	if code, _, stderr := run(t, "", "webhook", "create", "--data", dir, "--url", "https://a.example.com/", "--events", "*"); code != 0 {
		t.Fatalf("create: exit %d, %s", code, stderr)
	}
	if code, _, stderr := run(t, "", "webhook", "create", "--data", dir, "--url", "https://b.example.com/", "--events", "*", "--key-mode", "secret-text"); code != 0 {
		t.Fatalf("create --key-mode secret-text: exit %d, %s", code, stderr)
	}
	code, list, _ := run(t, "", "webhook", "list", "--data", dir)
	lines := strings.Split(strings.TrimSpace(list), "\n")
	if code != 0 || len(lines) != 3 || !strings.Contains(lines[0], "KEY MODE") || !strings.Contains(lines[1], " standard ") || !strings.Contains(lines[2], " secret-text ") {
		t.Fatalf("list: exit %d\n%s\nwant a KEY MODE column: standard, then secret-text", code, list)
	}
	code, listJSON, _ := run(t, "", "webhook", "list", "--json", "--data", dir)
	var rows []struct {
		KeyMode string `json:"key_mode"`
	}
	if err := json.Unmarshal([]byte(listJSON), &rows); err != nil || code != 0 || len(rows) != 2 || rows[0].KeyMode != "standard" || rows[1].KeyMode != "secret-text" {
		t.Fatalf("list --json: exit %d, %v, %s", code, err, listJSON)
	}
}

// `webhook create --events webhook.test` subscribes to the test event the catalogue lists
// (docs/webhooks.md); `webhook test` then queues one for that webhook.
func TestWebhookCreateForTheTestEvent(t *testing.T) {
	dir := newDataDir(t)
	code, _, stderr := run(t, "", "webhook", "create", "--data", dir, "--url", "https://hooks.example.com/dev", "--events", "webhook.test")
	if code != 0 {
		t.Fatalf("create --events webhook.test: exit %d, %s", code, stderr)
	}
	code, list, _ := run(t, "", "webhook", "list", "--data", dir)
	if code != 0 || !strings.Contains(list, "webhook.test") {
		t.Fatalf("list: exit %d\n%s\nwant the webhook subscribed to webhook.test", code, list)
	}
	if code, eventID, stderr := run(t, "", "webhook", "test", "--data", dir, "1"); code != 0 || !strings.HasPrefix(eventID, "evt_") {
		t.Fatalf("test: exit %d, printed %q (%s)", code, eventID, stderr)
	}
}

func TestWebhookCommandErrors(t *testing.T) {
	dir := newDataDir(t)
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStderr string
	}{
		{"no subcommand", []string{"webhook"}, 2, "missing subcommand"},
		{"unknown subcommand", []string{"webhook", "frobnicate"}, 2, "unknown subcommand"},
		{"missing url", []string{"webhook", "create", "--data", dir, "--events", "*"}, 2, "--url and --events are required"},
		{"bad url", []string{"webhook", "create", "--data", dir, "--url", "hooks.example.com", "--events", "*"}, 2, "--url"},
		{"private url", []string{"webhook", "create", "--data", dir, "--url", "http://127.0.0.1:9000/", "--events", "*"}, 2, "--allow-private"},
		{"unknown event", []string{"webhook", "create", "--data", dir, "--url", "https://example.com/", "--events", "booking.deleted"}, 2, `unknown event type or pattern "booking.deleted"`},
		{"unknown flag", []string{"webhook", "list", "--data", dir, "--yaml"}, 2, "flag provided but not defined"},
		{"bad id", []string{"webhook", "delete", "--data", dir, "one"}, 2, "want a positive integer"},
		{"two ids", []string{"webhook", "test", "--data", dir, "1", "2"}, 2, "exactly one"},
		{"bad grace", []string{"webhook", "rotate-secret", "--data", dir, "1", "--grace", "-1h"}, 2, "--grace"},
		{"unknown webhook", []string{"webhook", "test", "--data", dir, "7"}, 1, "no webhook with id 7"},
		{"reactivate unknown", []string{"webhook", "reactivate", "--data", dir, "7"}, 1, "no webhook with id 7"},
		{"bad key mode", []string{"webhook", "create", "--data", dir, "--url", "https://example.com/", "--events", "*", "--key-mode", "hex"}, 2, `--key-mode: invalid signature key mode "hex"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, "", tt.args...)
			if code != tt.wantCode || !strings.Contains(stderr, tt.wantStderr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, tt.wantCode, tt.wantStderr)
			}
			if tt.wantCode != 0 && strings.Contains(stdout, "whsec_") {
				t.Errorf("a failed command printed a secret: %q", stdout)
			}
		})
	}
	// A private target is accepted with the opt-in.
	if code, _, stderr := run(t, "", "webhook", "create", "--data", dir, "--url", "http://127.0.0.1:9000/", "--events", "*", "--allow-private"); code != 0 {
		t.Errorf("create --allow-private: exit %d, %s", code, stderr)
	}
}

func TestWebhookHelp(t *testing.T) {
	for _, args := range [][]string{
		{"webhook", "--help"},
		{"webhook", "create", "--help"},
		{"webhook", "list", "--help"},
		{"webhook", "reactivate", "--help"},
		{"webhook", "rotate-secret", "--help"},
		{"webhook", "delete", "--help"},
		{"webhook", "test", "--help"},
	} {
		code, stdout, _ := run(t, "", args...)
		if code != 0 || !strings.Contains(stdout, "Usage: frontdesk webhook") {
			t.Errorf("%v: exit %d, stdout %q; want 0 and usage", args, code, stdout)
		}
	}
}

// TestWebhookListShowsPause: a webhook the owner paused in the admin UI sends nothing, and list
// says so (text: "active (paused since …)"; JSON: paused_at). It used to show a paused webhook
// as plain "active", so a script or an operator took it for one that delivers.
func TestWebhookListShowsPause(t *testing.T) {
	dir := newDataDir(t)
	for _, url := range []string{"https://a.example.com/", "https://b.example.com/"} {
		if code, _, stderr := run(t, "", "webhook", "create", "--data", dir, "--url", url, "--events", "*"); code != 0 {
			t.Fatalf("create: exit %d, %s", code, stderr)
		}
	}
	d, err := db.Open(context.Background(), db.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	pausedAt := time.Date(2026, 11, 21, 11, 30, 0, 0, time.UTC)
	m := webhook.NewManager(d, webhook.ManagerOptions{Now: func() time.Time { return pausedAt }})
	if ok, err := m.Pause(context.Background(), 2); err != nil || !ok {
		t.Fatalf("pause: %v, %v", ok, err)
	}
	d.Close()

	code, list, _ := run(t, "", "webhook", "list", "--data", dir)
	lines := strings.Split(strings.TrimSpace(list), "\n")
	if code != 0 || len(lines) != 3 || strings.Contains(lines[1], "paused") || !strings.Contains(lines[2], "active (paused since 2026-11-21T11:30:00Z)") {
		t.Fatalf("list: exit %d\n%s\nwant webhook 2 shown as paused since 11:30, webhook 1 not", code, list)
	}
	code, listJSON, _ := run(t, "", "webhook", "list", "--json", "--data", dir)
	var rows []map[string]any
	if err := json.Unmarshal([]byte(listJSON), &rows); err != nil || code != 0 || len(rows) != 2 {
		t.Fatalf("list --json: exit %d, %v, %s", code, err, listJSON)
	}
	if v, ok := rows[0]["paused_at"]; !ok || v != nil {
		t.Errorf("webhook 1: paused_at = %v (present %v), want null", v, ok)
	}
	if v := rows[1]["paused_at"]; v != "2026-11-21T11:30:00Z" {
		t.Errorf("webhook 2: paused_at = %v, want 2026-11-21T11:30:00Z", v)
	}
}

// TestWebhookListShowsBacklog: `webhook list` says how many deliveries wait for each endpoint
// and, from the rate of the last five minutes in the database, how long they take to go out.
func TestWebhookListShowsBacklog(t *testing.T) {
	dir := newDataDir(t)
	for _, url := range []string{"https://a.example.com/", "https://b.example.com/"} {
		if code, _, stderr := run(t, "", "webhook", "create", "--data", dir, "--url", url, "--events", "*"); code != 0 {
			t.Fatalf("create: exit %d, %s", code, stderr)
		}
	}
	d, err := db.Open(context.Background(), db.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	recent := db.Millis(time.Now().Add(-time.Minute))
	seed := func(webhookID int64, state string, n int, attemptedAt any) {
		t.Helper()
		for i := range n {
			id := fmt.Sprintf("evt_%d_%s_%04d", webhookID, state, i)
			if _, err := d.Write.Exec(`INSERT INTO events (id, type, body, created_at) VALUES (?, 'client.created', '{}', ?)`, id, recent); err != nil {
				t.Fatal(err)
			}
			if _, err := d.Write.Exec(`INSERT INTO deliveries (event_id, webhook_id, state, attempts, next_attempt_at, last_attempt_at, created_at, updated_at)
				VALUES (?, ?, ?, 0, ?, ?, ?, ?)`, id, webhookID, state, recent, attemptedAt, recent, recent); err != nil {
				t.Fatal(err)
			}
		}
	}
	seed(1, "pending", 600, nil)
	seed(1, "succeeded", 300, recent) // 300 in five minutes: one a second
	seed(2, "pending", 40, nil)       // nothing delivered lately
	d.Close()

	code, list, _ := run(t, "", "webhook", "list", "--data", dir)
	lines := strings.Split(strings.TrimSpace(list), "\n")
	if code != 0 || len(lines) != 3 || !strings.Contains(lines[0], "BACKLOG") ||
		!strings.Contains(lines[1], "600 (drains in ~10m0s)") || !strings.Contains(lines[2], "40 (no recent deliveries)") {
		t.Fatalf("list: exit %d\n%s\nwant webhook 1's 600 draining in ~10m, webhook 2's 40 with no rate", code, list)
	}
	code, listJSON, _ := run(t, "", "webhook", "list", "--json", "--data", dir)
	var rows []webhookJSON
	if err := json.Unmarshal([]byte(listJSON), &rows); err != nil || code != 0 || len(rows) != 2 {
		t.Fatalf("list --json: exit %d, %v, %s", code, err, listJSON)
	}
	if rows[0].Pending != 600 || rows[0].DrainSeconds == nil || *rows[0].DrainSeconds != 600 {
		t.Errorf("webhook 1: pending %d, drain_seconds %v; want 600 and 600", rows[0].Pending, rows[0].DrainSeconds)
	}
	if rows[1].Pending != 40 || rows[1].DrainSeconds != nil {
		t.Errorf("webhook 2: pending %d, drain_seconds %v; want 40 and null", rows[1].Pending, rows[1].DrainSeconds)
	}
}
