package db

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"
)

func openTest(t *testing.T) *DB {
	t.Helper()
	d, err := Open(context.Background(), filepath.Join(t.TempDir(), FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// The overlap triggers are the last line of defence against double booking: they must refuse
// an overlapping block for the same provider whatever code path writes it.
func TestOverlapTriggers(t *testing.T) {
	d := openTest(t)
	ctx := context.Background()
	now := time.Now().UnixMilli()
	mustExec := func(q string, args ...any) {
		t.Helper()
		if _, err := d.Write.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	mustExec(`INSERT INTO countries (id, code, name) VALUES (1, 'CL', 'Chile')`)
	mustExec(`INSERT INTO locations (id, uuid, name, timezone, country_id, created_at, updated_at) VALUES (1, 'u1', 'L', 'America/Santiago', 1, ?, ?)`, now, now)
	mustExec(`INSERT INTO services (id, uuid, name, duration_min, created_at, updated_at) VALUES (1, 's1', 'S', 30, ?, ?)`, now, now)
	mustExec(`INSERT INTO providers (id, public_name, location_id, created_at, updated_at) VALUES (1, 'P', 1, ?, ?), (2, 'Q', 1, ?, ?)`, now, now, now, now)
	mustExec(`INSERT INTO clients (id, first_name, created_at, updated_at) VALUES (1, 'C', ?, ?)`, now, now)

	const min = int64(60_000)
	base := int64(1_800_000_000_000)
	insert := func(provider, status int64, start, end int64) error {
		_, err := d.Write.ExecContext(ctx, `INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id,
			start_at, end_at, block_start_at, block_end_at, price_cents, list_price_cents, created_at, updated_at)
			VALUES (1, 1, ?, 1, ?, ?, ?, ?, ?, 0, 0, 0, 0)`, provider, status, start, end, start, end)
		return err
	}
	if err := insert(1, 1, base, base+30*min); err != nil {
		t.Fatalf("first booking: %v", err)
	}
	cases := []struct {
		name           string
		provider, stat int64
		start, end     int64
		wantRefused    bool
	}{
		{"same time", 1, 1, base, base + 30*min, true},
		{"overlaps end", 1, 2, base + 29*min, base + 60*min, true},
		{"inside", 1, 1, base + 10*min, base + 20*min, true},
		{"touches end (half-open)", 1, 1, base + 30*min, base + 60*min, false},
		{"touches start (half-open)", 1, 1, base - 30*min, base, false},
		{"other provider", 2, 1, base, base + 30*min, false},
		{"cancelled may overlap", 1, 5, base, base + 30*min, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := insert(c.provider, c.stat, c.start, c.end)
			if got := IsConstraint(err, "slot_unavailable"); got != c.wantRefused {
				t.Fatalf("refused = %v (err %v), want %v", got, err, c.wantRefused)
			}
		})
	}
	// Moving a booking onto another through UPDATE is refused too.
	_, err := d.Write.ExecContext(ctx, `UPDATE bookings SET block_start_at = ?, start_at = ?, end_at = ?, block_end_at = ?
		WHERE start_at = ? AND provider_id = 1 AND status_id <> 5`, base+5*min, base+5*min, base+65*min, base+65*min, base+30*min)
	if !IsConstraint(err, "slot_unavailable") {
		t.Fatalf("update onto an existing booking: got %v, want slot_unavailable", err)
	}
	// A cancelled booking cannot come back to life.
	_, err = d.Write.ExecContext(ctx, `UPDATE bookings SET status_id = 1 WHERE status_id = 5`)
	if !IsConstraint(err, "booking_cancelled") {
		t.Fatalf("un-cancel: got %v, want booking_cancelled", err)
	}
}

func TestBackupIsConsistentCopy(t *testing.T) {
	d := openTest(t)
	ctx := context.Background()
	if _, err := d.W.CreateCategory(ctx, CreateCategoryParams{Name: "Hair", CreatedAt: 1, UpdatedAt: 1}); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(t.TempDir(), "copy.db")
	if err := d.Backup(ctx, dest); err != nil {
		t.Fatal(err)
	}
	cp, err := Open(ctx, dest)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	n, err := cp.R.CountCategories(ctx)
	if err != nil || n != 1 {
		t.Fatalf("categories in backup: got %d (%v), want 1", n, err)
	}
}

// OpenReaders leaves the whole read pool open and idle, so no request is the one that opens a
// connection and parses the schema, and idle memory does not depend on whether two reads ever
// overlapped; reads then reuse those connections.
func TestOpenReadersOpensThePool(t *testing.T) {
	d := openTest(t)
	if st := d.Read.Stats(); st.OpenConnections != 0 {
		t.Fatalf("a fresh pool has %d connections open, want none before OpenReaders", st.OpenConnections)
	}
	if err := d.OpenReaders(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := d.Read.Stats(); st.OpenConnections != readConns || st.Idle != readConns {
		t.Fatalf("got %d open, %d idle; want the %d of the pool, idle", st.OpenConnections, st.Idle, readConns)
	}
	for range 3 {
		if _, err := d.R.CountCompanies(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if st := d.Read.Stats(); st.OpenConnections != readConns {
		t.Fatalf("reads opened more connections: %d open", st.OpenConnections)
	}
}

// The page caches are bounded below SQLite's 2 MiB default (dsn says why): every connection of
// both pools, however it was opened, has its cache_size.
func TestPageCacheSizes(t *testing.T) {
	d := openTest(t)
	ctx := context.Background()
	if err := d.OpenReaders(ctx); err != nil {
		t.Fatal(err)
	}
	for _, pool := range []struct {
		name string
		db   *sql.DB
		want int
	}{{"writer", d.Write, -1024}, {"reader", d.Read, -512}} {
		var n int
		if err := pool.db.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != pool.want {
			t.Errorf("%s: cache_size %d, want %d (KiB)", pool.name, n, pool.want)
		}
	}
}
