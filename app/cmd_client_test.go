package app

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"frontdesk/db"
)

// clientCmd runs `frontdesk client …` in-process.
func clientCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(context.Background(), Env{
		Args: append([]string{"client"}, args...), Stdout: &out, Stderr: &errOut,
		Getenv: func(string) string { return "" },
	})
	return code, out.String(), errOut.String()
}

// TestClientCommands: export prints the client as JSON; erase needs --yes, erases, and says so
// when run again; a bad id is a usage error.
func TestClientCommands(t *testing.T) {
	dir := newDataDir(t)
	d, err := db.Open(context.Background(), db.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Write.Exec(`INSERT INTO clients (id, first_name, last_name, email, created_at, updated_at)
		VALUES (7, 'Brannoc', 'Vellsworth', 'brannoc@cli.example', 0, 0)`); err != nil {
		t.Fatal(err)
	}
	d.Close()

	code, out, stderr := clientCmd(t, "export", "7", "--data", dir)
	var doc struct {
		Client   map[string]any   `json:"client"`
		Sections map[string][]any `json:"sections"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || doc.Client["email"] != "brannoc@cli.example" {
		t.Fatalf("export: %d %s %s", code, out, stderr)
	}
	if code, _, stderr := clientCmd(t, "erase", "7", "--data", dir); code != 2 || !strings.Contains(stderr, "--yes") {
		t.Errorf("erase without --yes: %d %s", code, stderr)
	}
	if code, out, stderr := clientCmd(t, "erase", "7", "--data", dir, "--yes"); code != 0 || !strings.Contains(out, "client 7 erased") {
		t.Errorf("erase: %d %s %s", code, out, stderr)
	}
	if code, out, _ := clientCmd(t, "erase", "7", "--data", dir, "--yes"); code != 0 || !strings.Contains(out, "already erased") {
		t.Errorf("erase again: %d %s", code, out)
	}
	if code, _, stderr := clientCmd(t, "export", "x", "--data", dir); code != 2 {
		t.Errorf("bad id: %d %s", code, stderr)
	}
	if code, _, _ := clientCmd(t, "export", "99", "--data", dir); code != 1 {
		t.Errorf("missing client: %d", code)
	}
}
