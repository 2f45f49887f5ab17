package booking

import (
	"testing"

	"frontdesk/db"
)

// Each kind of booking change gets its own action in the activity trail.
func TestBookingAction(t *testing.T) {
	cur := db.Booking{ID: 1, StatusID: StatusConfirmed, StartAt: 1000, EndAt: 2000, ProviderID: 1, LocationID: 1, ServiceID: 1}
	with := func(f func(*db.Booking)) db.Booking { b := cur; f(&b); return b }
	for _, tc := range []struct {
		name          string
		before, after db.Booking
		want          string
	}{
		{"new", db.Booking{}, cur, "booking.created"},
		{"cancelled", cur, with(func(b *db.Booking) { b.StatusID = StatusCancelled }), "booking.cancelled"},
		{"another time", cur, with(func(b *db.Booking) { b.StartAt, b.EndAt = 3000, 4000 }), "booking.moved"},
		{"another provider", cur, with(func(b *db.Booking) { b.ProviderID = 2 }), "booking.moved"},
		{"attended", cur, with(func(b *db.Booking) { b.StatusID = StatusAttended }), "booking.attended"},
		{"no-show", cur, with(func(b *db.Booking) { b.StatusID = StatusNoShow }), "booking.no_show"},
		{"confirmed", with(func(b *db.Booking) { b.StatusID = StatusReserved }), cur, "booking.confirmed"},
		{"notes", cur, with(func(b *db.Booking) { b.Notes.String, b.Notes.Valid = "x", true }), "booking.updated"},
	} {
		if got := bookingAction(tc.before, tc.after); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
	}
}
