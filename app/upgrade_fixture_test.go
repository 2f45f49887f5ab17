package app

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"frontdesk/app/apikey"
	"frontdesk/app/clients"
	"frontdesk/app/importer"
	"frontdesk/app/owner"
	"frontdesk/app/webhook"
	"frontdesk/db"
)

// writeUpgradeFixture regenerates the upgrade fixture: a database at the schema of this
// build, filled the way a real installation is (the demo business, an owner, an API key, a
// webhook with pending deliveries, clients created through the rules that emit events). Run it
// when a release is cut, and commit the file under a new name beside the old ones:
//
//	go test ./app -run TestWriteUpgradeFixture -args -write-upgrade-fixture=testdata/upgrade/schema-N.db
var writeUpgradeFixture = flag.String("write-upgrade-fixture", "", "write an upgrade fixture database to this path")

func TestWriteUpgradeFixture(t *testing.T) {
	if *writeUpgradeFixture == "" {
		t.Skip("only with -args -write-upgrade-fixture=PATH")
	}
	ctx := context.Background()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	dir := t.TempDir()
	d, err := db.Open(ctx, db.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := importer.Load(ctx, d, importer.Demo(), now); err != nil {
		t.Fatal(err)
	}
	if _, err := owner.Create(ctx, d, "owner@example.com", "fixture password", now); err != nil {
		t.Fatal(err)
	}
	if _, _, err := apikey.Create(ctx, d, apikey.NewKey{Name: "fixture", Scopes: apikey.FullAccess}, now); err != nil {
		t.Fatal(err)
	}
	m := webhook.NewManager(d, webhook.ManagerOptions{Now: func() time.Time { return now }})
	if _, _, err := m.Create(ctx, webhook.CreateInput{URL: "https://hooks.example.com/in", Events: []string{"*"}, Description: "fixture"}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Ada", "Grace", "Katherine"} {
		if _, err := clients.Create(ctx, d, now, clients.Input{FirstName: clients.Value(name), LastName: clients.Value("Fixture"),
			Email: clients.Value(name + "@example.com")}, clients.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(*writeUpgradeFixture); err == nil {
		t.Fatalf("%s exists; fixtures are never overwritten (give the new one its own name)", *writeUpgradeFixture)
	}
	if err := os.MkdirAll(filepath.Dir(*writeUpgradeFixture), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := d.Backup(ctx, *writeUpgradeFixture); err != nil {
		t.Fatal(err)
	}
	v, _ := d.Version(ctx)
	t.Logf("wrote %s at schema version %d", *writeUpgradeFixture, v)
}
