package booking

import (
	"context"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"frontdesk/db"
)

// benchStore is one location with ten providers and 500 non-overlapping bookings spread over
// December 2026 (inserted directly, as an import would).
func benchStore(b *testing.B) *db.DB {
	d := openStore(b, 10)
	zone, err := LoadZone("America/Santiago")
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	taken := map[[3]int]bool{}
	for n := 0; n < 500; {
		p, day, hour := 1+rng.IntN(10), 1+rng.IntN(31), 9+rng.IntN(9)
		if hour == 13 || taken[[3]int{p, day, hour}] {
			continue
		}
		taken[[3]int{p, day, hour}] = true
		start := time.Date(2026, time.December, day, hour, 15*rng.IntN(2), 0, 0, zone)
		ms, end := db.Millis(start), db.Millis(start.Add(30*time.Minute))
		if _, err := d.Write.Exec(`INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at,
			block_start_at, block_end_at, price_cents, list_price_cents, source, created_at, updated_at)
			VALUES (1, 1, ?, 1, 1, ?, ?, ?, ?, 0, 0, 'import', 0, 0)`, p, ms, end, ms, end+600_000); err != nil {
			b.Fatal(err)
		}
		n++
	}
	return d
}

// BenchmarkStoreSlots31Days is GET /v3/available_slots without HTTP: load the schedule of one
// location with ten providers and 500 bookings, and compute a month of slots.
func BenchmarkStoreSlots31Days(b *testing.B) {
	d := benchStore(b)
	ctx := context.Background()
	first, last := Date{2026, time.December, 1}, Date{2026, time.December, 31}
	q := ScheduleQuery{LocationID: 1, ServiceID: 1, First: first, Last: last, OnlineOnly: true}
	l, err := LoadSchedule(ctx, d.R, q)
	if err != nil {
		b.Fatal(err)
	}
	if n := len(Slots(l.Schedule, first, last, storeNow)); n < 1000 {
		b.Fatalf("got %d slots, want a realistic month (over 1000)", n)
	}
	b.ReportAllocs()
	for b.Loop() {
		l, err := LoadSchedule(ctx, d.R, q)
		if err != nil {
			b.Fatal(err)
		}
		Slots(l.Schedule, first, last, storeNow)
	}
}

// BenchmarkStoreSlotsOneDay is the common single-day query.
func BenchmarkStoreSlotsOneDay(b *testing.B) {
	d := benchStore(b)
	ctx := context.Background()
	day := Date{2026, time.December, 15}
	q := ScheduleQuery{LocationID: 1, ServiceID: 1, First: day, Last: day, OnlineOnly: true}
	b.ReportAllocs()
	for b.Loop() {
		l, err := LoadSchedule(ctx, d.R, q)
		if err != nil {
			b.Fatal(err)
		}
		Slots(l.Schedule, day, day, storeNow)
	}
}

// BenchmarkCreate is the whole customer-flow booking: checks on the read pool, then the write
// transaction (bounded overlap check, insert, outbox event). Every iteration books a free time.
func BenchmarkCreate(b *testing.B) {
	d, next := benchCreateStore(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		nb := next()
		if _, err := Create(ctx, d, storeNow, nb); err != nil {
			b.Fatalf("booking at %v: %v", nb.Start, err)
		}
	}
}

// BenchmarkCreateParallel is the same from several goroutines at once, queueing on the one
// writer connection.
func BenchmarkCreateParallel(b *testing.B) {
	d, next := benchCreateStore(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.SetParallelism(4)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			nb := next()
			if _, err := Create(ctx, d, storeNow, nb); err != nil {
				b.Errorf("booking at %v: %v", nb.Start, err)
				return
			}
		}
	})
}

// benchCreateStore returns the bench store and a generator of distinct free haircuts: ten
// providers × eight free hours × weekdays from 2027-01-04 on, moving on a week at a time.
func benchCreateStore(b *testing.B) (*db.DB, func() NewBooking) {
	d := benchStore(b)
	if _, err := d.Write.Exec(`UPDATE company SET max_advance_days = 0`); err != nil {
		b.Fatal(err)
	}
	zone, _ := LoadZone("America/Santiago")
	monday := time.Date(2027, time.January, 4, 0, 0, 0, 0, zone)
	var n atomic.Int64
	return d, func() NewBooking {
		i := int(n.Add(1) - 1)
		p, hour, weekday, week := i%10, i/10%8, i/80%5, i/400
		if hour >= 4 {
			hour++ // skip the 13:00 break
		}
		start := monday.AddDate(0, 0, 7*week+weekday).Add(time.Duration(9+hour) * time.Hour)
		return haircut(int64(p+1), start)
	}
}

