package booking

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"frontdesk/db"
)

// withVisitServices adds service 3 "Colour", 90 min with 45 min of processing after its first
// 30, and service 4 "Scalp massage", 15 min, an add-on of the haircut (service 1); providers
// 1…n offer both.
func withVisitServices(t testing.TB, d *db.DB, providers int) {
	t.Helper()
	ms := db.Millis(storeNow)
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := d.Write.Exec(q, args...); err != nil {
			t.Fatalf("seed: %v\n%s", err, q)
		}
	}
	exec(`INSERT INTO services (id, uuid, name, price_cents, duration_min, online_booking, created_at, updated_at)
		VALUES (3, 's3', 'Colour', 4000000, 90, 1, ?, ?), (4, 's4', 'Scalp massage', 500000, 15, 1, ?, ?)`, ms, ms, ms, ms)
	exec(`INSERT INTO service_processing (service_id, after_min, processing_min) VALUES (3, 30, 45)`)
	exec(`INSERT INTO service_addons (service_id, addon_id) VALUES (1, 4)`)
	for p := 1; p <= providers; p++ {
		exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (3, ?), (4, ?)`, p, p)
	}
}

// visitIsWhole checks that every visit has all its bookings, live: n each.
func visitIsWhole(t *testing.T, d *db.DB, n int) (visits int) {
	t.Helper()
	rows, err := d.Read.Query(`SELECT v.id, count(vb.booking_id), coalesce(sum(b.status_id <> 5), 0)
		FROM visits v LEFT JOIN visit_bookings vb ON vb.visit_id = v.id LEFT JOIN bookings b ON b.id = vb.booking_id GROUP BY v.id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, parts, live int
		if err := rows.Scan(&id, &parts, &live); err != nil {
			t.Fatal(err)
		}
		if parts != n || live != n {
			t.Errorf("visit %d has %d bookings, %d live; want %d and %d", id, parts, live, n, n)
		}
		visits++
	}
	var loose int
	if err := d.Read.QueryRow(`SELECT count(*) FROM bookings WHERE id NOT IN (SELECT booking_id FROM visit_bookings)`).Scan(&loose); err != nil || loose != 0 {
		t.Errorf("%d bookings outside any visit (%v)", loose, err)
	}
	return visits
}

// TestVisitRacersNeverOverlap: 50 clients book haircut-then-colour visits at once on the same
// two providers at overlapping times, half naming the providers and half taking anyone, half
// through the customer flow and half as the owner: no two live blocks of a provider overlap,
// and every visit booked has all three of its bookings.
func TestVisitRacersNeverOverlap(t *testing.T) {
	d := openStore(t, 2)
	withVisitServices(t, d, 2)
	ctx := context.Background()
	const racers = 50
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	begin := make(chan struct{})
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-begin
			first, second := int64(i%2+1), int64((i+1)%2+1)
			if i%4 == 3 {
				first, second = 0, 0
			}
			nv := NewVisit{LocationID: 1, ClientID: 1, StatusID: StatusConfirmed, Source: SourceConnect,
				Start:    santiago(t, "2026-11-24 10:00").Add(time.Duration(i%5) * 15 * time.Minute),
				Segments: []VisitSegment{{ServiceID: 1, ProviderID: first}, {ServiceID: 3, ProviderID: second}}}
			if i%2 == 1 {
				nv.Source = SourceAdmin
			}
			_, err := BookVisit(ctx, d, storeNow, nv)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				won++
			case !errors.Is(err, ErrSlotUnavailable):
				t.Errorf("racer %d: %v", i, err)
			}
		}()
	}
	close(begin)
	wg.Wait()
	wantNoOverlaps(t, d)
	if n := visitIsWhole(t, d, 3); n != won || won == 0 {
		t.Fatalf("%d visits stored, %d winners", n, won)
	}
}

