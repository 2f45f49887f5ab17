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
	d.Close()

	code, out, stderr := run(t, "", "export", "csv", "clients", "--data", dir)
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
	} {
		if code, _, _ := run(t, "", args...); code != 2 {
			t.Errorf("%q: exit %d, want 2 (usage)", args, code)
		}
	}
}
