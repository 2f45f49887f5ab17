package db

import (
	"context"
	"strings"
	"testing"
)

// After migration 382 the CHECKs of bookings.source, deliveries.state and
// delivery_attempts.error_category are comparisons instead of IN lists, state the same rule
// (good values and NULL pass, anything else fails) and every stored row is kept.
func TestChecksWithoutInLists(t *testing.T) {
	fromScratch(t)
	ctx := context.Background()
	path, conn := migratedTo(t, 381)
	seedBookingFixtures(t, conn)
	if err := insertOverlap(ctx, conn); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO webhooks (id, url, events_json, created_at, updated_at) VALUES (1, 'https://example.com/h', '["*"]', 0, 0)`,
		`INSERT INTO events (id, type, body, created_at) VALUES ('evt_1', 'booking.created', '{}', 0)`,
		`INSERT INTO deliveries (id, event_id, webhook_id, state, created_at, updated_at) VALUES (1, 'evt_1', 1, 'failed', 0, 0)`,
		`INSERT INTO delivery_attempts (delivery_id, attempt, started_at, duration_ms, error_category) VALUES (1, 1, 0, 5, 'timeout'), (1, 2, 0, 5, NULL)`,
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	d := openMigrated(t, conn, path)
	for _, c := range []struct{ table, column string }{{"bookings", "source"}, {"deliveries", "state"}, {"delivery_attempts", "error_category"}} {
		var stored string
		if err := d.Read.QueryRowContext(ctx, `SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?`, c.table).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(stored, c.column+" IN (") || !strings.Contains(stored, "CHECK ("+c.column+" = '") {
			t.Errorf("%s: the CHECK of %s is not a chain of comparisons:\n%s", c.table, c.column, stored)
		}
	}
	for _, c := range []struct {
		set string
		ok  bool
	}{
		{`UPDATE bookings SET source = 'mcp'`, true},
		{`UPDATE bookings SET source = 'import'`, true},
		{`UPDATE bookings SET source = 'elsewhere'`, false},
		{`UPDATE bookings SET source = 'Connect'`, false},
		{`UPDATE deliveries SET state = 'missed'`, true},
		{`UPDATE deliveries SET state = 'pending'`, true},
		{`UPDATE deliveries SET state = 'lost'`, false},
		{`UPDATE delivery_attempts SET error_category = 'forbidden_address'`, true},
		{`UPDATE delivery_attempts SET error_category = NULL`, true},
		{`UPDATE delivery_attempts SET error_category = 'gremlins'`, false},
		{`UPDATE delivery_attempts SET error_category = ''`, false},
	} {
		_, err := d.Write.ExecContext(ctx, c.set)
		if c.ok && err != nil {
			t.Errorf("%s: %v", c.set, err)
		}
		if !c.ok && !IsConstraint(err, "CHECK constraint failed") {
			t.Errorf("%s: got %v, want a CHECK failure", c.set, err)
		}
	}
	var bookings, deliveries, attempts int
	if err := d.Read.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM bookings), (SELECT count(*) FROM deliveries),
		(SELECT count(*) FROM delivery_attempts)`).Scan(&bookings, &deliveries, &attempts); err != nil {
		t.Fatal(err)
	}
	if bookings != 1 || deliveries != 1 || attempts != 2 {
		t.Errorf("kept %d bookings, %d deliveries, %d attempts; want 1, 1, 2", bookings, deliveries, attempts)
	}
	// The overlap trigger survived the edit.
	if err := insertOverlap(ctx, d.Write); !IsConstraint(err, "slot_unavailable") {
		t.Fatalf("overlap after the migration: got %v, want slot_unavailable", err)
	}
}
