package app

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
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

// The README's quick start for a receiver on this machine, replayed as written (the data
// directory, the ports and the receiver aside): the first start with the demo, registering the
// receiver with --allow-private while it runs, the restart with the flags the README gives, a
// test event — and the receiver gets it, signed. Without --webhook-allow-private on serve, the
// delivery is refused (TestRefusedWebhookTarget).
func TestQuickStartWebhookToThisMachine(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	start := strings.Index(readme, "## The two commands")
	if start < 0 {
		t.Fatal("README has no quick start")
	}
	section := readme[start:]
	section = section[:strings.Index(section[3:], "\n## ")+3]
	// The README's go run commands, split as a shell would split these (no spaces inside quotes).
	var commands [][]string
	for _, line := range strings.Split(section, "\n") {
		rest, ok := strings.CutPrefix(line, "go run . ")
		if !ok {
			continue
		}
		rest, _, _ = strings.Cut(rest, "#")
		var args []string
		for _, f := range strings.Fields(rest) {
			args = append(args, strings.Trim(f, `'"`))
		}
		commands = append(commands, args)
	}
	find := func(what string, match func([]string) bool) []string {
		t.Helper()
		for _, c := range commands {
			if match(c) {
				return c
			}
		}
		t.Fatalf("the README's quick start has no %s", what)
		return nil
	}
	first := find("first start", func(c []string) bool { return c[0] == "serve" })
	create := find("webhook create --allow-private", func(c []string) bool {
		return len(c) > 1 && c[0] == "webhook" && c[1] == "create" && slices.Contains(c, "--allow-private")
	})
	serve := find("serve --webhook-allow-private", func(c []string) bool {
		return c[0] == "serve" && slices.Contains(c, "--webhook-allow-private")
	})
	test := find("webhook test", func(c []string) bool { return len(c) > 1 && c[0] == "webhook" && c[1] == "test" })

	dir := t.TempDir()
	got := make(chan http.Header, 1)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case got <- r.Header.Clone():
		default:
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer recv.Close()
	// Our data directory for ./data, our receiver for the README's local URL.
	local := func(args []string) []string {
		out := slices.Clone(args)
		for i, a := range out {
			switch {
			case a == "./data":
				out[i] = dir
			case strings.HasPrefix(a, "http://127.0.0.1:") || strings.HasPrefix(a, "http://localhost:"):
				u, err := url.Parse(a)
				if err != nil {
					t.Fatal(err)
				}
				out[i] = recv.URL + u.Path
			}
		}
		return out
	}
	// serveInProcess adds --data itself; a free port stands for the README's 8080.
	serveArgs := func(command []string) []string {
		args := []string{"--addr", "127.0.0.1:0"}
		for i := 1; i < len(command); i++ {
			if command[i] == "--data" {
				i++
				continue
			}
			args = append(args, command[i])
		}
		return args
	}
	if slices.Contains(first, "--webhook-allow-private") {
		t.Fatalf("the quick start's first start %v already allows private targets", first)
	}
	running := serveInProcess(t, dir, serveArgs(first))
	if code, _, stderr := run(t, "", local(create)...); code != 0 {
		t.Fatalf("%v: exit %d, %s", create, code, stderr)
	}
	if code := running.stop(); code != 0 {
		t.Fatalf("the first server stopped with %d:\n%s", code, running.logs)
	}
	serveInProcess(t, dir, serveArgs(serve))
	code, eventID, stderr := run(t, "", local(test)...)
	if code != 0 {
		t.Fatalf("%v: exit %d, %s", test, code, stderr)
	}
	select {
	case h := <-got:
		if h.Get("webhook-id") != strings.TrimSpace(eventID) || !strings.HasPrefix(h.Get("webhook-signature"), "v1,") {
			t.Fatalf("the receiver got webhook-id %q, signature %q; want %s, signed", h.Get("webhook-id"), h.Get("webhook-signature"), eventID)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the receiver on this machine got nothing in 30 s")
	}
}
