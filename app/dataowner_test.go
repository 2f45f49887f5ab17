package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"frontdesk/db"
)

// Root running a command on the service's data directory (a directory another user owns) is
// refused before anything is made there — serve.lock, a pre-upgrade backup or secrets.key made
// by root would be root's 0600 files the service cannot open, and it would fail at its next
// start — and told which user to run it as, with the command to paste. backup, which writes its
// copy elsewhere, runs as root and leaves nothing root's in the directory.
func TestRootIsRefusedOnTheServiceDataDirectory(t *testing.T) {
	needRoot(t)
	dir := newDataDir(t)
	chownTree(t, dir, serviceUID)
	name := db.UserName(serviceUID)
	importFile := filepath.Join(t.TempDir(), "business.json")
	write(t, importFile, []byte(`{"company":{"name":"X"}}`))
	before := snapshot(t, dir)
	// serveUntilReady stops a serve that was not refused as soon as it is ready.
	if code, stderr := serveUntilReady(dir); code != exitFail || !strings.Contains(stderr, "belongs to "+name+", and this is root") ||
		!strings.Contains(stderr, "sudo -u "+name+" frontdesk serve --data "+dir+" --addr 127.0.0.1:0") {
		t.Errorf("serve as root: exit %d, %s; want exit 1 and the command to run as %s", code, stderr, name)
	}
	for _, c := range []struct {
		args  []string
		stdin string
	}{
		{args: []string{"migrate", "--data", dir}},
		{args: []string{"import", "--data", dir, importFile}},
		{args: []string{"owner", "create", "--data", dir, "--email", "o@example.com"}, stdin: "correct horse battery staple\n"},
		{args: []string{"apikey", "create", "--data", dir, "--name", "k", "--full-access"}},
		{args: []string{"apikey", "list", "--data", dir}},
		{args: []string{"webhook", "list", "--data", dir}},
		{args: []string{"messages", "test", "--data", dir, "--to", "a@example.com"}},
	} {
		code, _, stderr := run(t, c.stdin, c.args...)
		want := "sudo -u " + name + " frontdesk " + strings.Join(c.args, " ")
		if code != exitFail || !strings.Contains(stderr, "belongs to "+name+", and this is root") || !strings.Contains(stderr, want) {
			t.Errorf("%v as root: exit %d, %s\nwant exit 1 and %q", c.args, code, stderr, want)
		}
	}
	if after := snapshot(t, dir); after != before {
		t.Errorf("refused commands changed the data directory:\n%s\n%s", before, after)
	}
	dest := filepath.Join(t.TempDir(), "backup.db")
	if code, _, stderr := run(t, "", "backup", "--data", dir, dest); code != 0 {
		t.Fatalf("backup as root: exit %d, %s", code, stderr)
	}
	if others := notOwnedBy(t, dir, serviceUID); len(others) > 0 {
		t.Errorf("backup as root left files the service does not own: %v", others)
	}
	if _, err := os.Stat(dest); err != nil {
		t.Errorf("backup: %v", err)
	}
}
