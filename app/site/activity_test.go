package site_test

import (
	"strconv"
	"testing"
	"time"
)

// A booking made on the booking site is recorded once, as made by the client the form matched
// or created (the client's creation as the site's); a cancel through the manage link is the
// client's too.
func TestSiteBookingActivity(t *testing.T) {
	f := newFixture(t)
	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	manage := f.book(haircut, f.details(haircut, f.ana, at))
	got := f.bookings()
	if len(got) != 1 {
		t.Fatalf("%d bookings, want 1", len(got))
	}
	b := got[0]
	client := strconv.FormatInt(b.client, 10)
	f.post(manage+"/cancel", nil)

	type entry struct{ kind, id, action string }
	want := []entry{{"site", "", "client.created"}, {"client", client, "booking.created"}, {"client", client, "booking.cancelled"}}
	rows, err := f.db.Read.Query(`SELECT actor_kind, actor_id, action FROM activity ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var all []entry
	for rows.Next() {
		var e entry
		if err := rows.Scan(&e.kind, &e.id, &e.action); err != nil {
			t.Fatal(err)
		}
		all = append(all, e)
	}
	if len(all) != len(want) {
		t.Fatalf("got entries %v, want %v", all, want)
	}
	for i := range want {
		if all[i] != want[i] {
			t.Errorf("entry %d: got %v, want %v", i, all[i], want[i])
		}
	}
}
