package db

import (
	"context"
	"testing"
)

// TestMigration00690FoldsTheBookingCounters: the change counters of the bookings of a location,
// client, service and provider move into booking_counts. Carried over, each version starts at
// least where the old counter stood (no ETag a client holds can come round again); afterwards
// every insert, change, move, sale update and delete raises the version of each list the booking
// was or is in, and the counts stay exact.
func TestMigration00690FoldsTheBookingCounters(t *testing.T) {
	fromScratch(t)
	ctx := context.Background()
	path, conn := migratedTo(t, 631)
	for _, s := range []string{
		`INSERT INTO company (id, name, created_at, updated_at) VALUES (1, 'Shop', 0, 0)`,
		`INSERT INTO countries (id, code, name) VALUES (1, 'CL', 'Chile')`,
		`INSERT INTO locations (id, uuid, name, timezone, country_id, created_at, updated_at) VALUES (1, 'l1', 'L1', 'UTC', 1, 0, 0), (2, 'l2', 'L2', 'UTC', 1, 0, 0)`,
		`INSERT INTO services (id, uuid, name, duration_min, created_at, updated_at) VALUES (1, 's', 'S', 60, 0, 0)`,
		`INSERT INTO providers (id, public_name, location_id, created_at, updated_at) VALUES (1, 'P', 1, 0, 0), (2, 'Q', 1, 0, 0)`,
		`INSERT INTO clients (id, first_name, created_at, updated_at) VALUES (1, 'C', 0, 0)`,
		`INSERT INTO bookings (id, location_id, service_id, provider_id, client_id, status_id, start_at, end_at, block_start_at, block_end_at,
			price_cents, list_price_cents, created_at, updated_at) VALUES (1, 1, 1, 1, 1, 1, 0, 3600000, 0, 3600000, 0, 0, 0, 0)`,
		`UPDATE bookings SET notes = 'x' WHERE id = 1`,
		`UPDATE bookings SET notes = 'y' WHERE id = 1`,
	} {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	old := map[string]int64{}
	rows, err := conn.QueryContext(ctx, `SELECT kind, n FROM etag_versions WHERE kind LIKE 'bookings\_%' ESCAPE '\' AND ref_id = 1`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var kind string
		var n int64
		if err := rows.Scan(&kind, &n); err != nil {
			t.Fatal(err)
		}
		old[kind[len("bookings_"):]] = n
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	if len(old) != 4 || old["location"] != 3 {
		t.Fatalf("counters before the migration: %v, want four, location's 3", old)
	}

	d := openMigrated(t, conn, path)
	version := func(kind string, ref int64) int64 {
		t.Helper()
		n, err := d.R.BookingsVersion(ctx, BookingsVersionParams{Kind: kind, RefID: ref})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	count := func(kind string, ref int64) int64 {
		t.Helper()
		n, err := d.R.BookingCount(ctx, BookingCountParams{Kind: kind, RefID: ref, StatusID: 0})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	for kind, n := range old {
		if v := version(kind, 1); v < n {
			t.Errorf("%s 1: version %d after the migration, below the counter's %d", kind, v, n)
		}
	}
	var left int
	if err := d.Read.QueryRowContext(ctx, `SELECT count(*) FROM etag_versions WHERE kind LIKE 'bookings\_%' ESCAPE '\'`).Scan(&left); err != nil || left != 0 {
		t.Fatalf("old counters left: %d (%v)", left, err)
	}

	// Each write raises the versions of every list named, and leaves the counts exact.
	type list struct {
		kind string
		ref  int64
	}
	for _, step := range []struct {
		sql    string
		raised []list
		counts map[list]int64
	}{
		{`INSERT INTO bookings (id, location_id, service_id, provider_id, client_id, status_id, start_at, end_at, block_start_at, block_end_at,
			price_cents, list_price_cents, created_at, updated_at) VALUES (2, 1, 1, 2, 1, 1, 0, 3600000, 0, 3600000, 0, 0, 0, 0)`,
			[]list{{"location", 1}, {"provider", 2}, {"client", 1}, {"service", 1}},
			map[list]int64{{"location", 1}: 2, {"provider", 2}: 1}},
		{`UPDATE bookings SET notes = 'z' WHERE id = 2`,
			[]list{{"location", 1}, {"provider", 2}, {"client", 1}, {"service", 1}}, nil},
		{`UPDATE bookings SET location_id = 2, provider_id = 1, start_at = 7200000, end_at = 10800000, block_start_at = 7200000, block_end_at = 10800000 WHERE id = 2`,
			[]list{{"location", 1}, {"location", 2}, {"provider", 2}, {"provider", 1}},
			map[list]int64{{"location", 1}: 1, {"location", 2}: 1, {"provider", 2}: 0, {"provider", 1}: 2}},
		{`UPDATE bookings SET status_id = 5 WHERE id = 2`,
			[]list{{"location", 2}, {"provider", 1}, {"client", 1}}, map[list]int64{{"location", 2}: 1}},
		{`DELETE FROM bookings WHERE id = 2`,
			[]list{{"location", 2}, {"provider", 1}, {"client", 1}, {"service", 1}},
			map[list]int64{{"location", 2}: 0, {"provider", 1}: 1, {"client", 1}: 1}},
	} {
		before := map[list]int64{}
		for _, l := range step.raised {
			before[l] = version(l.kind, l.ref)
		}
		if _, err := d.Write.ExecContext(ctx, step.sql); err != nil {
			t.Fatalf("%s: %v", step.sql, err)
		}
		for _, l := range step.raised {
			if after := version(l.kind, l.ref); after <= before[l] {
				t.Errorf("after %.40s…: %s %d's version %d, not above %d", step.sql, l.kind, l.ref, after, before[l])
			}
		}
		for l, want := range step.counts {
			if got := count(l.kind, l.ref); got != want {
				t.Errorf("after %.40s…: %s %d counts %d, want %d", step.sql, l.kind, l.ref, got, want)
			}
		}
	}
}
