package app

import (
	"archive/zip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"frontdesk/app/importer"
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

// TestExportEverythingCommand: `frontdesk export --data DIR FILE.zip` writes the zip whose
// business.json `frontdesk import` loads into an empty data directory, the same counts coming
// back; a bad target leaves no file behind.
func TestExportEverythingCommand(t *testing.T) {
	src := t.TempDir()
	if code, _, stderr := runImportCLI(t, "", "import", "--data", src, writeFile(t, "demo.json", importer.Demo())); code != 0 {
		t.Fatalf("import the demo: %s", stderr)
	}
	target := filepath.Join(t.TempDir(), "all.zip")
	code, out, stderr := run(t, "", "export", "--data", src, target)
	if code != 0 || out != "" || !strings.Contains(stderr, "wrote "+target) {
		t.Fatalf("export: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	if info, err := os.Stat(target); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the zip: %v, mode %v; want readable by its owner only", err, info)
	}
	r, err := zip.OpenReader(target)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var business []byte
	var names []string
	for _, f := range r.File {
		names = append(names, f.Name)
		if f.Name == "business.json" {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			business, err = io.ReadAll(rc)
			rc.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if strings.Join(names, " ") != "business.json csv/bookings.csv csv/clients.csv csv/sales.csv csv/payments.csv csv/messages.csv csv/deliveries.csv" {
		t.Errorf("entries %q", names)
	}
	dst := t.TempDir()
	code, _, stderr = runImportCLI(t, "", "import", "--data", dst, writeFile(t, "business.json", business))
	want := `imported "Lumen Salon & Spa": 2 locations, 4 categories, 13 services, 12 providers, 6 custom attributes, 25 clients, 5 timetable entries, 1 class session, `
	if code != 0 || !strings.HasPrefix(stderr, want) {
		t.Errorf("import of the export: exit %d, %q", code, stderr)
	}

	for _, args := range [][]string{{"export", "--data", src}, {"export", "--data", src, "a.zip", "b.zip"}} {
		if code, _, _ := run(t, "", args...); code != 2 {
			t.Errorf("%q: exit %d, want 2 (usage)", args, code)
		}
	}
	missing := filepath.Join(t.TempDir(), "no", "such", "dir.zip")
	if code, _, _ := run(t, "", "export", "--data", src, missing); code != 1 {
		t.Errorf("a target in a missing directory: exit %d, want 1", code)
	}
}
