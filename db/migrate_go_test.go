package db

import (
	"context"
	"database/sql"
	"testing"
)

// A database written before migration 130 keeps its bookings, and afterwards accepts the
// booking site's and the MCP server's sources while still refusing anything else.
func TestWidenBookingSources(t *testing.T) {
	fromScratch(t)
	ctx := context.Background()
	path, conn := migratedTo(t, 120)
	seedBookingFixtures(t, conn)
	insert := func(id int64, source string) error {
		_, err := conn.ExecContext(ctx, `INSERT INTO bookings (id, location_id, service_id, provider_id, client_id, status_id,
			start_at, end_at, block_start_at, block_end_at, price_cents, list_price_cents, source, created_at, updated_at)
			VALUES (?, 1, 1, 1, 1, 1, ?, ?, ?, ?, 0, 0, ?, 0, 0)`, id, id*3_600_000, id*3_600_000+60_000, id*3_600_000, id*3_600_000+60_000, source)
		return err
	}
	if err := insert(1, "connect"); err != nil {
		t.Fatal(err)
	}
	if err := insert(2, "online"); !IsConstraint(err, "CHECK constraint failed") {
		t.Fatalf("before 130, source online: got %v, want a CHECK failure", err)
	}
	d := openMigrated(t, conn, path)
	for i, tc := range []struct {
		source string
		ok     bool
	}{{"online", true}, {"mcp", true}, {"admin", true}, {"elsewhere", false}} {
		_, err := d.Write.ExecContext(ctx, `INSERT INTO bookings (id, location_id, service_id, provider_id, client_id, status_id,
			start_at, end_at, block_start_at, block_end_at, price_cents, list_price_cents, source, created_at, updated_at)
			VALUES (?, 1, 1, 1, 1, 1, ?, ?, ?, ?, 0, 0, ?, 0, 0)`, 10+i, int64(10+i)*3_600_000, int64(10+i)*3_600_000+60_000,
			int64(10+i)*3_600_000, int64(10+i)*3_600_000+60_000, tc.source)
		if (err == nil) != tc.ok {
			t.Errorf("source %q: err = %v, want accepted = %v", tc.source, err, tc.ok)
		}
	}
	var n int
	if err := d.Read.QueryRowContext(ctx, `SELECT count(*) FROM bookings WHERE source = 'connect'`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("bookings written before the migration: %d (%v), want 1", n, err)
	}
	// The overlap trigger survived the edit.
	if err := insertOverlap(ctx, d.Write); !IsConstraint(err, "slot_unavailable") {
		t.Fatalf("overlap after the migration: got %v, want slot_unavailable", err)
	}
}

func seedBookingFixtures(t *testing.T, conn *sql.DB) {
	t.Helper()
	for _, q := range []string{
		`INSERT INTO countries (id, code, name) VALUES (1, 'CL', 'Chile')`,
		`INSERT INTO locations (id, uuid, name, timezone, country_id, created_at, updated_at) VALUES (1, 'u1', 'L', 'America/Santiago', 1, 0, 0)`,
		`INSERT INTO services (id, uuid, name, duration_min, created_at, updated_at) VALUES (1, 's1', 'S', 30, 0, 0)`,
		`INSERT INTO providers (id, public_name, location_id, created_at, updated_at) VALUES (1, 'P', 1, 0, 0)`,
		`INSERT INTO clients (id, first_name, created_at, updated_at) VALUES (1, 'C', 0, 0)`,
	} {
		if _, err := conn.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func insertOverlap(ctx context.Context, conn *sql.DB) error {
	_, err := conn.ExecContext(ctx, `INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id,
		start_at, end_at, block_start_at, block_end_at, price_cents, list_price_cents, created_at, updated_at)
		VALUES (1, 1, 1, 1, 1, 3600000, 3660000, 3600000, 3660000, 0, 0, 0, 0)`)
	return err
}
