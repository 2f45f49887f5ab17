package admin_test

import (
	"net/http"
	"net/url"
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

// A date of a series offers the reach of a change and of a cancel (this date, this and the
// later ones, every date not started): moving the first with "all" moves every date to the
// new time through the series function; cancelling the second with "following" cancels it and
// the third, the first kept.
func TestBookingPageSeriesScopes(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	form := w.booking(w.Ana, w.Maria, "10:00")
	form.Set("repeat", "weekly")
	form.Set("repeat_count", "3")
	form.Set("repeat_mode", "all_or_nothing")
	wantStatus(t, c.post(t, "/bookings", form), http.StatusSeeOther)
	var ids []string
	rows, err := d.Read.Query(`SELECT id FROM bookings WHERE series_id IS NOT NULL ORDER BY start_at`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if len(ids) != 3 {
		t.Fatalf("%d dates booked, want 3", len(ids))
	}
	page := c.get(t, "/bookings/"+ids[0])
	wantStatus(t, page, http.StatusOK)
	wantBody(t, page, `data-testid="radios-scope"`, "This date and the later ones", "Every date not started yet")

	move := url.Values{"date": {w.Day}, "time": {"11:00"}, "provider": {w.Ana}, "status": {"1"}, "notes": {""}, "scope": {"all"}}
	wantRedirect(t, c.post(t, "/bookings/"+ids[0], move), "/bookings/"+ids[0])
	for _, id := range ids {
		_, _, start := bookingRow(t, d, id)
		if got := start.In(w.zone).Format("15:04"); got != "11:00" {
			t.Fatalf("booking %s at %s after moving every date to 11:00", id, got)
		}
	}

	page = c.get(t, "/bookings/"+ids[1]+"/cancel")
	wantStatus(t, page, http.StatusOK)
	wantBody(t, page, `data-testid="radios-scope"`)
	wantStatus(t, c.post(t, "/bookings/"+ids[1]+"/cancel", url.Values{"scope": {"following"}}), http.StatusSeeOther)
	for i, id := range ids {
		status, _, _ := bookingRow(t, d, id)
		if want := int64(5); (i > 0) != (status == want) {
			t.Fatalf("date %d has status %d after cancelling the second and the following", i+1, status)
		}
	}
}
