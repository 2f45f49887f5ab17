package app

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"frontdesk/app/importer"
	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// runImportCLI runs `frontdesk <args>` in-process, the way main does, and returns the exit
// status and output.
func runImportCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(context.Background(), Env{
		Args: args, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut,
		Now: func() time.Time { return time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC) },
	})
	return code, out.String(), errOut.String()
}

func writeFile(t *testing.T, name string, content []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, content, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func countCompanies(t *testing.T, dir string) int64 {
	t.Helper()
	d, err := db.Open(context.Background(), db.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	n, err := d.R.CountCompanies(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestImportCommand(t *testing.T) {
	demo := writeFile(t, "demo.json", importer.Demo())
	broken := writeFile(t, "broken.json", []byte(`{
  "company": {"name": "Broken"},
  "locations": [{"key": "a", "name": "A", "timezone": "Mars/Olympus", "country": {"code": "CL", "name": "Chile"}}],
  "providers": [{"key": "p", "public_name": "P", "locations": ["a"], "hours": [{"day": "monday", "open": "09:00", "close": "18:00", "brakes": []}]}]
}`))

	t.Run("invalid file: exit 1, every problem on stderr, nothing written", func(t *testing.T) {
		dir := t.TempDir()
		code, stdout, stderr := runImportCLI(t, "", "import", "--data", dir, broken)
		if code != 1 {
			t.Fatalf("got exit %d, want 1 (stderr %q)", code, stderr)
		}
		for _, want := range []string{
			"frontdesk import: " + broken + " was not imported, nothing was written:\n",
			`locations[0].timezone: "Mars/Olympus" is not an IANA time zone`,
			`providers[0].hours[0].brakes: unknown field (did you mean "breaks"?)`,
		} {
			if !strings.Contains(stderr, want) {
				t.Errorf("got stderr %q, want it to contain %q", stderr, want)
			}
		}
		if stdout != "" {
			t.Errorf("got stdout %q, want nothing", stdout)
		}
		if n := countCompanies(t, dir); n != 0 {
			t.Errorf("got %d companies after a refused import, want 0", n)
		}
	})

	t.Run("success: exit 0 and a one-line summary; flags after the file", func(t *testing.T) {
		dir := t.TempDir()
		code, stdout, stderr := runImportCLI(t, "", "import", demo, "--data", dir)
		if code != 0 {
			t.Fatalf("got exit %d, want 0 (stderr %q)", code, stderr)
		}
		want := `imported "Lumen Salon & Spa": 2 locations, 4 categories, 13 services, 12 providers, 6 custom attributes, 25 clients, `
		if !strings.HasPrefix(stderr, want) || strings.Count(stderr, "\n") != 1 || stdout != "" {
			t.Errorf("got stdout %q stderr %q, want one line on stderr starting %q", stdout, stderr, want)
		}

		code, _, stderr = runImportCLI(t, "", "import", "--data", dir, demo)
		if code != 1 || !strings.Contains(stderr, `company: this database already has a business ("Lumen Salon & Spa")`) {
			t.Errorf("second import: got exit %d stderr %q, want 1 and the company refused", code, stderr)
		}
	})

	t.Run("standard input", func(t *testing.T) {
		dir := t.TempDir()
		code, _, stderr := runImportCLI(t, string(importer.Demo()), "import", "--data", dir, "-")
		if code != 0 || !strings.HasPrefix(stderr, "imported ") {
			t.Fatalf("got exit %d stderr %q, want 0 and a summary", code, stderr)
		}
	})

	t.Run("missing file: exit 1", func(t *testing.T) {
		code, _, stderr := runImportCLI(t, "", "import", "--data", t.TempDir(), filepath.Join(t.TempDir(), "nope.json"))
		if code != 1 || !strings.Contains(stderr, "no such file") {
			t.Errorf("got exit %d stderr %q, want 1 and the reason", code, stderr)
		}
	})

	usage := []struct {
		name string
		args []string
		want string
	}{
		{"no file", []string{"import", "--data", t.TempDir()}, "want exactly one import FILE"},
		{"two files", []string{"import", "--data", t.TempDir(), demo, demo}, "want exactly one import FILE"},
		{"unknown flag", []string{"import", "--force", demo}, "flag provided but not defined: -force"},
	}
	for _, u := range usage {
		t.Run("usage: "+u.name, func(t *testing.T) {
			code, _, stderr := runImportCLI(t, "", u.args...)
			if code != 2 || !strings.Contains(stderr, u.want) || !strings.Contains(stderr, "frontdesk import --help") {
				t.Errorf("got exit %d stderr %q, want 2 and %q", code, stderr, u.want)
			}
		})
	}

	t.Run("help: exit 0", func(t *testing.T) {
		code, stdout, _ := runImportCLI(t, "", "import", "--help")
		if code != 0 || !strings.Contains(stdout, "Usage: frontdesk import [--data DIR] [--dry-run] FILE.json") || !strings.Contains(stdout, "-data") {
			t.Errorf("got exit %d stdout %q, want 0 and the usage", code, stdout)
		}
	})
}

// `serve --demo` loads the demo into an empty database and leaves a database with a business alone.
func TestLoadDemoIfEmpty(t *testing.T) {
	ctx := context.Background()
	d := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName))
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	loaded, err := loadDemoIfEmpty(ctx, d, now)
	if err != nil || !loaded {
		t.Fatalf("first call: got %v, %v; want the demo loaded", loaded, err)
	}
	counts := func() string {
		var s string
		err := d.Read.QueryRow(`SELECT (SELECT count(*) FROM company) || ' ' || (SELECT count(*) FROM locations) || ' ' ||
			(SELECT count(*) FROM providers) || ' ' || (SELECT count(*) FROM clients) || ' ' || (SELECT count(*) FROM bookings)`).Scan(&s)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := counts()
	if !strings.HasPrefix(before, "1 2 12 25 ") {
		t.Fatalf("after loading: got company/locations/providers/clients/bookings %s, want the demo's", before)
	}
	loaded, err = loadDemoIfEmpty(ctx, d, now.Add(24*time.Hour))
	if err != nil || loaded {
		t.Fatalf("second call: got %v, %v; want a no-op", loaded, err)
	}
	if after := counts(); after != before {
		t.Errorf("second call changed the database: got %s, want %s", after, before)
	}
}

// TestImportClientsFromAnotherSystem: `frontdesk import --from fresha --dry-run` prints what each
// row would do and writes nothing; without --dry-run it imports; a bad row refuses the file.
func TestImportClientsFromAnotherSystem(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := runImportCLI(t, "", "import", "--data", dir, writeFile(t, "demo.json", importer.Demo())); code != 0 {
		t.Fatal(stderr)
	}
	clientsIn := func() int {
		d, err := db.Open(context.Background(), db.Path(dir))
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		var n int
		if err := d.Read.QueryRow(`SELECT count(*) FROM clients`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := clientsIn()
	file := writeFile(t, "clients.csv", []byte("First Name,Last Name,Email,Mobile Number,Loyalty Points\nZoe,Ng,zoe@example.com,+56911112299,7\n,,x@example.com,,\n"))
	code, stdout, stderr := runImportCLI(t, "", "import", "--data", dir, "--from", "fresha", "--dry-run", file)
	if code != 0 || stdout != "line 2: create Zoe Ng <zoe@example.com> <+56911112299>\nline 3: skip <x@example.com>: no name\ncolumns not read: Loyalty Points\n" ||
		stderr != "dry run, nothing was written: would have imported 1 client from fresha, skipped 1 row\n" {
		t.Errorf("dry run: exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
	if n := clientsIn(); n != before {
		t.Errorf("a dry run wrote: %d clients, were %d", n, before)
	}
	if code, _, stderr = runImportCLI(t, "", "import", "--data", dir, "--from", "fresha", file); code != 0 || clientsIn() != before+1 {
		t.Errorf("import: exit %d %q; %d clients, were %d", code, stderr, clientsIn(), before)
	}
	bad := writeFile(t, "bad.csv", []byte("First Name,Email\nYo,yo@example.com\nNo,nope\n"))
	code, _, stderr = runImportCLI(t, "", "import", "--data", dir, "--from", "square", bad)
	if code != 1 || !strings.Contains(stderr, "nothing was written") || !strings.Contains(stderr, `line 3 (email): "nope" is not an email address`) {
		t.Errorf("a bad row: exit %d %q", code, stderr)
	}
	if n := clientsIn(); n != before+1 {
		t.Errorf("a refused file wrote: %d clients", n)
	}
	// An appointments export: the future row is booked, the past one only with --history.
	appts := writeFile(t, "appointments.csv", []byte("Date,Start Time,Service,Staff,Customer Name,Email\n"+
		"2031-03-03,10:00,Haircut & Style,Valentina Rojas,Zoe Ng,zoe@example.com\n"+
		"2020-03-02,10:00,haircut & style,valentina rojas,Ivo Paz,ivo@example.com\n"))
	code, stdout, stderr = runImportCLI(t, "", "import", "--data", dir, "--from", "square", appts)
	if code != 0 || stdout != "line 2: create booking 2031-03-03 10:00 Haircut & Style with Valentina Rojas for Zoe Ng <zoe@example.com>\n"+
		"line 3: skip Ivo Paz <ivo@example.com>: in the past (choose to import the history to bring it as a past booking)\n" ||
		stderr != "imported 1 booking (and 0 new clients) from square, skipped 1 row\n" {
		t.Errorf("appointments: exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
	// The imported booking's client is not sent a confirmation, unless --notify asks for one.
	confirmations := func() string {
		t.Helper()
		d, err := db.Open(context.Background(), db.Path(dir))
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		var s string
		if err := d.Read.QueryRow(`SELECT coalesce(group_concat(n, '/'), '') FROM (SELECT count(m.id) AS n FROM bookings b
		LEFT JOIN messages m ON m.booking_id = b.id AND m.kind = 'confirmation' WHERE b.source = 'import' AND b.start_at > ? GROUP BY b.id ORDER BY b.id)`,
			time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	if got := confirmations(); got != "0" {
		t.Errorf("confirmations of the imported bookings: %s, want 0", got)
	}
	more := writeFile(t, "more.csv", []byte("Date,Start Time,Service,Staff,Customer Name,Email\n2031-03-04,10:00,Haircut & Style,Valentina Rojas,Zoe Ng,zoe@example.com\n"))
	if code, _, stderr := runImportCLI(t, "", "import", "--data", dir, "--from", "square", "--notify", more); code != 0 || confirmations() != "0/1" {
		t.Errorf("--notify: exit %d %q; confirmations %s, want 0/1", code, stderr, confirmations())
	}
	if code, _, stderr := runImportCLI(t, "", "import", "--data", dir, "--notify", writeFile(t, "notify.json", []byte(`{"clients": [{"key": "k0", "first_name": "Kai"}]}`))); code != 2 ||
		!strings.Contains(stderr, "--notify: only with --from") {
		t.Errorf("--notify of a JSON file: exit %d %q, want 2", code, stderr)
	}
	code, stdout, stderr = runImportCLI(t, "", "import", "--data", dir, "--from", "square", "--history", "--dry-run", appts)
	if code != 0 || !strings.Contains(stdout, "line 3: create booking 2020-03-02 10:00 haircut & style with valentina rojas for Ivo Paz <ivo@example.com> (new client)\n") ||
		!strings.Contains(stdout, "line 2: skip Zoe Ng <zoe@example.com>: Valentina Rojas already has a booking then") {
		t.Errorf("appointments with --history: exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
	if code, _, _ := runImportCLI(t, "", "import", "--data", dir, "--from", "vagaro", file); code != 2 {
		t.Errorf("--from vagaro: exit %d, want 2", code)
	}
	if code, _, stderr := runImportCLI(t, "", "import", "--data", dir, "--dry-run", writeFile(t, "more.json", []byte(`{"clients": [{"key": "k1", "first_name": "Kim"}]}`))); code != 0 ||
		stderr != "dry run, nothing was written: would have imported 1 client\n" || clientsIn() != before+1 {
		t.Errorf("--dry-run of a JSON file: exit %d %q", code, stderr)
	}
}
