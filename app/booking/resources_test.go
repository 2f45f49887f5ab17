package booking

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"frontdesk/db"
)

// withBeds adds resource 1, "Massage bed", two of them at location 1, and makes service 1 require
// it.
func withBeds(t *testing.T, d *db.DB) {
	t.Helper()
	for _, q := range []string{
		`INSERT INTO resources (id, location_id, name, kind, quantity, created_at, updated_at) VALUES (1, 1, 'Massage bed', 'equipment', 2, 1, 1)`,
		`INSERT INTO service_resources (service_id, resource_id) VALUES (1, 1)`,
	} {
		if _, err := d.Write.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
}

// mostBedsAtOnce is the SQL sweep over the bookings themselves (not their holds): the most live
// bookings of service 1 at location 1 whose blocks cover one instant.
func mostBedsAtOnce(t *testing.T, d *db.DB) int {
	t.Helper()
	var n int
	err := d.Read.QueryRow(`SELECT coalesce(max(c), 0) FROM (
		SELECT (SELECT count(*) FROM bookings b WHERE b.service_id = 1 AND b.location_id = 1 AND b.status_id <> 5
			AND b.block_start_at <= a.block_start_at AND b.block_end_at > a.block_start_at) AS c
		FROM bookings a WHERE a.service_id = 1 AND a.location_id = 1 AND a.status_id <> 5)`).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// dropResourceTriggers removes the database's capacity refusal.
func dropResourceTriggers(t *testing.T, d *db.DB) {
	t.Helper()
	for _, name := range []string{"booking_resources_capacity_insert", "booking_resources_capacity_update"} {
		if _, err := d.Write.Exec(`DROP TRIGGER ` + name); err != nil {
			t.Fatal(err)
		}
	}
}

// raceBeds books 100 racers at once over three therapists and overlapping times, half through
// the customer flow and half as the owner, and returns the winners.
func raceBeds(t *testing.T, d *db.DB) int {
	t.Helper()
	ctx := context.Background()
	const racers = 100
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	start := make(chan struct{})
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			nb := haircut(int64(i%3+1), santiago(t, "2026-11-24 10:00").Add(time.Duration(i/3%4)*15*time.Minute))
			if i%2 == 1 {
				nb.Source = SourceAdmin
			}
			_, err := Create(ctx, d, storeNow, nb)
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
	close(start)
	wg.Wait()
	return won
}

// TestResourceRacersNeverExceedQuantity: two beds and three therapists, 100 racers at
// overlapping times: never a third booking on a bed at one instant, and both beds are used.
func TestResourceRacersNeverExceedQuantity(t *testing.T) {
	d := openStore(t, 3)
	withBeds(t, d)
	won := raceBeds(t, d)
	if most := mostBedsAtOnce(t, d); most != 2 {
		t.Fatalf("%d winners; at most %d bookings on the beds at once, want exactly 2", won, most)
	}
	wantNoOverlaps(t, d)
}

// TestResourceCheckInTransactionHoldsAlone: without the database's refusal, the check inside the
// write transaction alone keeps 100 racers within the two beds. Fails without checkResources.
func TestResourceCheckInTransactionHoldsAlone(t *testing.T) {
	d := openStore(t, 3)
	withBeds(t, d)
	dropResourceTriggers(t, d)
	won := raceBeds(t, d)
	if most := mostBedsAtOnce(t, d); most != 2 {
		t.Fatalf("%d winners; at most %d bookings on the beds at once, want exactly 2", won, most)
	}
}

// TestResourceTriggerHoldsAlone: an insert or update of a booking straight into the table,
// bypassing the engine and its checks, is refused by the database once it would put a third
// booking on the two beds; bookings that fit are written with their holds.
func TestResourceTriggerHoldsAlone(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 3)
	withBeds(t, d)
	at := santiago(t, "2026-11-24 10:00")
	row := func(provider int64, start time.Time) db.InsertBookingParams {
		return db.InsertBookingParams{
			LocationID: 1, ServiceID: 1, ProviderID: provider, ClientID: 1, StatusID: StatusConfirmed,
			StartAt: db.Millis(start), EndAt: db.Millis(start.Add(30 * time.Minute)),
			BlockStartAt: db.Millis(start), BlockEndAt: db.Millis(start.Add(40 * time.Minute)),
			Source: SourceAdmin, CreatedAt: 1, UpdatedAt: 1,
		}
	}
	insert := func(p db.InsertBookingParams) (db.Booking, error) {
		var b db.Booking
		err := d.InTx(ctx, func(q *db.Queries) (err error) {
			b, err = insertBooking(ctx, q, p)
			return err
		})
		return b, err
	}
	if _, err := insert(row(1, at)); err != nil {
		t.Fatal(err)
	}
	if _, err := insert(row(2, at.Add(20*time.Minute))); err != nil {
		t.Fatal(err)
	}
	// 10:30–11:10 meets both (10:00–10:40 and 10:20–11:00): a third bed.
	if _, err := insert(row(3, at.Add(30*time.Minute))); !errors.Is(err, ErrSlotUnavailable) {
		t.Fatalf("third concurrent insert: got %v, want the trigger's refusal", err)
	}
	// 10:40–11:20 meets only the second: fits.
	third, err := insert(row(3, at.Add(40*time.Minute)))
	if err != nil {
		t.Fatalf("insert beside one hold: %v", err)
	}
	var holds int
	if err := d.Read.QueryRow(`SELECT count(*) FROM booking_resources WHERE resource_id = 1 AND live`).Scan(&holds); err != nil || holds != 3 {
		t.Fatalf("%d live holds (%v), want 3: every booking holds the bed", holds, err)
	}
	// Moving it straight in the table to 10:30 is refused; cancelling it frees its hold.
	next := rowParams(third)
	next.StartAt, next.BlockStartAt = db.Millis(at.Add(25*time.Minute)), db.Millis(at.Add(25*time.Minute))
	if err := d.InTx(ctx, func(q *db.Queries) error {
		if err := q.UpdateBookingRow(ctx, next); err != nil {
			return writeError(err)
		}
		return nil
	}); !errors.Is(err, ErrSlotUnavailable) {
		t.Fatalf("update into a third bed: got %v, want the trigger's refusal", err)
	}
	if err := Cancel(ctx, d, storeNow, third.ID, SourceAdmin); err != nil {
		t.Fatal(err)
	}
	if _, err := insert(row(3, at.Add(30*time.Minute))); !errors.Is(err, ErrSlotUnavailable) {
		t.Fatalf("still two at 10:30–10:40: got %v", err)
	}
	if _, err := insert(row(3, at.Add(40*time.Minute))); err != nil {
		t.Fatalf("the cancelled booking's bed: %v", err)
	}
	if most := mostBedsAtOnce(t, d); most > 2 {
		t.Fatalf("%d bookings on the beds at once", most)
	}
}

// TestResourceSlotsAndExplain: with both beds held at 10:00, the third therapist is free but
// not offered 10:00, and the explainer names the bed.
func TestResourceSlotsAndExplain(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 3)
	withBeds(t, d)
	at := santiago(t, "2026-11-24 10:00")
	for p := int64(1); p <= 2; p++ {
		if _, err := Create(ctx, d, storeNow, haircut(p, at)); err != nil {
			t.Fatal(err)
		}
	}
	day := DateOf(at)
	l, err := LoadScheduleCached(ctx, d, ScheduleQuery{LocationID: 1, ServiceID: 1, First: day, Last: day})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range Slots(l.Schedule, day, day, storeNow) {
		if s.ProviderID == 3 && s.Start.Before(at.Add(40*time.Minute)) && at.Before(s.End.Add(10*time.Minute)) {
			t.Fatalf("offered %s with both beds taken", s.Start)
		}
	}
	r := Explain(l.Schedule, 3, at, storeNow)
	if r.Code != ReasonResource || !strings.Contains(r.Message, "Massage bed") {
		t.Fatalf("explain: %+v, want resource naming the bed", r)
	}
	if r := Explain(l.Schedule, 3, at.Add(45*time.Minute), storeNow); r.Code != ReasonOK {
		t.Fatalf("explain after the holds: %+v", r)
	}
	_, err = Create(ctx, d, storeNow, haircut(3, at))
	var taken *ResourceTakenError
	if !errors.As(err, &taken) || taken.Name != "Massage bed" || !errors.Is(err, ErrSlotUnavailable) {
		t.Fatalf("customer booking of a third bed: %v", err)
	}
	// Without the requirement, the same time is offered (the catalog cache notices).
	if _, err := d.Write.Exec(`DELETE FROM service_resources`); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(ctx, d, storeNow, haircut(3, at)); err != nil {
		t.Fatalf("no longer requiring the bed: %v", err)
	}
}
