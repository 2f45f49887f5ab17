package booking

import (
	"context"
	"errors"
	"testing"
	"time"

	"frontdesk/db"
)

// fullSession books clients 1…capacity into the Monday 2026-11-30 10:00 Yoga session and
// returns it.
func fullSession(t *testing.T, d *db.DB, capacity int) (int64, time.Time) {
	t.Helper()
	start := santiago(t, "2026-11-30 10:00")
	var session int64
	for c := int64(1); c <= int64(capacity); c++ {
		v, err := Create(context.Background(), d, storeNow, yoga(c, start))
		if err != nil {
			t.Fatal(err)
		}
		session = v.Booking.SessionID.Int64
	}
	return session, start
}

func joinList(t *testing.T, d *db.DB, now time.Time, client int64, start time.Time) WaitlistView {
	t.Helper()
	v, err := JoinWaitlist(context.Background(), d, now, JoinRequest{LocationID: 1, ServiceID: 3, ProviderID: 1, Start: start, ClientID: client, Source: SourceConnect})
	if err != nil {
		t.Fatalf("client %d joins: %v", client, err)
	}
	return v
}

// TestWaitlistPromotion: clients join a full session in order; a cancel books the first of
// them in the same transaction (with booking.created); a client who left is passed over; near
// the session (inside the cut-off) a freed seat stays free and joining is closed.
func TestWaitlistPromotion(t *testing.T) {
	ctx := context.Background()
	d := classStore(t, 2, 7)
	session, start := fullSession(t, d, 2)
	if _, err := JoinWaitlist(ctx, d, storeNow, JoinRequest{SessionID: session, ClientID: 1, Source: SourceConnect}); !isInvalid(err, "client_id") {
		t.Fatalf("a seated client joins: got %v, want an invalid client_id", err)
	}
	w3, w4, w5 := joinList(t, d, storeNow, 3, start), joinList(t, d, storeNow, 4, start), joinList(t, d, storeNow, 5, start)
	if w3.Position != 1 || w4.Position != 2 || w5.Position != 3 {
		t.Fatalf("got positions %d, %d, %d; want 1, 2, 3", w3.Position, w4.Position, w5.Position)
	}
	if _, err := JoinWaitlist(ctx, d, storeNow, JoinRequest{SessionID: session, ClientID: 4, Source: SourceConnect}); !isInvalid(err, "client_id") {
		t.Fatalf("joining twice: got %v, want an invalid client_id", err)
	}
	events := countEvents(t, d)
	if err := Cancel(ctx, d, storeNow, firstBooking(t, d, session), SourceConnect); err != nil {
		t.Fatal(err)
	}
	e3 := entry(t, d, w3.Entry.ID)
	if e3.Entry.Status != WaitlistBooked || !e3.Entry.BookingID.Valid {
		t.Fatalf("first waiting client after a cancel: got %+v, want booked", e3.Entry)
	}
	if n := countEvents(t, d) - events; n != 2 {
		t.Fatalf("got %d events for the cancel, want booking.updated and the promotion's booking.created", n)
	}
	if e4 := entry(t, d, w4.Entry.ID); e4.Position != 1 {
		t.Fatalf("second waiting client: got position %d, want 1", e4.Position)
	}
	// Client 4 leaves the list: the next freed seat goes to client 5.
	if err := LeaveWaitlist(ctx, d, storeNow, w4.Entry.ID); err != nil {
		t.Fatal(err)
	}
	if err := Cancel(ctx, d, storeNow, firstBooking(t, d, session), SourceConnect); err != nil {
		t.Fatal(err)
	}
	if e5 := entry(t, d, w5.Entry.ID); e5.Entry.Status != WaitlistBooked {
		t.Fatalf("after client 4 left: got client 5 %s, want booked", e5.Entry.Status)
	}
	if n := liveSeats(t, d, session); n != 2 {
		t.Fatalf("got %d seats taken, want 2", n)
	}
	// Inside the cut-off (two hours by default) a freed seat is not given away.
	w6 := joinList(t, d, storeNow, 6, start)
	lateNow := start.Add(-time.Hour)
	if err := Cancel(ctx, d, lateNow, firstBooking(t, d, session), SourceAdmin); err != nil {
		t.Fatal(err)
	}
	if e6 := entry(t, d, w6.Entry.ID); e6.Entry.Status != WaitlistWaiting {
		t.Fatalf("inside the cut-off: got %s, want still waiting", e6.Entry.Status)
	}
	if _, err := JoinWaitlist(ctx, d, lateNow, JoinRequest{SessionID: session, ClientID: 7, Source: SourceAdmin}); !errors.Is(err, ErrSeatsAvailable) {
		t.Fatalf("joining while a seat is free: got %v, want seats_available", err)
	}
	if _, err := Create(ctx, d, lateNow, NewBooking{LocationID: 1, ServiceID: 3, ProviderID: 1, ClientID: 7, StatusID: StatusConfirmed, Start: start, Source: SourceAdmin}); err != nil {
		t.Fatalf("booking the free seat: %v", err)
	}
	if _, err := JoinWaitlist(ctx, d, lateNow, JoinRequest{SessionID: session, ClientID: 1, Source: SourceAdmin}); !isInvalid(err, "start_time") {
		t.Fatalf("joining inside the cut-off: got %v, want waitlist_closed", err)
	}
}