// TestVisitProcessingGap: a colour's processing time leaves its provider free for another
// booking that fits in the gap, and for nothing that reaches past it.
func TestVisitProcessingGap(t *testing.T) {
	d := openStore(t, 1)
	withVisitServices(t, d, 1)
	ctx := context.Background()
	at := santiago(t, "2026-11-24 10:00")
	v, err := BookVisit(ctx, d, storeNow, NewVisit{LocationID: 1, ClientID: 1, StatusID: StatusConfirmed, Source: SourceConnect,
		Start: at, Segments: []VisitSegment{{ServiceID: 3, ProviderID: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Bookings) != 2 || !v.End.Equal(at.Add(90*time.Minute)) || v.PriceCents != 4000000 {
		t.Fatalf("visit: %d bookings, ends %s, costs %d; want 2, 11:30, 4000000", len(v.Bookings), v.End, v.PriceCents)
	}
	// The haircut's block (30 min + 10 after) fits 10:30–11:15 from 10:30 and from 10:35.
	day := DateOf(at)
	l, err := LoadScheduleCached(ctx, d, ScheduleQuery{LocationID: 1, ServiceID: 1, First: day, Last: day})
	if err != nil {
		t.Fatal(err)
	}
	offered := map[string]bool{}
	for _, s := range Slots(l.Schedule, day, day, storeNow) {
		offered[s.Start.Format("15:04")] = true
	}
	if !offered["10:30"] || offered["10:15"] || offered["10:45"] || offered["11:00"] || offered["11:15"] {
		t.Fatalf("haircut offered %v; want 10:30 in the gap and nothing else from 10:15 to 11:15", offered)
	}
	if _, err := Create(ctx, d, storeNow, haircut(1, at.Add(45*time.Minute))); !errors.Is(err, ErrSlotUnavailable) {
		t.Fatalf("a haircut reaching past the processing: %v, want ErrSlotUnavailable", err)
	}
	if _, err := Create(ctx, d, storeNow, haircut(1, at.Add(30*time.Minute))); err != nil {
		t.Fatalf("a haircut in the processing gap: %v", err)
	}
	wantNoOverlaps(t, d)
}

// TestVisitAddOnsMoveCancel: an add-on follows its service with the same provider and adds to
// the price; moving the visit moves every booking, a move onto a taken time moves none, and
// cancelling cancels them all.
func TestVisitAddOnsMoveCancel(t *testing.T) {
	d := openStore(t, 2)
	withVisitServices(t, d, 2)
	ctx := context.Background()
	at := santiago(t, "2026-11-24 10:00")
	slots, err := VisitSlots(ctx, d, storeNow, 1, []VisitSegment{{ServiceID: 1, AddOns: []int64{4}}, {ServiceID: 3}}, DateOf(at), DateOf(at), SourceConnect)
	if err != nil || len(slots) == 0 {
		t.Fatalf("visit slots: %d, %v", len(slots), err)
	}
	v, err := BookVisit(ctx, d, storeNow, NewVisit{LocationID: 1, ClientID: 1, StatusID: StatusConfirmed, Source: SourceConnect,
		Start: at, Segments: []VisitSegment{{ServiceID: 1, ProviderID: 2, AddOns: []int64{4}}, {ServiceID: 3}}})
	if err != nil {
		t.Fatal(err)
	}
	b := v.Bookings
	if len(b) != 4 || b[1].Booking.ServiceID != 4 || b[1].Booking.ProviderID != 2 || b[1].Booking.StartAt != b[0].Booking.EndAt {
		t.Fatalf("bookings %+v: want haircut, its add-on right after with provider 2, colour in two", b)
	}
	if v.PriceCents != 1350000+500000+4000000 || !v.End.Equal(at.Add((30+15+90)*time.Minute)) {
		t.Fatalf("visit costs %d and ends %s", v.PriceCents, v.End)
	}
	if _, err := BookVisit(ctx, d, storeNow, NewVisit{LocationID: 1, ClientID: 1, StatusID: StatusConfirmed, Source: SourceConnect,
		Start: at, Segments: []VisitSegment{{ServiceID: 3, AddOns: []int64{4}}}}); err == nil {
		t.Fatal("an add-on not declared for the service was accepted")
	}
	// Another booking of provider 2 at 13:00 (after the break, 14:00) blocks a move there.
	if _, err := Create(ctx, d, storeNow, haircut(2, santiago(t, "2026-11-24 14:00"))); err != nil {
		t.Fatal(err)
	}
	if _, err := MoveVisit(ctx, d, storeNow, v.ID, santiago(t, "2026-11-24 14:00"), SourceConnect); !errors.Is(err, ErrSlotUnavailable) {
		t.Fatalf("move onto a taken time: %v", err)
	}
	moved, err := MoveVisit(ctx, d, storeNow, v.ID, at.Add(15*time.Minute), SourceConnect)
	if err != nil {
		t.Fatal(err)
	}
	for i := range moved.Bookings {
		if got, want := moved.Bookings[i].Booking.StartAt, b[i].Booking.StartAt+15*60_000; got != want {
			t.Fatalf("booking %d starts at %d after the move, want %d", i, got, want)
		}
	}
	if err := CancelVisit(ctx, d, storeNow, v.ID, SourceConnect); err != nil {
		t.Fatal(err)
	}
	after, err := GetVisit(ctx, d.R, v.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range after.Bookings {
		if x.Booking.StatusID != StatusCancelled {
			t.Fatalf("booking %d still live after cancelling the visit", x.Booking.ID)
		}
	}
	wantNoOverlaps(t, d)
}

// TestVisitProcessingHoldsResource: a colour (processing 10:30–11:15) requires the one colour
// chair. Its provider is free in the gap — a haircut with Ana fits there — but the chair is
// not: the slot engine offers no scalp massage (which needs the chair too) in the gap, the
// write check refuses one booked there, and so does the database on an insert that skips
// both; nor can a second colour's visit start in the gap. A massage after the colour is fine.
// Moving the visit takes the chair's hold with it.
func TestVisitProcessingHoldsResource(t *testing.T) {
	d := openStore(t, 2)
	withVisitServices(t, d, 2)
	ctx := context.Background()
	for _, q := range []string{
		`INSERT INTO resources (id, location_id, name, kind, quantity, created_at, updated_at) VALUES (1, 1, 'Colour chair', 'equipment', 1, 1, 1)`,
		`INSERT INTO service_resources (service_id, resource_id) VALUES (3, 1), (4, 1)`,
	} {
		if _, err := d.Write.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	at := santiago(t, "2026-11-24 10:00")
	v, err := BookVisit(ctx, d, storeNow, NewVisit{LocationID: 1, ClientID: 1, StatusID: StatusConfirmed, Source: SourceConnect,
		Start: at, Segments: []VisitSegment{{ServiceID: 3, ProviderID: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	massage := func(provider int64, start time.Time) NewBooking {
		return NewBooking{LocationID: 1, ServiceID: 4, ProviderID: provider, ClientID: 1, StatusID: StatusConfirmed, Start: start, Source: SourceConnect}
	}

	// The engine: no massage with Ben from 10:00 to 12:00; one at 12:00.
	day := DateOf(at)
	l, err := LoadScheduleCached(ctx, d, ScheduleQuery{LocationID: 1, ServiceID: 4, First: day, Last: day})
	if err != nil {
		t.Fatal(err)
	}
	offered := map[string]bool{}
	for _, s := range Slots(l.Schedule, day, day, storeNow) {
		if s.ProviderID == 2 {
			offered[s.Start.Format("15:04")] = true
		}
	}
	if offered["10:30"] || offered["10:45"] || offered["11:00"] || !offered["12:00"] {
		t.Fatalf("massage with Ben offered %v; want nothing in the processing (10:30–11:15) and 12:00", offered)
	}
	// The write check.
	if _, err := Create(ctx, d, storeNow, massage(2, at.Add(45*time.Minute))); !errors.Is(err, ErrSlotUnavailable) {
		t.Fatalf("a massage on the chair during the processing: %v, want ErrSlotUnavailable", err)
	}
	// Another visit's colour starting in the gap.
	if _, err := BookVisit(ctx, d, storeNow, NewVisit{LocationID: 1, ClientID: 1, StatusID: StatusConfirmed, Source: SourceConnect,
		Start: at.Add(30 * time.Minute), Segments: []VisitSegment{{ServiceID: 3, ProviderID: 2}}}); !errors.Is(err, ErrSlotUnavailable) {
		t.Fatalf("a second colour in the processing: %v, want ErrSlotUnavailable", err)
	}
	// The database alone.
	gap := at.Add(45 * time.Minute)
	err = d.InTx(ctx, func(q *db.Queries) error {
		_, err := q.InsertBooking(ctx, db.InsertBookingParams{
			LocationID: 1, ServiceID: 4, ProviderID: 2, ClientID: 1, StatusID: StatusConfirmed,
			StartAt: db.Millis(gap), EndAt: db.Millis(gap.Add(15 * time.Minute)),
			BlockStartAt: db.Millis(gap), BlockEndAt: db.Millis(gap.Add(15 * time.Minute)),
			Source: SourceAdmin, CreatedAt: 1, UpdatedAt: 1,
		})
		return writeError(err)
	})
	if !errors.Is(err, ErrSlotUnavailable) {
		t.Fatalf("an insert on the chair during the processing: %v, want the trigger's refusal", err)
	}
	// The provider is free in the gap; the chair is free after the colour.
	if _, err := Create(ctx, d, storeNow, haircut(1, at.Add(30*time.Minute))); err != nil {
		t.Fatalf("a haircut with Ana in the processing gap: %v", err)
	}
	if _, err := Create(ctx, d, storeNow, massage(2, at.Add(120*time.Minute))); err != nil {
		t.Fatalf("a massage after the colour: %v", err)
	}
	// Moving the visit a day later frees the chair in the old gap and holds it in the new one.
	if _, err := MoveVisit(ctx, d, storeNow, v.ID, at.Add(24*time.Hour), SourceAdmin); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(ctx, d, storeNow, massage(2, gap)); err != nil {
		t.Fatalf("a massage in the old gap after the move: %v", err)
	}
	if _, err := Create(ctx, d, storeNow, massage(2, gap.Add(24*time.Hour))); !errors.Is(err, ErrSlotUnavailable) {
		t.Fatalf("a massage in the moved gap: %v, want ErrSlotUnavailable", err)
	}
}

// TestVisitAnyoneRetriesAnotherProvider: 20 racers book a haircut visit with "anyone" at the
// same time over two providers. Each reads both free and takes the first; the ones that lose
// the write to the first provider are laid out again on what is stored and get the second, so
// both providers are booked once and every other racer is refused.
func TestVisitAnyoneRetriesAnotherProvider(t *testing.T) {
	d := openStore(t, 2)
	withVisitServices(t, d, 2)
	ctx := context.Background()
	const racers = 20
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := map[int64]int{}
	begin := make(chan struct{})
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-begin
			v, err := BookVisit(ctx, d, storeNow, NewVisit{LocationID: 1, ClientID: 1, StatusID: StatusConfirmed, Source: SourceConnect,
				Start: santiago(t, "2026-11-24 10:00"), Segments: []VisitSegment{{ServiceID: 1}}})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				won[v.Bookings[0].Booking.ProviderID]++
			case !errors.Is(err, ErrSlotUnavailable):
				t.Errorf("racer %d: %v", i, err)
			}
		}()
	}
	close(begin)
	wg.Wait()
	wantNoOverlaps(t, d)
	if won[1] != 1 || won[2] != 1 || len(won) != 2 {
		t.Fatalf("visits won per provider %v; want one each for providers 1 and 2", won)
	}
}
