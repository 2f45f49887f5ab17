package booking

import (
	"context"
	"errors"
	"testing"
)

// A create's placement looks first at the provider's bookings as last kept (place, recent). A
// kept reading that shows the time taken by a booking cancelled since never turns the booking
// away: the current bookings decide.
func TestRecentBookingsNeverRefuseAFreeTime(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 1)
	first, err := Create(ctx, d, storeNow, haircut(1, santiago(t, "2026-11-24 10:00")))
	if err != nil {
		t.Fatal(err)
	}
	// A placement on the current bookings keeps provider 1's, with the 10:00 one.
	if _, err := placeWith(ctx, d, storeNow, haircut(1, santiago(t, "2026-11-24 12:00")).placement(), SourceConnect, 0, false); err != nil {
		t.Fatal(err)
	}
	if err := Cancel(ctx, d, storeNow, first.Booking.ID, SourceConnect); err != nil {
		t.Fatal(err)
	}
	pl, err := placeWith(ctx, d, storeNow, haircut(1, santiago(t, "2026-11-24 10:00")).placement(), SourceConnect, 0, true)
	if !errors.Is(err, errLookAgain) {
		t.Fatalf("placement on the kept bookings: %v (stale %v), want errLookAgain: the test no longer sees a kept reading", err, pl.loaded.staleBookings)
	}
	if _, err := Create(ctx, d, storeNow, haircut(1, santiago(t, "2026-11-24 10:00"))); err != nil {
		t.Fatalf("the cancelled booking's time: %v, want booked", err)
	}
}

// A first look that misses a booking lets the placement through, and the write transaction
// refuses it: no overlap, ErrSlotUnavailable, as a race lost. It misses it on a kept reading
// from before it, and when nothing is kept (the bookings are not read for a first look).
func TestRecentBookingsAreCheckedInTheWriter(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 1)
	at := haircut(1, santiago(t, "2026-11-24 10:00"))
	if _, err := placeWith(ctx, d, storeNow, at.placement(), SourceConnect, 0, false); err != nil { // keeps the bookings
		t.Fatal(err)
	}
	if _, err := Create(ctx, d, storeNow, at); err != nil {
		t.Fatal(err)
	}
	pl, err := placeWith(ctx, d, storeNow, at.placement(), SourceConnect, 0, true)
	if err != nil || !pl.loaded.staleBookings {
		t.Fatalf("placement on the kept bookings: %v, stale %v; want it through on a stale reading", err, pl.loaded.staleBookings)
	}
	if _, err := Create(ctx, d, storeNow, at); !errors.Is(err, ErrSlotUnavailable) {
		t.Fatalf("the taken time again: %v, want ErrSlotUnavailable", err)
	}

	d.ForgetKept()
	if pl, err = placeWith(ctx, d, storeNow, at.placement(), SourceConnect, 0, true); err != nil || !pl.loaded.staleBookings {
		t.Fatalf("placement with nothing kept: %v, stale %v; want it through without the bookings", err, pl.loaded.staleBookings)
	}
	if _, err := Create(ctx, d, storeNow, at); !errors.Is(err, ErrSlotUnavailable) {
		t.Fatalf("the taken time with nothing kept: %v, want ErrSlotUnavailable", err)
	}
	if _, err := placeWith(ctx, d, storeNow, at.placement(), SourceConnect, 0, false); !errors.Is(err, ErrSlotUnavailable) {
		t.Fatalf("a placement that answers a question: %v, want ErrSlotUnavailable from the current bookings", err)
	}
	if n := overlappingPairs(t, d); n != 0 {
		t.Fatalf("%d overlapping pairs, want 0", n)
	}
}
