package app

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A webhook whose target the server refuses (loopback, without --webhook-allow-private) is
// logged once with the reason, however often it is retried, and `webhook list` shows the
// category of its last error.
func TestRefusedWebhookTarget(t *testing.T) {
	dir := newDataDir(t)
	var hits atomic.Int64
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer recv.Close()
	if code, _, stderr := run(t, "", "webhook", "create", "--data", dir, "--url", recv.URL+"/in", "--events", "*", "--allow-private"); code != 0 {
		t.Fatalf("webhook create: %d %s", code, stderr)
	}
	srv := serveInProcess(t, dir, []string{"--addr", "127.0.0.1:0", "--webhook-retry-schedule", "0s,20ms,20ms,20ms,20ms,1h"})
	if code, _, stderr := run(t, "", "webhook", "test", "--data", dir, "1"); code != 0 {
		t.Fatalf("webhook test: %d %s", code, stderr)
	}
	var rows []webhookJSON
	waitUntil(t, 20*time.Second, "four refused attempts", func() bool {
		_, out, _ := run(t, "", "webhook", "list", "--data", dir, "--json")
		rows = nil
		json.Unmarshal([]byte(out), &rows)
		return len(rows) == 1 && rows[0].LastDelivery != nil && rows[0].LastDelivery.Attempts >= 4
	})
	if e := rows[0].LastError; e == nil || e.Category != "forbidden_address" || e.At == nil {
		t.Errorf("webhook list --json last_error = %+v, want forbidden_address with a time", rows[0].LastError)
	}
	_, table, _ := run(t, "", "webhook", "list", "--data", dir)
	if !strings.Contains(table, "LAST ERROR") || !strings.Contains(table, "forbidden_address") {
		t.Errorf("webhook list table lacks the last error:\n%s", table)
	}
	refused := srv.logEntries("webhook target refused: it is a loopback, private, link-local or metadata address; serve with --webhook-allow-private to allow such targets")
	if len(refused) != 1 {
		t.Fatalf("the refusal was logged %d times over %d attempts, want once:\n%s", len(refused), rows[0].LastDelivery.Attempts, srv.logs)
	}
	if refused[0]["webhook_id"] != float64(1) || refused[0]["url"] != recv.URL+"/in" || refused[0]["reason"] == "" {
		t.Errorf("refusal log entry %v lacks the webhook, URL or reason", refused[0])
	}
	if hits.Load() != 0 {
		t.Errorf("the refused receiver got %d requests", hits.Load())
	}
}
