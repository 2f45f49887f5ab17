package booking

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	"frontdesk/db"
)

// massage is a customer-flow booking of the Massage pack service with provider 2.
func massage(client int64, start time.Time) NewBooking {
	return NewBooking{LocationID: 1, ServiceID: 4, ProviderID: 2, ClientID: client, StatusID: StatusConfirmed, Start: start, Source: SourceConnect}
}

func packUse(t *testing.T, d *db.DB, id int64) int64 {
	t.Helper()
	p, err := d.R.PackUsage(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return p.Used
}

// TestPackOfFive: five bookings use the pack (price 0, pack_id), the sixth is an ordinary
// priced booking; a cancel within the policy gives a session back, a late one does not; an
// expired pack is not used; and the database refuses a use too many.
func TestPackOfFive(t *testing.T) {
	ctx := context.Background()
	d := classStore(t, 8, 3)
	if _, err := d.Write.Exec(`UPDATE company SET edit_lock_min = 120`); err != nil {
		t.Fatal(err)
	}
	pack, err := CreditPack(ctx, d, storeNow, PackCredit{ClientID: 1, ServiceID: 4, PriceCents: 40000})
	if err != nil {
		t.Fatal(err)
	}
	if pack.SessionsTotal != 5 || pack.ExpiresAt.Valid {
		t.Fatalf("got pack %+v, want 5 sessions that never expire", pack)
	}
	var ids []int64
	days := []string{"2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-30", "2026-12-01"}
	for i, day := range days {
		v, err := Create(ctx, d, storeNow, massage(1, santiago(t, day+" 09:00")))
		if err != nil {
			t.Fatalf("booking %d: %v", i+1, err)
		}
		b := v.Booking
		ids = append(ids, b.ID)
		if i < 5 && (b.PackID != sql.NullInt64{Int64: pack.ID, Valid: true} || b.PriceCents != 0 || b.ListPriceCents != 40000) {
			t.Fatalf("booking %d: got pack %v, price %d, list %d; want the pack, 0 and 40000", i+1, b.PackID, b.PriceCents, b.ListPriceCents)
		}
		if i == 5 && (b.PackID.Valid || b.PriceCents != 40000) {
			t.Fatalf("sixth booking: got pack %v, price %d; want an ordinary booking at 40000", b.PackID, b.PriceCents)
		}
	}
	if n := packUse(t, d, pack.ID); n != 5 {
		t.Fatalf("got %d sessions used, want 5", n)
	}
	// Within the policy (two hours before the start): the session goes back, and is used again.
	if err := Cancel(ctx, d, storeNow, ids[0], SourceConnect); err != nil {
		t.Fatal(err)
	}
	if n := packUse(t, d, pack.ID); n != 4 {
		t.Fatalf("after a timely cancel: got %d sessions used, want 4", n)
	}
	v, err := Create(ctx, d, storeNow, massage(1, santiago(t, "2026-12-07 09:00")))
	if err != nil || v.Booking.PackID.Int64 != pack.ID {
		t.Fatalf("after a timely cancel: got pack %v (%v), want the session back in use", v.Booking.PackID, err)
	}
	// A late cancel (the owner, inside the lock window) keeps the session used.
	late := santiago(t, "2026-11-25 08:30") // 30 min before the booking's start
	if err := CancelWith(ctx, d, late, ids[1], CancelOptions{Source: SourceAdmin}); err != nil {
		t.Fatal(err)
	}
	if n := packUse(t, d, pack.ID); n != 5 {
		t.Fatalf("after a late cancel: got %d sessions used, want 5", n)
	}
	// … unless the owner gives it back.
	yes := true
	if err := CancelWith(ctx, d, santiago(t, "2026-11-26 08:30"), ids[2], CancelOptions{Source: SourceAdmin, ReturnSession: &yes}); err != nil {
		t.Fatal(err)
	}
	if n := packUse(t, d, pack.ID); n != 4 {
		t.Fatalf("after a late cancel given back: got %d sessions used, want 4", n)
	}
	// The database refuses a sixth live use of a five-session pack, however it is written.
	if _, err := d.Write.Exec(`UPDATE bookings SET pack_id = ?, price_cents = 0 WHERE id = ?`, pack.ID, ids[5]); err != nil {
		t.Fatalf("fifth use: %v", err)
	}
	v, err = Create(ctx, d, storeNow, NewBooking{LocationID: 1, ServiceID: 4, ProviderID: 2, ClientID: 1, StatusID: StatusConfirmed,
		Start: santiago(t, "2026-12-08 09:00"), Source: SourceConnect, PackID: &pack.ID})
	var inv *InvalidError
	if !errors.As(err, &inv) || inv.Field != "pack_id" {
		t.Fatalf("sixth use by id: got %v %v, want an invalid pack_id", v.Booking.ID, err)
	}
	_, err = d.Write.Exec(`INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at,
		block_start_at, block_end_at, price_cents, list_price_cents, source, pack_id, created_at, updated_at)
		VALUES (1, 4, 2, 1, 1, ?, ?, ?, ?, 0, 0, 'import', ?, 0, 0)`,
		db.Millis(santiago(t, "2026-12-09 09:00")), db.Millis(santiago(t, "2026-12-09 10:00")),
		db.Millis(santiago(t, "2026-12-09 09:00")), db.Millis(santiago(t, "2026-12-09 10:00")), pack.ID)
	if !db.IsConstraint(err, "pack_used_up") {
		t.Fatalf("a sixth use in plain SQL: got %v, want pack_used_up", err)
	}
	// Another client cannot use it either.
	if _, err := Create(ctx, d, storeNow, NewBooking{LocationID: 1, ServiceID: 4, ProviderID: 2, ClientID: 2, StatusID: StatusConfirmed,
		Start: santiago(t, "2026-12-10 09:00"), Source: SourceConnect, PackID: &pack.ID}); !errors.As(err, &inv) || inv.Field != "pack_id" {
		t.Fatalf("another client's pack: got %v, want an invalid pack_id", err)
	}
}

// TestExpiredPack: a pack expires PackExpiryDays after it is credited; a session starting at
// or after that is booked without it (the ordinary price), and asking for it is refused, also
// by the database.
func TestExpiredPack(t *testing.T) {
	ctx := context.Background()
	d := classStore(t, 8, 2)
	if err := UpdateClassSettings(ctx, d, storeNow, ClassSettings{PackExpiryDays: 7, WaitlistCutoff: time.Hour}); err != nil {
		t.Fatal(err)
	}
	pack, err := CreditPack(ctx, d, storeNow, PackCredit{ClientID: 2, ServiceID: 4, PriceCents: 40000})
	if err != nil {
		t.Fatal(err)
	}
	if want := db.Millis(storeNow.AddDate(0, 0, 7)); pack.ExpiresAt != (sql.NullInt64{Int64: want, Valid: true}) {
		t.Fatalf("got expiry %v, want 7 days after it was paid", pack.ExpiresAt)
	}
	before, err := Create(ctx, d, storeNow, massage(2, santiago(t, "2026-11-27 09:00")))
	if err != nil || !before.Booking.PackID.Valid {
		t.Fatalf("a session before the expiry: got pack %v (%v), want the pack", before.Booking.PackID, err)
	}
	after, err := Create(ctx, d, storeNow, massage(2, santiago(t, "2026-12-01 09:00")))
	if err != nil || after.Booking.PackID.Valid || after.Booking.PriceCents != 40000 {
		t.Fatalf("a session after the expiry: got pack %v price %d (%v), want an ordinary booking", after.Booking.PackID, after.Booking.PriceCents, err)
	}
	nb := massage(2, santiago(t, "2026-12-02 09:00"))
	nb.PackID = &pack.ID
	var inv *InvalidError
	if _, err := Create(ctx, d, storeNow, nb); !errors.As(err, &inv) || inv.Field != "pack_id" {
		t.Fatalf("asking for the expired pack: got %v, want an invalid pack_id", err)
	}
	if _, err := d.Write.Exec(`UPDATE bookings SET pack_id = ? WHERE id = ?`, pack.ID, after.Booking.ID); !db.IsConstraint(err, "pack_expired") {
		t.Fatalf("using the expired pack in plain SQL: got %v, want pack_expired", err)
	}
	// Nor can the booking made with it be moved past the expiry.
	late := santiago(t, "2026-12-03 09:00")
	if _, err := Update(ctx, d, storeNow, before.Booking.ID, Change{Start: &late}, SourceAdmin); !errors.As(err, &inv) || inv.Field != "pack_id" {
		t.Fatalf("moving a pack booking past the expiry: got %v, want an invalid pack_id", err)
	}
}

// A service sold one session at a time is paid by a pack a membership credited: before the
// business has any pack, bookings of it are ordinary (and look for none: the catalog cache
// says there are none); the first pack raises the catalog version, so the next booking of the
// member uses it at once — price 0 — while another client's booking stays ordinary.
func TestSingleSessionServiceUsesMembershipPack(t *testing.T) {
	ctx := context.Background()
	d := classStore(t, 8, 3)
	haircut := func(client int64, at string) db.Booking {
		t.Helper()
		v, err := Create(ctx, d, storeNow, NewBooking{LocationID: 1, ServiceID: 1, ProviderID: 1, ClientID: client,
			StatusID: StatusConfirmed, Start: santiago(t, at), Source: SourceConnect})
		if err != nil {
			t.Fatalf("book at %s: %v", at, err)
		}
		return v.Booking
	}
	before := haircut(1, "2026-11-24 09:00")
	if before.PackID.Valid || before.PriceCents == 0 {
		t.Fatalf("without packs: got pack %v price %d; want an ordinary booking", before.PackID, before.PriceCents)
	}
	res, err := d.Write.Exec(`INSERT INTO client_packs (client_id, service_id, sessions_total, price_cents, created_at, updated_at)
		VALUES (1, 1, 2, 0, 0, 0)`)
	if err != nil {
		t.Fatal(err)
	}
	pack, _ := res.LastInsertId()
	member := haircut(1, "2026-11-25 09:00")
	if member.PackID != (sql.NullInt64{Int64: pack, Valid: true}) || member.PriceCents != 0 {
		t.Errorf("a member's booking: got pack %v price %d; want pack %d at 0", member.PackID, member.PriceCents, pack)
	}
	other := haircut(2, "2026-11-26 09:00")
	if other.PackID.Valid || other.PriceCents != before.PriceCents {
		t.Errorf("another client's booking: got pack %v price %d; want an ordinary booking at %d", other.PackID, other.PriceCents, before.PriceCents)
	}
}
