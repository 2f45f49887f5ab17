package booking

import (
	"context"
	"reflect"
	"testing"
)

// TestListNamesFollowCatalog: List takes the names of a page from the catalog cache instead of
// joining them in; its views must equal BookingViews' for the same bookings, also right after
// the names change behind the cache's back (plain SQL on the writer).
func TestListNamesFollowCatalog(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 3)
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := d.Write.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for i, hm := range []string{"09:00", "10:00", "11:00", "15:00"} {
		nb := haircut(int64(1+i%3), santiago(t, "2026-11-24 "+hm))
		nb.StatusID = int64(1 + i%3)
		if _, err := Create(ctx, d, storeNow, nb); err != nil {
			t.Fatal(err)
		}
	}
	exec(`INSERT INTO carts (id, uuid, client_id, location_id, created_at, updated_at, expires_at) VALUES (1, 'c1', 1, 1, 0, 0, 0)`)
	exec(`INSERT INTO sales (id, cart_id, client_id, location_id, status, created_at, updated_at) VALUES (4, 1, 1, 1, 'paid', 0, 0)`)
	exec(`UPDATE bookings SET sale_id = 4 WHERE id = 2`)

	check := func(t *testing.T) {
		t.Helper()
		views, total, err := List(ctx, d, Filter{LocationID: 1}, 30, 0)
		if err != nil {
			t.Fatal(err)
		}
		if total != 4 || len(views) != 4 {
			t.Fatalf("got %d of %d bookings, want 4 of 4", len(views), total)
		}
		ids := make([]int64, len(views))
		for i, v := range views {
			ids[i] = v.Booking.ID
		}
		want, err := d.R.BookingViews(ctx, ids)
		if err != nil {
			t.Fatal(err)
		}
		byID := map[int64]View{}
		for _, w := range want {
			byID[w.Booking.ID] = w
		}
		for _, v := range views {
			if w := byID[v.Booking.ID]; !reflect.DeepEqual(v, w) {
				t.Fatalf("booking %d: List gave\n%+v\nBookingViews reads\n%+v", v.Booking.ID, v, w)
			}
		}
	}
	check(t) // fills the cache
	for _, c := range []struct{ name, sql string }{
		{"service renamed", `UPDATE services SET name = 'Corte' WHERE id = 1`},
		{"provider renamed", `UPDATE providers SET public_name = 'Ana' WHERE id = 2`},
		{"location renamed and moved", `UPDATE locations SET name = 'Centro 2', timezone = 'America/New_York' WHERE id = 1`},
		{"status renamed", `UPDATE booking_statuses SET name = 'Confirmada', description = NULL WHERE id = 1`},
		{"company replaced", `UPDATE company SET id = 9`},
		{"sale status changed (not catalog)", `UPDATE sales SET status = 'refunded'`},
	} {
		t.Run(c.name, func(t *testing.T) {
			exec(c.sql)
			check(t)
		})
	}
}