// benchList100k seeds 100 000 bookings over ten providers and two clients at location 1.
func benchList100k(b *testing.B) *db.DB {
	d := openStore(b, 10)
	if _, err := d.Write.Exec(`INSERT INTO clients (id, first_name, created_at, updated_at) VALUES (2, 'Juan', 0, 0)`); err != nil {
		b.Fatal(err)
	}
	tx, err := d.Write.Begin()
	if err != nil {
		b.Fatal(err)
	}
	stmt, err := tx.Prepare(`INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at,
		block_start_at, block_end_at, price_cents, list_price_cents, source, created_at, updated_at)
		VALUES (1, 1, ?, ?, ?, ?, ?, ?, ?, 0, 0, 'import', 0, 0)`)
	if err != nil {
		b.Fatal(err)
	}
	base := db.Millis(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	for i := range 100_000 {
		start := base + int64(i/10)*2_400_000
		if _, err := stmt.Exec(1+i%10, 1+i%7/6, 1+i%5, start, start+1_800_000, start, start+2_400_000); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	return d
}

// BenchmarkList100k is GET /v3/bookings over 100 000 bookings: the count and one page.
func BenchmarkList100k(b *testing.B) {
	d := benchList100k(b)
	ctx := context.Background()
	from, to := Date{2026, time.March, 1}, Date{2026, time.March, 31}
	first, last := Date{1, time.January, 1}, Date{9999, time.December, 31}
	yes := true
	for _, c := range []struct {
		name string
		f    Filter
	}{
		{"location", Filter{LocationID: 1}},
		{"provider", Filter{ProviderID: 3}},
		{"client", Filter{ClientID: 2}},
		{"location month", Filter{LocationID: 1, From: &from, To: &to}},
		// Ranges are not bounded (a page is): every date there is, for one location's zone and
		// for a provider, whose bookings may lie in either location's zone.
		{"location all dates", Filter{LocationID: 1, From: &first, To: &last}},
		{"provider all dates", Filter{ProviderID: 3, From: &first, To: &last}},
		{"provider year", Filter{ProviderID: 3, From: &Date{2026, time.January, 1}, To: &Date{2026, time.December, 31}}},
		{"location status", Filter{LocationID: 1, StatusID: 2}},
		{"location status scheduled", Filter{LocationID: 1, StatusID: 2, Scheduled: &yes}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := List(ctx, d, c.f, 30, 60); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPrepareAfterBooking is the read side of a create under a stream of creates: Prepare
// of a haircut with provider 1 right after another booking of provider 1 was written (untimed),
// which moves that provider's bookings counter. Provider 1 also has time off and calendar busy
// time on the weekends around, which no booking changes.
func BenchmarkPrepareAfterBooking(b *testing.B) {
	d := benchStore(b)
	ctx := context.Background()
	zone, _ := LoadZone("America/Santiago")
	monday := time.Date(2027, time.January, 4, 0, 0, 0, 0, zone)
	exec := func(q string, args ...any) {
		b.Helper()
		if _, err := d.Write.Exec(q, args...); err != nil {
			b.Fatal(err)
		}
	}
	exec(`UPDATE company SET max_advance_days = 0`)
	exec(`INSERT INTO calendar_connections (id, provider_id, kind, url, created_at, updated_at)
		VALUES (1, 1, 'ics', 'https://calendar.example/p1.ics', 0, 0)`)
	for week := range 60 {
		saturday := monday.AddDate(0, 0, 7*week+5)
		exec(`INSERT INTO provider_time_off (provider_id, starts_at, ends_at) VALUES (1, ?, ?)`,
			db.Millis(saturday), db.Millis(saturday.AddDate(0, 0, 1)))
		sunday := saturday.AddDate(0, 0, 1)
		for h := 9; h < 17; h += 2 {
			exec(`INSERT INTO calendar_busy (connection_id, provider_id, starts_at, ends_at) VALUES (1, 1, ?, ?)`,
				db.Millis(sunday.Add(time.Duration(h)*time.Hour)), db.Millis(sunday.Add(time.Duration(h+1)*time.Hour)))
		}
	}
	slot := func(i int) NewBooking { // provider 1's free hours, weekdays from 2027-01-04 on
		hour, weekday, week := i%8, i/8%5, i/40
		if hour >= 4 {
			hour++ // skip the 13:00 break
		}
		return haircut(1, monday.AddDate(0, 0, 7*week+weekday).Add(time.Duration(9+hour)*time.Hour))
	}
	i := 0
	if _, err := Prepare(ctx, d, storeNow, slot(0)); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		if _, err := Create(ctx, d, storeNow, slot(i)); err != nil {
			b.Fatalf("booking %d: %v", i, err)
		}
		i++
		b.StartTimer()
		if _, err := Prepare(ctx, d, storeNow, slot(i)); err != nil {
			b.Fatalf("prepare %d: %v", i, err)
		}
	}
}
