package db

import (
	"context"
	"testing"
)

// TestMigration00220FullAccessBecomesExplicit: a key stored before 00220 with an empty scope
// list (which meant full access then) keeps full access, now spelled "*", and gets the
// z_means_local option off.
func TestMigration00220FullAccessBecomesExplicit(t *testing.T) {
	fromScratch(t)
	ctx := context.Background()
	path, conn := migratedTo(t, 219)
	for _, scopes := range []string{"", "clients:read"} {
		if _, err := conn.ExecContext(ctx, `INSERT INTO api_keys (name, prefix, key_hash, scopes, created_at) VALUES ('k', 'p', ?, ?, 1)`, "h"+scopes, scopes); err != nil {
			t.Fatal(err)
		}
	}
	d := openMigrated(t, conn, path)
	keys, err := d.R.ListAPIKeys(ctx)
	if err != nil || len(keys) != 2 {
		t.Fatalf("keys: %v, %v", keys, err)
	}
	if keys[0].Scopes != "*" || keys[1].Scopes != "clients:read" || keys[0].ZMeansLocal || keys[1].ZMeansLocal {
		t.Errorf("after migrating: %+v, %+v; want scopes \"*\" and \"clients:read\", option off", keys[0], keys[1])
	}
}
