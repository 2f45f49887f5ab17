package db

import (
	"context"
	"database/sql"
	"testing"
)

// TestMigration00480ClassifiesOldCancels: bookings cancelled before 00480 get when (their last
// update: a cancel is final), whether late (inside the company's lock window), and who — from
// the activity trail's entry for the cancel, 'unpaid' when their payment request lapsed, NULL
// when nothing says.
func TestMigration00480ClassifiesOldCancels(t *testing.T) {
	fromScratch(t)
	ctx := context.Background()
	path, conn := migratedTo(t, 450)
	const hour = 3600000
	for _, s := range []string{
		`INSERT INTO company (id, name, edit_lock_min, created_at, updated_at) VALUES (1, 'Shop', 60, 0, 0)`,
		`INSERT INTO countries (id, code, name) VALUES (1, 'CL', 'Chile')`,
		`INSERT INTO locations (id, uuid, name, timezone, country_id, created_at, updated_at) VALUES (1, 'l', 'L', 'UTC', 1, 0, 0)`,
		`INSERT INTO services (id, uuid, name, duration_min, created_at, updated_at) VALUES (1, 's', 'S', 60, 0, 0)`,
		`INSERT INTO providers (id, public_name, location_id, created_at, updated_at) VALUES (1, 'P', 1, 0, 0)`,
		`INSERT INTO clients (id, first_name, created_at, updated_at) VALUES (1, 'C', 0, 0)`,
		`INSERT INTO carts (id, uuid, created_at, updated_at, expires_at) VALUES (1, 'c', 0, 0, 0)`,
		`INSERT INTO payment_requests (id, uuid, cart_id, amount_cents, status, created_at, updated_at) VALUES (1, 'p', 1, 100, 'expired', 0, 0)`,
	} {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	// id, start, status, updated_at (the cancel), payment request, the trail's actor kind.
	for _, b := range []struct {
		id, start, status, updated int64
		request                    sql.NullInt64
		actor                      string
	}{
		{1, 10 * hour, 5, 2 * hour, sql.NullInt64{}, "site"},                  // client, in time
		{2, 20 * hour, 5, 19*hour + 30*60000, sql.NullInt64{}, "owner"},       // business, late (30 min before, lock 60)
		{3, 30 * hour, 5, 3 * hour, sql.NullInt64{Int64: 1, Valid: true}, ""}, // unpaid
		{4, 40 * hour, 5, 3 * hour, sql.NullInt64{}, ""},                      // not recorded
		{5, 50 * hour, 1, 3 * hour, sql.NullInt64{}, ""},                      // not cancelled
	} {
		if _, err := conn.ExecContext(ctx, `INSERT INTO bookings (id, location_id, service_id, provider_id, client_id, status_id,
			start_at, end_at, block_start_at, block_end_at, price_cents, list_price_cents, payment_request_id, created_at, updated_at)
			VALUES (?, 1, 1, 1, 1, ?, ?, ?, ?, ?, 0, 0, ?, 0, ?)`, b.id, b.status, b.start, b.start+hour, b.start, b.start+hour, b.request, b.updated); err != nil {
			t.Fatal(err)
		}
		if b.actor != "" {
			if _, err := conn.ExecContext(ctx, `INSERT INTO activity (at, actor_kind, action, entity, entity_id) VALUES (?, ?, 'booking.cancelled', 'booking', ?)`,
				b.updated, b.actor, b.id); err != nil {
				t.Fatal(err)
			}
		}
	}
	d := openMigrated(t, conn, path)
	want := map[int64]struct {
		at   sql.NullInt64
		by   sql.NullString
		late bool
	}{
		1: {sql.NullInt64{Int64: 2 * hour, Valid: true}, sql.NullString{String: "client", Valid: true}, false},
		2: {sql.NullInt64{Int64: 19*hour + 30*60000, Valid: true}, sql.NullString{String: "business", Valid: true}, true},
		3: {sql.NullInt64{Int64: 3 * hour, Valid: true}, sql.NullString{String: "unpaid", Valid: true}, false},
		4: {sql.NullInt64{Int64: 3 * hour, Valid: true}, sql.NullString{}, false},
		5: {},
	}
	for id, w := range want {
		var at sql.NullInt64
		var by sql.NullString
		var late bool
		if err := d.ReadDB().QueryRowContext(ctx, `SELECT cancelled_at, cancelled_by, cancelled_late FROM bookings WHERE id = ?`, id).Scan(&at, &by, &late); err != nil {
			t.Fatal(err)
		}
		if at != w.at || by != w.by || late != w.late {
			t.Errorf("booking %d: at %v, by %v, late %v; want %v, %v, %v", id, at, by, late, w.at, w.by, w.late)
		}
	}
}