// TestWaitlistOrderInTheDatabase: the database refuses to book a waiting entry while an
// earlier one of the same session still waits.
func TestWaitlistOrderInTheDatabase(t *testing.T) {
	ctx := context.Background()
	d := classStore(t, 2, 4)
	session, start := fullSession(t, d, 2)
	joinList(t, d, storeNow, 3, start)
	w4 := joinList(t, d, storeNow, 4, start)
	// Cancelled behind the rules' back (plain SQL): nobody is promoted.
	if _, err := d.Write.Exec(`UPDATE bookings SET status_id = 5 WHERE session_id = ?`, session); err != nil {
		t.Fatal(err)
	}
	v, err := Create(ctx, d, storeNow, yoga(4, start))
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.Write.Exec(`UPDATE waitlist_entries SET status = 'booked', booking_id = ? WHERE id = ?`, v.Booking.ID, w4.Entry.ID)
	if !db.IsConstraint(err, "waitlist_out_of_order") {
		t.Fatalf("booking the second entry first: got %v, want waitlist_out_of_order", err)
	}
}

// TestCapacityIncreaseFillsFromWaitlist: a larger capacity gives the new seats to the queue.
func TestCapacityIncreaseFillsFromWaitlist(t *testing.T) {
	ctx := context.Background()
	d := classStore(t, 2, 5)
	session, start := fullSession(t, d, 2)
	joinList(t, d, storeNow, 3, start)
	joinList(t, d, storeNow, 4, start)
	joinList(t, d, storeNow, 5, start)
	if err := SetSessionSeats(ctx, d, storeNow, session, 4, "Big room"); err != nil {
		t.Fatal(err)
	}
	if n := liveSeats(t, d, session); n != 4 {
		t.Fatalf("got %d seats taken, want 4", n)
	}
	if err := SetSessionSeats(ctx, d, storeNow, session, 3, ""); !isInvalid(err, "capacity") {
		t.Fatalf("a capacity below the attendees: got %v, want refused", err)
	}
	n, err := CancelSession(ctx, d, storeNow, session)
	if err != nil || n != 4 {
		t.Fatalf("cancelling the session: got %d bookings cancelled (%v), want 4", n, err)
	}
	var waiting int
	d.Read.QueryRow(`SELECT count(*) FROM waitlist_entries WHERE session_id = ? AND status = 'waiting'`, session).Scan(&waiting)
	if waiting != 0 || liveSeats(t, d, session) != 0 {
		t.Fatalf("after cancelling the session: %d waiting, %d seats; want none", waiting, liveSeats(t, d, session))
	}
	// The provider is free again: another service can be booked then.
	if _, err := Create(ctx, d, storeNow, haircut(1, start)); err != nil {
		t.Fatalf("a haircut in the cancelled session's time: %v", err)
	}
}

func isInvalid(err error, field string) bool {
	var inv *InvalidError
	return errors.As(err, &inv) && inv.Field == field
}

func entry(t *testing.T, d *db.DB, id int64) WaitlistView {
	t.Helper()
	v, err := GetWaitlistEntry(context.Background(), d.R, id)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func countEvents(t *testing.T, d *db.DB) int {
	t.Helper()
	var n int
	if err := d.Read.QueryRow(`SELECT count(*) FROM events`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestMoveBetweenSessions: a booking moved to another session of the class takes a seat there
// (refused when that one is full) and its old seat goes to the old session's waitlist.
func TestMoveBetweenSessions(t *testing.T) {
	ctx := context.Background()
	d := classStore(t, 2, 5)
	session, start := fullSession(t, d, 2)
	next := santiago(t, "2026-12-07 10:00")
	w := joinList(t, d, storeNow, 3, start)
	moving := firstBooking(t, d, session)
	v, err := Update(ctx, d, storeNow, moving, Change{Start: &next}, SourceConnect)
	if err != nil {
		t.Fatal(err)
	}
	if v.Booking.SessionID.Int64 == session || !db.Time(v.Booking.StartAt).Equal(next) {
		t.Fatalf("moved booking: got session %d at %v, want the next Monday's", v.Booking.SessionID.Int64, db.Time(v.Booking.StartAt))
	}
	if e := entry(t, d, w.Entry.ID); e.Entry.Status != WaitlistBooked {
		t.Fatalf("the freed seat: waiting client got %s, want booked", e.Entry.Status)
	}
	// The next Monday is now full too (client 4 books its last seat): moving into it is refused.
	if _, err := Create(ctx, d, storeNow, yoga(4, next)); err != nil {
		t.Fatal(err)
	}
	other := firstBooking(t, d, session)
	if _, err := Update(ctx, d, storeNow, other, Change{Start: &next}, SourceConnect); !errors.Is(err, ErrClassFull) {
		t.Fatalf("moving into a full session: got %v, want class_full", err)
	}
	half := santiago(t, "2026-12-07 10:30")
	if _, err := Update(ctx, d, storeNow, other, Change{Start: &half}, SourceConnect); !isInvalid(err, "start_time") {
		t.Fatalf("moving to a time with no session: got %v, want not_session_time", err)
	}
}
