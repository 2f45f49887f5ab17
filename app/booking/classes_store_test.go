package booking

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"frontdesk/db"
)

// classStore is openStore(t, 2) plus service 3 "Yoga", a class of capacity seats (60 min,
// 10 min after), given by providers 1 and 2; service 4 "Massage pack", 5 sessions of 60 min
// for 400.00, given by provider 2; clients 1…clients; and a weekly Yoga entry with provider 1
// at location 1 on Mondays at 10:00 from 2026-11-23.
func classStore(t testing.TB, capacity, clients int) *db.DB {
	t.Helper()
	d := openStore(t, 2)
	ms := db.Millis(storeNow)
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := d.Write.Exec(q, args...); err != nil {
			t.Fatalf("seed: %v\n%s", err, q)
		}
	}
	exec(`INSERT INTO services (id, uuid, name, price_cents, duration_min, buffer_after_min, capacity, created_at, updated_at)
		VALUES (3, 's3', 'Yoga', 1800, 60, 10, ?, ?, ?)`, capacity, ms, ms)
	exec(`INSERT INTO services (id, uuid, name, price_cents, duration_min, session_count, created_at, updated_at)
		VALUES (4, 's4', 'Massage pack', 40000, 60, 5, ?, ?)`, ms, ms)
	exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (3, 1), (3, 2), (4, 2)`)
	for c := 2; c <= clients; c++ {
		exec(`INSERT INTO clients (id, first_name, created_at, updated_at) VALUES (?, ?, ?, ?)`, c, fmt.Sprintf("C%d", c), ms, ms)
	}
	if _, _, err := CreateTimetableEntry(context.Background(), d, storeNow, TimetableInput{
		LocationID: 1, ServiceID: 3, ProviderID: 1, Weekday: time.Monday, StartMin: hm("10:00"),
		ValidFrom: Date{2026, time.November, 23},
	}); err != nil {
		t.Fatal(err)
	}
	return d
}

// yoga is a customer-flow booking of the Yoga class with provider 1 at location 1.
func yoga(client int64, start time.Time) NewBooking {
	return NewBooking{LocationID: 1, ServiceID: 3, ProviderID: 1, ClientID: client, StatusID: StatusConfirmed, Start: start, Source: SourceConnect}
}

func liveSeats(t testing.TB, d *db.DB, sessionID int64) int {
	t.Helper()
	var n int
	if err := d.Read.QueryRow(`SELECT count(*) FROM bookings WHERE session_id = ? AND status_id <> 5`, sessionID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestClassSeats: bookings fill a session up to its capacity, then class_full; one client holds
// one seat; a cancel frees a seat; the session holds its provider once for every other service.
func TestClassSeats(t *testing.T) {
	ctx := context.Background()
	d := classStore(t, 3, 6)
	monday := santiago(t, "2026-11-30 10:00")
	var session int64
	for c := int64(1); c <= 3; c++ {
		v, err := Create(ctx, d, storeNow, yoga(c, monday))
		if err != nil {
			t.Fatalf("client %d: %v", c, err)
		}
		if !v.Booking.SessionID.Valid || session != 0 && v.Booking.SessionID.Int64 != session {
			t.Fatalf("client %d: got session %v, want one session for all", c, v.Booking.SessionID)
		}
		session = v.Booking.SessionID.Int64
		if got := db.Time(v.Booking.EndAt).Sub(db.Time(v.Booking.StartAt)); got != time.Hour {
			t.Fatalf("got a booking of %v, want the session's hour", got)
		}
	}
	if _, err := Create(ctx, d, storeNow, yoga(4, monday)); !errors.Is(err, ErrClassFull) {
		t.Fatalf("fourth client: got %v, want class_full", err)
	}
	var inv *InvalidError
	if _, err := Create(ctx, d, storeNow, yoga(2, monday)); !errors.As(err, &inv) || inv.Field != "client_id" {
		t.Fatalf("a client twice: got %v, want an invalid client_id", err)
	}
	v, err := Create(ctx, d, storeNow, yoga(5, santiago(t, "2026-11-30 10:30")))
	if !errors.As(err, &inv) || inv.Field != "start_time" {
		t.Fatalf("10:30: got %v %v, want not a session time", v.Booking.ID, err)
	}
	// The session holds provider 1 from 10:00 to 11:10 for every other service, whoever is in it.
	if _, err := Create(ctx, d, storeNow, haircut(1, santiago(t, "2026-11-30 10:30"))); !errors.Is(err, ErrSlotUnavailable) {
		t.Fatalf("haircut during the session: got %v, want slot_unavailable", err)
	}
	if _, err := Create(ctx, d, storeNow, haircut(1, santiago(t, "2026-11-30 11:10"))); err != nil {
		t.Fatalf("haircut right after the session's buffer: %v", err)
	}
	// A cancel frees a seat; the freed seat can be taken again.
	first := firstBooking(t, d, session)
	if err := Cancel(ctx, d, storeNow, first, SourceConnect); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(ctx, d, storeNow, yoga(4, monday)); err != nil {
		t.Fatalf("after a cancel: %v", err)
	}
	if n := liveSeats(t, d, session); n != 3 {
		t.Fatalf("got %d live seats, want 3", n)
	}
	wantNoOverlaps(t, d)
}

func firstBooking(t testing.TB, d *db.DB, session int64) int64 {
	t.Helper()
	var id int64
	if err := d.Read.QueryRow(`SELECT min(id) FROM bookings WHERE session_id = ? AND status_id <> 5`, session).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestClassRulesInTheDatabase: with the Go checks out of the way (plain SQL), the database
// itself refuses a seat too many, a second seat for a client, a booking that does not match its
// session, another service's booking over a session, and a session over a booking.
func TestClassRulesInTheDatabase(t *testing.T) {
	ctx := context.Background()
	d := classStore(t, 2, 4)
	monday := santiago(t, "2026-11-30 10:00")
	v, err := Create(ctx, d, storeNow, yoga(1, monday))
	if err != nil {
		t.Fatal(err)
	}
	b := v.Booking
	insert := func(client int64, service int64, session any, start, end time.Time) error {
		_, err := d.Write.Exec(`INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at,
			block_start_at, block_end_at, price_cents, list_price_cents, source, session_id, created_at, updated_at)
			VALUES (1, ?, 1, ?, 1, ?, ?, ?, ?, 0, 0, 'import', ?, 0, 0)`,
			service, client, db.Millis(start), db.Millis(end), db.Millis(start), db.Millis(end.Add(10*time.Minute)), session)
		return err
	}
	end := monday.Add(time.Hour)
	cases := []struct {
		name string
		do   func() error
		want string
	}{
		{"same client again", func() error { return insert(1, 3, b.SessionID.Int64, monday, end) }, "bookings.session_id, bookings.client_id"},
		{"not the session's time", func() error { return insert(2, 3, b.SessionID.Int64, monday.Add(time.Minute), end) }, "session_mismatch"},
		{"another service over the session", func() error { return insert(2, 1, nil, monday.Add(30*time.Minute), end) }, "slot_unavailable"},
		{"a session over a booking", func() error {
			if _, err := Create(ctx, d, storeNow, haircut(1, santiago(t, "2026-11-30 15:00"))); err != nil {
				return err
			}
			_, err := d.Write.Exec(`INSERT INTO class_sessions (location_id, service_id, provider_id, local_date, start_at, end_at,
				block_start_at, block_end_at, status, created_at, updated_at) VALUES (1, 3, 1, '2026-11-30', ?, ?, ?, ?, 'scheduled', 0, 0)`,
				db.Millis(santiago(t, "2026-11-30 14:45")), db.Millis(santiago(t, "2026-11-30 15:45")),
				db.Millis(santiago(t, "2026-11-30 14:45")), db.Millis(santiago(t, "2026-11-30 15:55")))
			return err
		}, "slot_unavailable"},
		{"cancelling a session with attendees", func() error {
			_, err := d.Write.Exec(`UPDATE class_sessions SET status = 'cancelled' WHERE id = ?`, b.SessionID.Int64)
			return err
		}, "session_has_attendees"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := c.do(); !db.IsConstraint(err, c.want) {
				t.Fatalf("got %v, want the database to refuse with %s", err, c.want)
			}
		})
	}
	// The seat count: the second seat is taken, the third is refused by the trigger.
	if err := insert(2, 3, b.SessionID.Int64, monday, end); err != nil {
		t.Fatalf("second seat: %v", err)
	}
	if err := insert(3, 3, b.SessionID.Int64, monday, end); !db.IsConstraint(err, "class_full") {
		t.Fatalf("third seat of two: got %v, want class_full", err)
	}
}

// TestTimetableAcrossSantiagoDST: weekly sessions land at their local wall time whatever the
// offset. On 2027-04-03 Santiago's clocks go back at 24:00 (23:00–24:00 happens twice): a
// Saturday 23:30 session is held once, at the first 23:30. On 2027-09-05 they go forward at
// 00:00 (00:00–01:00 does not exist): a Sunday 00:45 session has no session that day and is
// not offered; the Sundays around it keep theirs.
func TestTimetableAcrossSantiagoDST(t *testing.T) {
	ctx := context.Background()
	d := classStore(t, 8, 1)
	now := time.Date(2027, 3, 20, 12, 0, 0, 0, time.UTC)
	if _, err := d.Write.Exec(`UPDATE company SET max_advance_days = 0`); err != nil {
		t.Fatal(err)
	}
	for _, e := range []struct {
		day   time.Weekday
		start string
	}{{time.Saturday, "23:30"}, {time.Sunday, "00:45"}, {time.Sunday, "09:00"}, {time.Saturday, "09:00"}} {
		in := TimetableInput{LocationID: 1, ServiceID: 3, ProviderID: 2, Weekday: e.day, StartMin: hm(e.start), ValidFrom: Date{2027, time.March, 1}}
		if _, _, err := CreateTimetableEntry(ctx, d, now, in); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string][]string{
		"2027-04-03": {"2027-04-03T09:00:00-03:00", "2027-04-03T23:30:00-03:00"},
		"2027-04-04": {"2027-04-04T00:45:00-04:00", "2027-04-04T09:00:00-04:00"},
		"2027-09-04": {"2027-09-04T09:00:00-04:00", "2027-09-04T23:30:00-04:00"},
		"2027-09-05": {"2027-09-05T09:00:00-03:00"}, // 00:45 does not exist that day
		"2027-09-12": {"2027-09-12T00:45:00-03:00", "2027-09-12T09:00:00-03:00"},
	}
	for date, starts := range want {
		day := mustDate(t, date)
		slots, _, err := SessionsWithSeats(ctx, d, now, SessionQuery{LocationID: 1, ServiceID: 3, ProviderID: 2, First: day, Last: day})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range slots {
			got = append(got, s.Start.Format(time.RFC3339))
			if s.End.Sub(s.Start) != time.Hour || s.Date.String() != date {
				t.Errorf("%s: session %s lasts %v on %s, want an hour on its date", date, got[len(got)-1], s.End.Sub(s.Start), s.Date)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(starts) {
			t.Errorf("%s: got sessions %v, want %v", date, got, starts)
		}
	}
	// The repeated 23:30 has exactly one session, and Explain tells the second occurrence apart.
	second := time.Date(2027, 4, 4, 3, 30, 0, 0, time.UTC) // 23:30 -04:00, the second 23:30
	r, err := ExplainAt(ctx, d, 1, 3, 2, second, now)
	if err != nil || r.Code != ReasonNotSessionTime {
		t.Fatalf("second 23:30: got %v %v, want not a session time", r, err)
	}
	// Booking the missing hour is refused, even by the owner: 00:45 with the old offset is
	// 01:45 that day, when there is no session.
	nb := NewBooking{LocationID: 1, ServiceID: 3, ProviderID: 2, ClientID: 1, StatusID: StatusConfirmed,
		Start: time.Date(2027, 9, 5, 4, 45, 0, 0, time.UTC), Source: SourceAdmin}
	var inv *InvalidError
	if _, err := Create(ctx, d, now, nb); !errors.As(err, &inv) {
		t.Fatalf("booking the missing hour's session: got %v, want not a session time", err)
	}
}
