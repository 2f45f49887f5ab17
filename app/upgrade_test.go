package app

import (
	"context"
	"database/sql"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"frontdesk/db"
)

// fixtureSchema is the schema of the newest committed upgrade fixture (testdata/upgrade).
const fixtureSchema = 120

// copyFixture puts the upgrade fixture in a new data directory, as a restored database.
func copyFixture(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "upgrade", "schema-120.db"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write(t, db.Path(dir), raw)
	return dir
}

// The README's upgrade steps, exactly as written there (README "Upgrading": the same command
// lines, with the binary built from this tree and the paths in temporary directories), on the
// committed fixture database from an earlier schema put in the service's data directory: as
// root where the README says nothing, as the service's user where it says sudo -u. Every record
// survives, the automatic pre-upgrade backup is there (0600, at the old schema), every file in
// the data directory is the service's, and the service, started as its unit starts it, serves.
func TestUpgradeFromFixture(t *testing.T) {
	h, dir, _ := newTestHost(t)
	raw, err := os.ReadFile(filepath.Join("testdata", "upgrade", "schema-120.db"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, db.Path(dir), raw)
	uid := h.users["frontdesk"]
	if uid >= 0 {
		chownTree(t, dir, uid)
	}
	steps := readmeSteps(t, "## Upgrading")
	var manual string
	var migrated, checked bool
	for _, step := range steps {
		line := strings.Join(step, " ")
		switch {
		case strings.Contains(line, "systemctl start") && migrated:
			// Before the service runs (and delivers the webhooks pending in the fixture).
			checkUpgraded(t, dir, manual, uid)
			checked = true
		case strings.Contains(line, "frontdesk backup "):
			manual = h.paths.Replace(step[len(step)-1])
		case strings.Contains(line, "frontdesk migrate "):
			// Before it, the new binary's other commands do not change the schema behind the
			// operator's back.
			before := snapshot(t, dir)
			if code, _, stderr := runBinAs(t, uid, h.frontdesk(), "", nil, "apikey", "list", "--data", dir); code != exitFail || !strings.Contains(stderr, "frontdesk migrate") {
				t.Errorf("apikey list on the old schema: exit %d, %s; want exit 1 pointing to frontdesk migrate", code, stderr)
			}
			if after := snapshot(t, dir); after != before {
				t.Error("apikey list changed the old database")
			}
		}
		out := h.step(step)
		if strings.Contains(line, "frontdesk migrate ") {
			migrated = true
			if strings.Contains(out, "created a new database") {
				t.Fatalf("migrate created a new database instead of upgrading: %s", out)
			}
			if !strings.Contains(out, "upgrading the database schema from 120 to") || !strings.Contains(out, "schema version") {
				t.Errorf("migrate said %q, want the upgrade and its backup named", out)
			}
		}
	}
	if manual == "" || !migrated || !checked || h.service == nil {
		t.Fatalf("README's upgrade steps lack a backup, a migrate or a start after it: %v", steps)
	}
	// The service runs on the upgraded database (step 5 started it) and has its owner.
	res, err := http.Get(h.service.URL + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("readyz after the upgrade: %d %s", res.StatusCode, body)
	}
	if strings.Contains(h.service.logs.String(), "setup_url") {
		t.Error("the upgraded database lost its owner: serve offers first-run setup")
	}
}

// checkUpgraded checks a data directory after migrate: every record of the manual backup is in
// the database, the pre-upgrade backup is there (0600, every record, the old schema), and every
// file is the service's (uid; -1: not checked).
func checkUpgraded(t *testing.T, dir, manual string, uid int) {
	t.Helper()
	backups, _ := filepath.Glob(db.Path(dir) + ".pre-upgrade-*-schema120")
	if len(backups) != 1 {
		t.Fatalf("got pre-upgrade backups %v, want one", backups)
	}
	if fi, err := os.Stat(backups[0]); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("pre-upgrade backup mode %v (%v), want 0600", fi.Mode(), err)
	}
	if uid >= 0 {
		if others := notOwnedBy(t, dir, uid); len(others) > 0 {
			t.Errorf("after the upgrade the data directory holds files the service does not own: %v", others)
		}
	}
	assertKeepsEveryRecord(t, manual, db.Path(dir), upgradeRewrites)
	assertKeepsEveryRecord(t, manual, backups[0], nil)
	if got := schemaOf(t, backups[0]); got != fixtureSchema {
		t.Errorf("the pre-upgrade backup has schema %d, want %d (taken before migrating)", got, fixtureSchema)
	}
}

// assertKeepsEveryRecord checks that every row of every table in before is in after, with the
// same values in the columns before had.
// upgradeRewrites are the values a migration deliberately rewrites, as SQL over the old column
// (compared against the migrated copy only):
// 00220 turned the empty scope list of a full-access key into the explicit "*".
var upgradeRewrites = map[string]map[string]string{
	"api_keys": {"scopes": `CASE scopes WHEN '' THEN '*' ELSE scopes END`},
}

