package admin_test

import (
	"net/http"
	"strings"
	"testing"
)

// The new booking form books a weekly series through the one series function: with a date
// taken, "book nothing" names it on the form and books nothing; "book the free dates" books
// the others, each a booking of the series.
func TestNewBookingFormBooksASeries(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	wantRedirect(t, c.post(t, "/bookings", w.booking(w.Ana, w.Pedro, "10:00")), w.dayPath())
	form := w.booking(w.Ana, w.Maria, "10:00")
	form.Set("repeat", "weekly")
	form.Set("repeat_count", "3")
	form.Set("repeat_mode", "all_or_nothing")
	// The world's day is taken by Pedro: the series' first date is not free.
	res := c.post(t, "/bookings", form)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	if !strings.Contains(res.Body, "Not free on "+w.Day) {
		t.Fatalf("the refusal does not name %s:\n%.2000s", w.Day, res.Body)
	}
	var n int
	if err := d.Read.QueryRow(`SELECT count(*) FROM bookings`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d bookings after a refused series (%v), want 1", n, err)
	}
	form.Set("repeat_mode", "free_ones")
	// The first date booked is a week on: its day view follows.
	wantStatus(t, c.post(t, "/bookings", form), http.StatusSeeOther)
	if err := d.Read.QueryRow(`SELECT count(*) FROM bookings WHERE series_id IS NOT NULL`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("%d bookings in the series (%v), want the 2 free dates", n, err)
	}
}
