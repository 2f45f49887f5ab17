package booking

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// storeNow is the store tests' clock: Monday 2026-11-23 09:00 in Santiago (12:00 UTC).
var storeNow = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

// openStore opens a fresh database file and seeds, with plain SQL: company 1 (15-minute step,
// no notice, 90 days ahead); location 1 "Centro" in Santiago and location 2 "Norte" in New
// York, both open Mon–Sat 09:00–19:00; service 1 Haircut 30 min + 10 min after (15000, 10 %
// off), service 2 Offline 30 min (online booking off); providers 1…n working at location 1
// Mon–Fri 09:00–18:00 with a 13:00–14:00 break and offering service 1 (provider 1 also works
// at location 2, without hours there); client 1.
func openStore(t testing.TB, providers int) *db.DB {
	t.Helper()
	d := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName))
	ms := db.Millis(storeNow)
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := d.Write.Exec(q, args...); err != nil {
			t.Fatalf("seed: %v\n%s", err, q)
		}
	}
	exec(`INSERT INTO company (id, name, slot_step_min, created_at, updated_at) VALUES (1, 'Shop', 15, ?, ?)`, ms, ms)
	exec(`INSERT INTO countries (id, code, name) VALUES (1, 'CL', 'Chile')`)
	exec(`INSERT INTO locations (id, uuid, name, timezone, country_id, created_at, updated_at) VALUES
		(1, 'l1', 'Centro', 'America/Santiago', 1, ?, ?), (2, 'l2', 'Norte', 'America/New_York', 1, ?, ?)`, ms, ms, ms, ms)
	for day := 1; day <= 6; day++ {
		exec(`INSERT INTO location_hours (location_id, day_id, open_min, close_min) VALUES (1, ?, 540, 1140), (2, ?, 540, 1140)`, day, day)
	}
	exec(`INSERT INTO services (id, uuid, name, price_cents, has_discount, discount_bp, duration_min, buffer_after_min, online_booking, created_at, updated_at)
		VALUES (1, 's1', 'Haircut', 1500000, 1, 1000, 30, 10, 1, ?, ?), (2, 's2', 'Offline', 1000, 0, NULL, 30, 0, 0, ?, ?)`, ms, ms, ms, ms)
	exec(`INSERT INTO clients (id, first_name, created_at, updated_at) VALUES (1, 'Maria', ?, ?)`, ms, ms)
	for p := 1; p <= providers; p++ {
		exec(`INSERT INTO providers (id, public_name, location_id, created_at, updated_at) VALUES (?, ?, 1, ?, ?)`, p, fmt.Sprintf("P%d", p), ms, ms)
		exec(`INSERT INTO provider_locations (provider_id, location_id) VALUES (?, 1)`, p)
		exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (1, ?), (2, ?)`, p, p)
		for day := 1; day <= 5; day++ {
			res, err := d.Write.Exec(`INSERT INTO provider_hours (provider_id, location_id, day_id, open_min, close_min) VALUES (?, 1, ?, 540, 1080)`, p, day)
			if err != nil {
				t.Fatal(err)
			}
			id, _ := res.LastInsertId()
			exec(`INSERT INTO provider_breaks (hours_id, start_min, end_min) VALUES (?, 780, 840)`, id)
		}
	}
	exec(`INSERT INTO provider_locations (provider_id, location_id) VALUES (1, 2)`)
	return d
}

// santiago reads "2006-01-02 15:04" in Santiago.
func santiago(t testing.TB, s string) time.Time {
	t.Helper()
	zone, err := LoadZone("America/Santiago")
	if err != nil {
		t.Fatal(err)
	}
	tm, err := time.ParseInLocation("2006-01-02 15:04", s, zone)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// haircut is a customer-flow booking of service 1 at location 1.
func haircut(provider int64, start time.Time) NewBooking {
	return NewBooking{LocationID: 1, ServiceID: 1, ProviderID: provider, ClientID: 1, StatusID: StatusConfirmed, Start: start, Source: SourceConnect}
}

// countingDB counts the statements sent through it, to prove loads are batched, and keeps
// their sqlc names.
type countingDB struct {
	db.DBTX
	n     int
	names []string
}

func (c *countingDB) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	c.count(q)
	return c.DBTX.QueryContext(ctx, q, args...)
}

func (c *countingDB) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	c.count(q)
	return c.DBTX.QueryRowContext(ctx, q, args...)
}

func (c *countingDB) count(q string) {
	c.n++
	name, _, _ := strings.Cut(strings.TrimPrefix(q, "-- name: "), " ")
	c.names = append(c.names, name)
}

// wantNoOverlaps is the final scan: no two non-cancelled blocks of one provider overlap.
func wantNoOverlaps(t *testing.T, d *db.DB) {
	t.Helper()
	var n int
	err := d.Read.QueryRow(`SELECT count(*) FROM bookings a JOIN bookings b
		ON a.provider_id = b.provider_id AND a.id < b.id
		WHERE a.status_id <> 5 AND b.status_id <> 5
		  AND a.block_start_at < b.block_end_at AND b.block_start_at < a.block_end_at
		  AND NOT (a.session_id IS NOT NULL AND a.session_id = b.session_id)`).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("found %d pairs of overlapping active bookings, want 0", n)
	}
}
