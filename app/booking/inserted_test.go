package booking

import (
	"context"
	"testing"
	"time"

	"frontdesk/db"
)

// TestInsertedRowIsTheStoredRow: the row a write returns for a new booking (insertBooking builds
// it from its parameters and the table's defaults instead of reading it back) is the row stored,
// column for column — for an ordinary booking, one with notes, a price and a time resource, a
// seat in a class, a booking paid by a pack, and each booking of a visit. It fails when a column
// gains a default or an insert trigger that the built row does not know about.
func TestInsertedRowIsTheStoredRow(t *testing.T) {
	ctx := context.Background()
	same := func(t *testing.T, d *db.DB, got db.Booking) {
		t.Helper()
		stored, err := d.R.GetBookingRow(ctx, got.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got != stored {
			t.Errorf("booking %d as returned:\n\t%+v\nas stored:\n\t%+v", got.ID, got, stored)
		}
	}

	t.Run("appointments and a visit", func(t *testing.T) {
		d := openStore(t, 2)
		v, err := Create(ctx, d, storeNow, haircut(1, santiago(t, "2026-11-24 10:00")))
		if err != nil {
			t.Fatal(err)
		}
		same(t, d, v.Booking)
		notes, price, room := "first visit", int64(1234), int64(7)
		nb := haircut(2, santiago(t, "2026-11-24 11:00"))
		nb.Notes, nb.Price, nb.TimeResourceID, nb.Source, nb.StatusID = &notes, &price, &room, SourceAdmin, StatusReserved
		if v, err = Create(ctx, d, storeNow, nb); err != nil {
			t.Fatal(err)
		}
		same(t, d, v.Booking)

		withVisitServices(t, d, 1)
		visit, err := BookVisit(ctx, d, storeNow, NewVisit{LocationID: 1, ClientID: 1, StatusID: StatusConfirmed, Source: SourceConnect,
			Start: santiago(t, "2026-11-25 10:00"), Segments: []VisitSegment{{ServiceID: 3, ProviderID: 1}}})
		if err != nil {
			t.Fatal(err)
		}
		if len(visit.Bookings) < 2 {
			t.Fatalf("visit of %d bookings, want its parts", len(visit.Bookings))
		}
		for _, b := range visit.Bookings {
			same(t, d, b.Booking)
		}
	})

	t.Run("a seat and a pack", func(t *testing.T) {
		d := classStore(t, 8, 3)
		v, err := Create(ctx, d, storeNow, yoga(1, santiago(t, "2026-11-30 10:00")))
		if err != nil {
			t.Fatal(err)
		}
		if !v.Booking.SessionID.Valid {
			t.Fatal("a class booking without its session")
		}
		same(t, d, v.Booking)
		if _, err := CreditPack(ctx, d, storeNow, PackCredit{ClientID: 1, ServiceID: 4, PriceCents: 40000}); err != nil {
			t.Fatal(err)
		}
		if v, err = Create(ctx, d, storeNow.Add(time.Minute), massage(1, santiago(t, "2026-11-24 09:00"))); err != nil {
			t.Fatal(err)
		}
		if !v.Booking.PackID.Valid {
			t.Fatal("a booking of a pack service with a pack to use did not use it")
		}
		same(t, d, v.Booking)
	})
}
