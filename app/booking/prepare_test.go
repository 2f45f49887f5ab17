package booking

import (
	"context"
	"errors"
	"testing"

	"frontdesk/db"
)

// TestBookTakesTheFirstCandidateStillFree: Prepare lists, on the read pool, the providers free
// for anyone available in id order; a booking that takes the first of them before Book commits
// leaves Book the next one, found by the overlap check inside the transaction alone — Book loads
// no schedule there — and once every candidate is taken Book is refused, writing nothing.
func TestBookTakesTheFirstCandidateStillFree(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 2)
	start := santiago(t, "2026-11-24 10:00")
	anyone := NewBooking{LocationID: 1, ServiceID: 1, ClientID: 1, StatusID: StatusConfirmed, Start: start, Source: SourceOnline}
	p, err := Prepare(ctx, d, storeNow, anyone)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Create(ctx, d, storeNow, haircut(1, start)); err != nil { // provider 1 goes first
		t.Fatal(err)
	}
	_, inWriter := ScheduleLoads()
	v, err := Book(ctx, d, storeNow, p)
	if err != nil {
		t.Fatal(err)
	}
	if v.Booking.ProviderID != 2 || v.ProviderName != "P2" {
		t.Errorf("anyone booked provider %d (%s), want 2, the first still free", v.Booking.ProviderID, v.ProviderName)
	}
	if _, after := ScheduleLoads(); after != inWriter {
		t.Errorf("Book loaded %d schedules inside the write transaction, want none", after-inWriter)
	}
	if _, err := Book(ctx, d, storeNow, p); !errors.Is(err, ErrSlotUnavailable) {
		t.Errorf("Book with every candidate taken: got %v, want ErrSlotUnavailable", err)
	}
	var n int
	if err := d.Read.QueryRow(`SELECT count(*) FROM bookings`).Scan(&n); err != nil || n != 2 {
		t.Errorf("%d bookings (%v), want 2", n, err)
	}
}

// TestCreateJoinsTheCallersTransaction: Create called inside another write (db.WithTx) reads
// through that transaction — a client created there a moment ago is bookable, a booking it
// cancelled frees the time — and commits with it: when the caller fails, nothing is left.
func TestCreateJoinsTheCallersTransaction(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 1)
	start := santiago(t, "2026-11-24 10:00")
	first, err := Create(ctx, d, storeNow, haircut(1, start))
	if err != nil {
		t.Fatal(err)
	}
	failed := errors.New("the caller fails")
	write := func(fail bool) error {
		return d.InTx(ctx, func(q *db.Queries) error {
			jctx := db.WithTx(ctx, q)
			c, err := q.CreateClient(ctx, db.CreateClientParams{FirstName: "Nueva", Active: true, CreatedAt: 1, UpdatedAt: 1})
			if err != nil {
				return err
			}
			if err := Release(jctx, d, storeNow, first.Booking.ID); err != nil {
				return err
			}
			nb := haircut(1, start)
			nb.ClientID = c.ID
			if _, err := Create(jctx, d, storeNow, nb); err != nil {
				return err
			}
			if fail {
				return failed
			}
			return nil
		})
	}
	if err := write(true); !errors.Is(err, failed) {
		t.Fatalf("failing caller: got %v", err)
	}
	var n int
	if err := d.Read.QueryRow(`SELECT count(*) FROM bookings WHERE status_id <> 5`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("after a failed caller: %d live bookings (%v), want the first only", n, err)
	}
	if err := write(false); err != nil {
		t.Fatal(err)
	}
	if err := d.Read.QueryRow(`SELECT count(*) FROM bookings b JOIN clients c ON c.id = b.client_id WHERE b.status_id <> 5 AND c.first_name = 'Nueva'`).Scan(&n); err != nil || n != 1 {
		t.Errorf("%d live bookings of the new client (%v), want 1", n, err)
	}
}
