package db

import (
	"context"
	"testing"
)

// Every write to a catalog table, by any code path, must raise the catalog version: the
// caches built on it (app/booking LoadScheduleCached) trust nothing else.
func TestCatalogVersionCountsEveryCatalogWrite(t *testing.T) {
	d := openTest(t)
	ctx := context.Background()
	version := func() int64 {
		t.Helper()
		v, err := d.R.CatalogVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if _, err := d.Write.ExecContext(ctx, `INSERT INTO countries (id, code, name) VALUES (1, 'CL', 'Chile')`); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ table, sql string }{
		{"company", `INSERT INTO company (id, name, created_at, updated_at) VALUES (1, 'Shop', 0, 0)`},
		{"company", `UPDATE company SET slot_step_min = 30`},
		{"locations", `INSERT INTO locations (id, uuid, name, timezone, country_id, created_at, updated_at) VALUES (1, 'l1', 'L', 'UTC', 1, 0, 0), (2, 'l2', 'M', 'UTC', 1, 0, 0)`},
		{"locations", `UPDATE locations SET active = 0 WHERE id = 1`},
		{"location_hours", `INSERT INTO location_hours (location_id, day_id, open_min, close_min) VALUES (1, 1, 540, 1080)`},
		{"location_hours", `UPDATE location_hours SET close_min = 1000`},
		{"location_hours", `DELETE FROM location_hours`},
		{"location_closures", `INSERT INTO location_closures (location_id, date) VALUES (1, '2026-12-25')`},
		{"location_closures", `UPDATE location_closures SET reason = 'Christmas'`},
		{"location_closures", `DELETE FROM location_closures`},
		{"services", `INSERT INTO services (id, uuid, name, duration_min, created_at, updated_at) VALUES (1, 's1', 'S', 30, 0, 0), (2, 's2', 'T', 30, 0, 0)`},
		{"services", `UPDATE services SET online_booking = 0 WHERE id = 1`},
		{"providers", `INSERT INTO providers (id, public_name, location_id, created_at, updated_at) VALUES (1, 'P', 1, 0, 0), (2, 'Q', 1, 0, 0)`},
		{"providers", `UPDATE providers SET public_name = 'Ana' WHERE id = 1`},
		{"provider_locations", `INSERT INTO provider_locations (provider_id, location_id) VALUES (1, 1)`},
		{"provider_locations", `DELETE FROM provider_locations`},
		{"service_providers", `INSERT INTO service_providers (service_id, provider_id) VALUES (1, 1)`},
		{"service_providers", `DELETE FROM service_providers`},
		{"provider_hours", `INSERT INTO provider_hours (id, provider_id, location_id, day_id, open_min, close_min) VALUES (1, 1, 1, 1, 540, 1080)`},
		{"provider_hours", `UPDATE provider_hours SET open_min = 600`},
		{"provider_breaks", `INSERT INTO provider_breaks (hours_id, start_min, end_min) VALUES (1, 780, 840)`},
		{"provider_breaks", `UPDATE provider_breaks SET end_min = 850`},
		{"provider_breaks", `DELETE FROM provider_breaks`},
		{"provider_hours", `DELETE FROM provider_hours`},
		{"booking_statuses", `UPDATE booking_statuses SET name = 'Confirmed!' WHERE id = 1`},
		{"booking_statuses", `INSERT INTO booking_statuses (id, name, internal_name) VALUES (9, 'X', 'x')`},
		{"booking_statuses", `DELETE FROM booking_statuses WHERE id = 9`},
		{"providers", `DELETE FROM providers WHERE id = 2`},
		{"services", `DELETE FROM services WHERE id = 2`},
		{"locations", `DELETE FROM locations WHERE id = 2`},
		{"company", `DELETE FROM company`},
	} {
		t.Run(c.table+": "+c.sql, func(t *testing.T) {
			before := version()
			if _, err := d.Write.ExecContext(ctx, c.sql); err != nil {
				t.Fatal(err)
			}
			if after := version(); after <= before {
				t.Fatalf("got catalog version %d after the write, want more than %d", after, before)
			}
		})
	}
	t.Run("a booking is not a catalog write", func(t *testing.T) {
		before := version()
		for _, q := range []string{
			`INSERT INTO company (id, name, created_at, updated_at) VALUES (1, 'Shop', 0, 0)`,
			`INSERT INTO clients (id, first_name, created_at, updated_at) VALUES (1, 'C', 0, 0)`,
		} {
			if _, err := d.Write.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		before = version()
		if _, err := d.Write.ExecContext(ctx, `INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id,
			start_at, end_at, block_start_at, block_end_at, price_cents, list_price_cents, created_at, updated_at)
			VALUES (1, 1, 1, 1, 1, 0, 60000, 0, 60000, 0, 0, 0, 0)`); err != nil {
			t.Fatal(err)
		}
		if after := version(); after != before {
			t.Fatalf("got catalog version %d after a booking, want %d", after, before)
		}
	})
}

func TestCatalogCache(t *testing.T) {
	var c CatalogCache
	if _, ok := c.Lookup(0, "k"); ok {
		t.Fatal("empty cache: got a value, want none")
	}
	c.Store(3, "k", "v3")
	if v, ok := c.Lookup(3, "k"); !ok || v != "v3" {
		t.Fatalf("same version: got %v %v, want v3", v, ok)
	}
	if _, ok := c.Lookup(4, "k"); ok {
		t.Fatal("later version: got the value stored under an earlier one, want none")
	}
	c.Store(2, "old", "v2")
	if _, ok := c.Lookup(2, "old"); ok {
		t.Fatal("a value loaded under an earlier version than the cache's was kept")
	}
	c.Store(5, "other", "v5")
	if _, ok := c.Lookup(5, "k"); ok {
		t.Fatal("a later version kept a value stored under an earlier one")
	}
	if v, ok := c.Lookup(5, "other"); !ok || v != "v5" {
		t.Fatalf("got %v %v, want v5", v, ok)
	}
}

func TestCatalogVersionFromContext(t *testing.T) {
	d := openTest(t)
	ctx := context.Background()
	if _, err := d.Write.ExecContext(ctx, `UPDATE catalog_version SET n = 41`); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		ctx  context.Context
		want int64
	}{
		{"read from the database", ctx, 41},
		{"carried by the context", WithCatalogVersion(ctx, 7), 7},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := d.CatalogVersion(c.ctx)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("got version %d, want %d", got, c.want)
			}
		})
	}
}
