package mcp_test

import (
	"context"
	"testing"
	"time"

	"frontdesk/app/booking"
)

// An assistant sees a class as its sessions and books seats like any slot; the last seat taken
// by someone else is just_taken, as a taken time is (docs/classes.md).
func TestClassSessionsOverMCP(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ms := f.now.UnixMilli()
	exec(t, f, `INSERT INTO services (id, uuid, name, price_cents, duration_min, capacity, created_at, updated_at)
		VALUES (50, 'yoga', 'Yoga', 800000, 60, 2, ?, ?)`, ms, ms)
	exec(t, f, `INSERT INTO service_providers (service_id, provider_id) VALUES (50, 2)`) // Ana
	_, _, err := booking.CreateTimetableEntry(context.Background(), f.db, f.now, booking.TimetableInput{
		LocationID: locationProvidencia, ServiceID: 50, ProviderID: 2, Weekday: time.Monday, StartMin: 7 * 60, ValidFrom: booking.Date{Year: 2027, Month: 3, Day: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	cs := f.connect(f.fullKey)
	var ft freeTimes
	r := ok(t, cs, "find_free_times", map[string]any{"location_id": locationProvidencia, "service_id": 50, "date": "2027-04-05"}, &ft)
	if len(ft.Slots) != 1 || ft.Slots[0].LocalTime != "07:00" || ft.Slots[0].LocalEndTime != "08:00" {
		t.Fatalf("got %+v, want the one 07:00 session (before opening hours, which a class does not need):\n%s", ft.Slots, r.text)
	}
	id := ft.Slots[0].SlotID
	ok(t, cs, "book", map[string]any{"slot_id": id, "client_id": clientMaria, "idempotency_key": "yoga-maria"}, nil)
	// The same slot id books the second seat for another client …
	ok(t, cs, "book", map[string]any{"slot_id": id, "client_id": clientJohn, "idempotency_key": "yoga-john"}, nil)
	// … and then the session is full: gone from the free times, just_taken when booked.
	ok(t, cs, "find_free_times", map[string]any{"location_id": locationProvidencia, "service_id": 50, "date": "2027-04-05"}, &ft)
	if len(ft.Slots) != 0 {
		t.Fatalf("a full session is still offered: %+v", ft.Slots)
	}
	exec(t, f, `INSERT INTO clients (id, first_name, last_name, created_at, updated_at) VALUES (3, 'Third', 'Client', ?, ?)`, ms, ms)
	fails(t, cs, "book", map[string]any{"slot_id": id, "client_id": 3, "idempotency_key": "yoga-third"}, "just_taken")
	if n := count(t, f, `SELECT count(*) FROM bookings WHERE session_id IS NOT NULL AND status_id <> 5`); n != 2 {
		t.Fatalf("got %d seats, want 2", n)
	}
}
