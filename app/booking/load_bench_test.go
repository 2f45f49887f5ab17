package booking

import (
	"context"
	"testing"
	"time"

	"frontdesk/db"
)

// busyDay is the bench's slots_day record set without HTTP (app/bench/fixture.go): the store
// of openStore, with location 1 open and its ten providers working 08:00–20:00 every day
// (lunch 12:00–13:00), a 15-minute service 3 and 200 bookings of one step, one step apart, on
// Wednesday 2026-12-16.
func busyDay(b *testing.B) (*db.DB, Date) {
	d := openStore(b, 10)
	exec := func(q string, args ...any) {
		b.Helper()
		if _, err := d.Write.Exec(q, args...); err != nil {
			b.Fatalf("seed: %v\n%s", err, q)
		}
	}
	exec(`DELETE FROM location_hours WHERE location_id = 1`)
	exec(`DELETE FROM provider_hours WHERE location_id = 1`)
	exec(`INSERT INTO services (id, uuid, name, price_cents, duration_min, online_booking, created_at, updated_at)
		VALUES (3, 's3', 'Quick', 1000, 15, 1, 0, 0)`)
	for day := range 7 {
		exec(`INSERT INTO location_hours (location_id, day_id, open_min, close_min) VALUES (1, ?, 480, 1200)`, day)
		for p := 1; p <= 10; p++ {
			res, err := d.Write.Exec(`INSERT INTO provider_hours (provider_id, location_id, day_id, open_min, close_min) VALUES (?, 1, ?, 480, 1200)`, p, day)
			if err != nil {
				b.Fatal(err)
			}
			id, _ := res.LastInsertId()
			exec(`INSERT INTO provider_breaks (hours_id, start_min, end_min) VALUES (?, 720, 780)`, id)
		}
	}
	for p := 1; p <= 10; p++ {
		exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (3, ?)`, p)
	}
	zone, err := LoadZone("America/Santiago")
	if err != nil {
		b.Fatal(err)
	}
	day := Date{2026, time.December, 16}
	n := 0
	for p := 1; p <= 10; p++ {
		for m := 8 * 60; m+15 <= 20*60 && n < 20*p; m += 30 {
			if m >= 12*60 && m < 13*60 {
				continue
			}
			start := time.Date(2026, time.December, 16, 0, m, 0, 0, zone)
			ms, end := db.Millis(start), db.Millis(start.Add(15*time.Minute))
			exec(`INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at,
				block_start_at, block_end_at, price_cents, list_price_cents, source, created_at, updated_at)
				VALUES (1, 3, ?, 1, 1, ?, ?, ?, ?, 0, 0, 'import', 0, 0)`, p, ms, end, ms, end)
			n++
		}
	}
	return d, day
}

// BenchmarkStoreSlotsBusyDay is the bench's slots_day without HTTP and JSON: load the schedule
// of ten providers with 200 bookings that day and compute the day's slots.
func BenchmarkStoreSlotsBusyDay(b *testing.B) {
	d, day := busyDay(b)
	ctx := context.Background()
	q := ScheduleQuery{LocationID: 1, ServiceID: 3, First: day, Last: day, OnlineOnly: true}
	l, err := LoadSchedule(ctx, d.R, q)
	if err != nil {
		b.Fatal(err)
	}
	if n := len(Slots(l.Schedule, day, day, storeNow)); n < 200 {
		b.Fatalf("got %d slots, want the free steps between the bookings (over 200)", n)
	}
	b.Run("load", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := LoadSchedule(ctx, d.R, q); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("load+slots", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			l, err := LoadSchedule(ctx, d.R, q)
			if err != nil {
				b.Fatal(err)
			}
			Slots(l.Schedule, day, day, storeNow)
		}
	})
}

// BenchmarkStoreSlotsBusyDayCached is the same through the catalog cache, as the API reads it.
func BenchmarkStoreSlotsBusyDayCached(b *testing.B) {
	d, day := busyDay(b)
	ctx := context.Background()
	q := ScheduleQuery{LocationID: 1, ServiceID: 3, First: day, Last: day, OnlineOnly: true}
	b.ReportAllocs()
	for b.Loop() {
		l, err := LoadScheduleCached(ctx, d, q)
		if err != nil {
			b.Fatal(err)
		}
		Slots(l.Schedule, day, day, storeNow)
	}
}
