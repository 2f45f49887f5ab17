package app

import (
	"context"
	"os/user"
	"testing"

	"frontdesk/db"
)

// A command's changes are put down to the operating-system user running it.
func TestCommandActivityNamesTheUser(t *testing.T) {
	dir := newDataDir(t)
	if code, stderr := ownerCmd(t, "a long enough password\n", "create", "--data", dir, "--email", "ana@example.com"); code != 0 {
		t.Fatalf("create: exit %d, %s", code, stderr)
	}
	d, err := db.Open(context.Background(), db.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var kind, id, label, action string
	if err := d.Read.QueryRow(`SELECT actor_kind, actor_id, actor_label, action FROM activity`).Scan(&kind, &id, &label, &action); err != nil {
		t.Fatal(err)
	}
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	if kind != "cli" || id != u.Username || label != "frontdesk owner" || action != "owner.created" {
		t.Errorf("got %s %q %q %s, want cli %q \"frontdesk owner\" owner.created", kind, id, label, action, u.Username)
	}
}
