package app

import (
	"context"
	"strings"
	"testing"

	"frontdesk/db"
)

// TestExportCommand: `frontdesk export csv clients` prints the same file the admin downloads,
// Excel-friendly in Spanish with --excel --lang es, and refuses bad input with usage errors.
func TestExportCommand(t *testing.T) {
	dir := newDataDir(t)
	d, err := db.Open(context.Background(), db.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	ms := int64(1_790_000_000_000)
	if _, err := d.Write.Exec(`INSERT INTO clients (first_name, last_name, email, active, created_at, updated_at)
		VALUES ('Ana', 'Ruiz', '=cmd', 1, ?, ?), ('Old', NULL, NULL, 0, ?, ?)`, ms, ms, ms, ms); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO webhooks (url, events_json, created_at, updated_at) VALUES ('https://a.example/hook', '["*"]', 1, 1), ('https://b.example/hook', '["*"]', 1, 1)`,
		`INSERT INTO events (id, type, body, created_at) VALUES ('evt_a', 'client.created', '{}', 1)`,
		`INSERT INTO deliveries (event_id, webhook_id, state, attempts, created_at, updated_at) VALUES ('evt_a', 1, 'pending', 0, 1, 1), ('evt_a', 2, 'succeeded', 1, 1, 1)`,
	} {
		if _, err := d.Write.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	d.Close()

	code, out, stderr := run(t, "", "export", "csv", "deliveries", "--data", dir, "--webhook", "2")
	if lines := strings.Split(out, "\r\n"); code != 0 || len(lines) != 3 || !strings.HasPrefix(lines[0], "id,created (UTC),webhook id,") ||
		!strings.HasPrefix(lines[1], "2,1970-01-01 00:00:00,2,https://b.example/hook,evt_a,client.created,succeeded,1,") {
		t.Errorf("deliveries --webhook 2: exit %d %s\n%s", code, stderr, out)
	}
	if code, out, _ = run(t, "", "export", "csv", "deliveries", "--data", dir); strings.Count(out, "\r\n") != 3 {
		t.Errorf("deliveries: exit %d\n%s", code, out)
	}

	code, out, stderr = run(t, "", "export", "csv", "clients", "--data", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(out, "\r\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "id,first name,") || !strings.HasPrefix(lines[1], "1,Ana,Ruiz,'=cmd,") ||
		!strings.Contains(lines[0], "created (UTC)") || !strings.HasPrefix(lines[2], "2,Old,") {
		t.Errorf("clients:\n%s", out)
	}
	code, out, _ = run(t, "", "export", "csv", "clients", "--data", dir, "--excel", "--lang", "es")
	if code != 0 || !strings.HasPrefix(out, "\uFEFFid;first name;") {
		t.Errorf("--excel --lang es: exit %d, %q", code, out)
	}
	for _, args := range [][]string{
		{"export", "csv", "nothing", "--data", dir},
		{"export", "xml", "clients", "--data", dir},
		{"export", "csv", "clients", "--data", dir, "--from", "soon"},
		{"export", "csv", "deliveries", "--data", dir, "--webhook", "9"},
		{"export", "csv", "clients", "--data", dir, "--webhook", "1"},
	} {
		if code, _, _ := run(t, "", args...); code != 2 {
			t.Errorf("%q: exit %d, want 2 (usage)", args, code)
		}
	}
}
