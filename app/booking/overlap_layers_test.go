package booking

import (
	"context"
	"errors"
	"testing"
	"time"

	"frontdesk/db"
)

// No double booking rests on two layers that each must hold on its own (docs/api.md, "No
// double booking"): the overlap check inside the write transaction (checkFree) and the
// database triggers. With both in place either one hides the other's absence, so each is
// pinned here with the other taken away. The owner's flow (SourceAdmin) has no read-side check
// at all, so these writes reach the transaction with nothing else in the way.

// dropOverlapTriggers removes the database layer from a test database.
func dropOverlapTriggers(t *testing.T, d *db.DB) {
	t.Helper()
	for _, name := range []string{"bookings_no_overlap_insert", "bookings_no_overlap_update"} {
		if _, err := d.Write.Exec(`DROP TRIGGER IF EXISTS ` + name); err != nil {
			t.Fatalf("drop %s: %v", name, err)
		}
	}
}

// ownerBooking is an owner's booking of service 1 (30 min + 10 after) for provider 1.
func ownerBooking(t *testing.T, start string) NewBooking {
	return NewBooking{LocationID: 1, ServiceID: 1, ProviderID: 1, ClientID: 1, StatusID: StatusConfirmed,
		Start: santiago(t, start), Source: SourceAdmin}
}

// overlappingPairs counts pairs of overlapping live blocks of one provider: the invariant itself.
func overlappingPairs(t *testing.T, d *db.DB) int {
	t.Helper()
	var n int
	err := d.Read.QueryRow(`SELECT count(*) FROM bookings a JOIN bookings b ON a.id < b.id AND a.provider_id = b.provider_id
		WHERE a.status_id <> 5 AND b.status_id <> 5 AND a.block_start_at < b.block_end_at AND b.block_start_at < a.block_end_at`).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestOverlapCheckInTransactionHoldsAlone: without the triggers, the in-transaction check still
// refuses every overlapping write — a create, a reschedule, and a create inside a caller's
// transaction (payment requests). Fails if any of the three checkFree calls is removed.
func TestOverlapCheckInTransactionHoldsAlone(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 2)
	dropOverlapTriggers(t, d)

	if _, err := Create(ctx, d, storeNow, ownerBooking(t, "2026-11-24 10:00")); err != nil {
		t.Fatal(err)
	}
	// A create whose block (10:15–10:55) meets 10:00–10:40.
	if _, err := Create(ctx, d, storeNow, ownerBooking(t, "2026-11-24 10:15")); !errors.Is(err, ErrSlotUnavailable) {
		t.Errorf("overlapping create: got %v, want ErrSlotUnavailable", err)
	}
	// Touching the buffer's end is fine.
	later, err := Create(ctx, d, storeNow, ownerBooking(t, "2026-11-24 10:40"))
	if err != nil {
		t.Fatalf("create after the buffer: %v", err)
	}
	// A reschedule onto the first booking.
	moved := santiago(t, "2026-11-24 10:05")
	if _, err := Update(ctx, d, storeNow, later.Booking.ID, Change{Start: &moved}, SourceAdmin); !errors.Is(err, ErrSlotUnavailable) {
		t.Errorf("overlapping reschedule: got %v, want ErrSlotUnavailable", err)
	}
	// A create inside the caller's transaction.
	err = d.InTx(ctx, func(q *db.Queries) error {
		_, err := Create(db.WithTx(ctx, q), d, storeNow, ownerBooking(t, "2026-11-24 09:45"))
		return err
	})
	if !errors.Is(err, ErrSlotUnavailable) {
		t.Errorf("overlapping create in a transaction: got %v, want ErrSlotUnavailable", err)
	}
	if n := overlappingPairs(t, d); n != 0 {
		t.Fatalf("%d overlapping pairs with only the in-transaction check, want 0", n)
	}
	// A different provider at the same time is not an overlap.
	other := ownerBooking(t, "2026-11-24 10:00")
	other.ProviderID = 2
	if _, err := Create(ctx, d, storeNow, other); err != nil {
		t.Fatalf("another provider: %v", err)
	}
}

// TestOverlapCheckInTransactionUnderConcurrency: with the triggers gone, 30 owners booking the
// same provider at overlapping times at once get exactly one booking; the read of one cannot
// see the others, only the check inside the single writer's transaction can.
func TestOverlapCheckInTransactionUnderConcurrency(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 1)
	dropOverlapTriggers(t, d)
	const racers = 30
	errs := make(chan error, racers)
	start := make(chan struct{})
	for i := range racers {
		go func() {
			<-start
			nb := ownerBooking(t, "2026-11-24 10:00")
			nb.Start = nb.Start.Add(time.Duration(i%10) * time.Minute)
			_, err := Create(ctx, d, storeNow, nb)
			errs <- err
		}()
	}
	close(start)
	won := 0
	for range racers {
		switch err := <-errs; {
		case err == nil:
			won++
		case !errors.Is(err, ErrSlotUnavailable):
			t.Errorf("racer: %v", err)
		}
	}
	if won != 1 || overlappingPairs(t, d) != 0 {
		t.Fatalf("%d winners, %d overlapping pairs; want 1 and 0", won, overlappingPairs(t, d))
	}
}

// TestOverlapTriggerHoldsAlone: a write that skips the in-transaction check — the insert and
// update statements the booking code runs, issued directly as another code path might — is
// still refused by the triggers, and the refusal reads as ErrSlotUnavailable. Fails if either
// trigger is dropped.
func TestOverlapTriggerHoldsAlone(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 1)
	b, err := Create(ctx, d, storeNow, ownerBooking(t, "2026-11-24 10:00"))
	if err != nil {
		t.Fatal(err)
	}
	row := db.InsertBookingParams{
		LocationID: 1, ServiceID: 1, ProviderID: 1, ClientID: 1, StatusID: StatusConfirmed,
		StartAt: b.Booking.StartAt + 15*60_000, EndAt: b.Booking.EndAt + 15*60_000, BlockStartAt: b.Booking.BlockStartAt + 15*60_000, BlockEndAt: b.Booking.BlockEndAt + 15*60_000,
		Source: SourceAdmin, CreatedAt: 1, UpdatedAt: 1,
	}
	err = d.InTx(ctx, func(q *db.Queries) error {
		_, err := q.InsertBooking(ctx, row)
		return writeError(err)
	})
	if !errors.Is(err, ErrSlotUnavailable) {
		t.Errorf("insert without the check: got %v, want ErrSlotUnavailable from the trigger", err)
	}
	row.StartAt, row.EndAt, row.BlockStartAt, row.BlockEndAt = b.Booking.BlockEndAt, b.Booking.BlockEndAt+30*60_000, b.Booking.BlockEndAt, b.Booking.BlockEndAt+40*60_000
	var second db.Booking
	if err := d.InTx(ctx, func(q *db.Queries) (err error) { second, err = insertBooking(ctx, q, row); return err }); err != nil {
		t.Fatalf("insert after the block: %v", err)
	}
	next := rowParams(second)
	next.StartAt, next.BlockStartAt = b.Booking.StartAt+5*60_000, b.Booking.StartAt+5*60_000
	err = d.InTx(ctx, func(q *db.Queries) error { return writeError(q.UpdateBookingRow(ctx, next)) })
	if !errors.Is(err, ErrSlotUnavailable) {
		t.Errorf("update without the check: got %v, want ErrSlotUnavailable from the trigger", err)
	}
	if n := overlappingPairs(t, d); n != 0 {
		t.Fatalf("%d overlapping pairs with only the triggers, want 0", n)
	}
}