func assertKeepsEveryRecord(t *testing.T, before, after string, rewrites map[string]map[string]string) {
	t.Helper()
	conn, err := sql.Open("sqlite", "file:"+after+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx := context.Background()
	c, err := conn.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.ExecContext(ctx, `ATTACH DATABASE ? AS old`, "file:"+before+"?mode=ro"); err != nil {
		t.Fatal(err)
	}
	rows, err := c.QueryContext(ctx, `SELECT name FROM old.sqlite_master WHERE type = 'table'
		AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_fts%' AND name != 'goose_db_version'`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var name string
		rows.Scan(&name)
		tables = append(tables, name)
	}
	rows.Close()
	if len(tables) < 20 {
		t.Fatalf("the fixture has only %d tables: %v", len(tables), tables)
	}
	total := 0
	for _, table := range tables {
		cols := columnsOf(t, c, "old", table)
		list := `"` + strings.Join(cols, `","`) + `"`
		oldList := list
		for col, expr := range rewrites[table] {
			oldList = strings.Replace(oldList, `"`+col+`"`, expr, 1)
		}
		var n, missing int
		if err := c.QueryRowContext(ctx, `SELECT count(*) FROM old."`+table+`"`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		q := `SELECT count(*) FROM (SELECT ` + oldList + ` FROM old."` + table + `" EXCEPT SELECT ` + list + ` FROM main."` + table + `")`
		if err := c.QueryRowContext(ctx, q).Scan(&missing); err != nil {
			t.Errorf("%s: %v", table, err)
			continue
		}
		if missing > 0 {
			t.Errorf("%s: %d of %d rows lost or changed by the upgrade", table, missing, n)
		}
		total += n
	}
	if total < 500 {
		t.Errorf("the fixture holds only %d rows; it should look like a real installation", total)
	}
}

func columnsOf(t *testing.T, c *sql.Conn, schema, table string) []string {
	t.Helper()
	rows, err := c.QueryContext(context.Background(), `SELECT name FROM pragma_table_info(?, ?)`, table, schema)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var name string
		rows.Scan(&name)
		cols = append(cols, name)
	}
	return cols
}

func schemaOf(t *testing.T, path string) int64 {
	t.Helper()
	conn, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var v int64
	if err := conn.QueryRow(`SELECT max(version_id) FROM goose_db_version WHERE is_applied`).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// A database written by a newer frontdesk (a schema this binary does not know) is refused by
// every command, naming the version that wrote it and the backup to go back to; the file is
// not touched.
func TestDowngradeRefused(t *testing.T) {
	dir := copyFixture(t)
	if code, _, stderr := run(t, "", "migrate", "--data", dir); code != 0 {
		t.Fatalf("migrate: exit %d, %s", code, stderr)
	}
	conn, err := sql.Open("sqlite", db.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO goose_db_version (version_id, is_applied) VALUES (900001, 1)`,
		`INSERT INTO app_versions (version, schema_version, recorded_at) VALUES ('v7.1.0', 900001, 0)`,
	} {
		if _, err := conn.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	conn.Close()
	before := snapshot(t, dir)
	for _, args := range [][]string{{"migrate"}, {"apikey", "list"}, {"serve", "--addr", "127.0.0.1:0"}} {
		code, _, stderr := run(t, "", append(args, "--data", dir)...)
		if code != exitFail {
			t.Errorf("%v: exit %d, want %d", args, code, exitFail)
		}
		for _, want := range []string{"schema version 900001", "written by frontdesk v7.1.0", "Run frontdesk v7.1.0 or newer", ".pre-upgrade-"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("%v: message %q lacks %q", args, stderr, want)
			}
		}
	}
	if after := snapshot(t, dir); after != before {
		t.Errorf("a refused downgrade changed the data directory:\n%s\n%s", before, after)
	}
}

// Backups hold password hashes and webhook secrets: they are readable by their owner only,
// whatever the umask, and an existing file is never overwritten.
func TestBackupFileIsPrivate(t *testing.T) {
	dir := copyFixture(t)
	dest := filepath.Join(t.TempDir(), "backup.db")
	if code, _, stderr := run(t, "", "backup", "--data", dir, dest); code != 0 {
		t.Fatalf("backup: exit %d, %s", code, stderr)
	}
	fi, err := os.Stat(dest)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("backup mode %v, want 0600", fi.Mode().Perm())
	}
	before := snapshot(t, filepath.Dir(dest))
	if code, _, stderr := run(t, "", "backup", "--data", dir, dest); code != exitFail || !strings.Contains(stderr, "already exists") {
		t.Errorf("backup over an existing file: exit %d, %s; want exit 1 and a refusal", code, stderr)
	}
	if after := snapshot(t, filepath.Dir(dest)); after != before {
		t.Error("a refused backup changed the existing file")
	}
}
