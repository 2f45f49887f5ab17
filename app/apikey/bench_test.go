package apikey

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"frontdesk/db"
)

// Every /v3 request hashes its key and looks the hash up (app/api authenticate); these keep
// that cost visible in benchstat.

func BenchmarkHash(b *testing.B) {
	key, err := Generate()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		Hash(key)
	}
}

// BenchmarkLookup is the whole per-request key check: hash, then the primary-key lookup on the
// read pool of a real database holding 100 keys.
func BenchmarkLookup(b *testing.B) {
	ctx := context.Background()
	d, err := db.Open(ctx, filepath.Join(b.TempDir(), db.FileName))
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	var key string
	for i := range 100 {
		if _, key, err = Create(ctx, d, NewKey{Name: "bench", Scopes: FullAccess}, time.Now()); err != nil {
			b.Fatalf("key %d: %v", i, err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		row, err := d.R.GetAPIKeyByHash(ctx, Hash(key))
		if err != nil || row.RevokedAt.Valid {
			b.Fatalf("got %+v, %v; want the active key", row, err)
		}
	}
}
