package admin_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Booking or moving outside a provider's hours warns and needs an explicit confirmation; the
// confirmed write is recorded with the booking as an override, and shown on its page. A change
// that does not move the booking does not ask again.
func TestOutsideHoursNeedsConfirmation(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	count := func(q string, args ...any) int {
		t.Helper()
		var n int
		if err := d.Read.QueryRow(q, args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	late := w.booking(w.Ana, w.Maria, "18:00") // Norte is open, Ana's shift ended at 17:00
	res := c.post(t, "/bookings", late)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="outside-hours"`, "Ana does not work at this time.", `name="outside_hours"`, `data-testid="error-summary"`)
	if n := count(`SELECT count(*) FROM bookings`); n != 0 {
		t.Fatalf("an unconfirmed booking outside hours was stored (%d bookings)", n)
	}
	late.Set("outside_hours", "1")
	res = c.post(t, "/bookings", late)
	if res.Status != http.StatusSeeOther {
		t.Fatalf("confirmed booking outside hours: %d\n%.2000s", res.Status, res.Body)
	}
	var id int64
	if err := d.Read.QueryRow(`SELECT id FROM bookings`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	if n := count(`SELECT count(*) FROM booking_overrides WHERE booking_id = ? AND reason_code = 'not_working' AND owner_email = ?`, id, ownerEmail); n != 1 {
		t.Errorf("%d override records for the booking, want 1 naming not_working and the owner", n)
	}
	page := fmt.Sprintf("/bookings/%d", id)
	wantBody(t, c.get(t, page), `data-testid="booking-override"`, "Ana does not work at this time.", ownerEmail)

	// Only the notes change: no question.
	keep := url.Values{"date": {w.Day}, "time": {"18:00"}, "provider": {w.Ana}, "status": {"1"}, "notes": {"late visit"}}
	wantRedirect(t, c.post(t, page, keep), page)

	// Moved into Ana's lunch break: asked again, then recorded again.
	lunch := url.Values{"date": {w.Day}, "time": {"12:15"}, "provider": {w.Ana}, "status": {"1"}, "notes": {"late visit"}}
	res = c.post(t, page, lunch)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, "This time falls in Ana&#39;s break.")
	lunch.Set("outside_hours", "1")
	wantRedirect(t, c.post(t, page, lunch), page)
	if n := count(`SELECT count(*) FROM booking_overrides WHERE booking_id = ?`, id); n != 2 {
		t.Errorf("%d override records after the confirmed move, want 2", n)
	}
	if body := c.get(t, page).Body; strings.Count(body, `data-testid="booking-override"`) != 2 {
		t.Error("the booking page does not list both overrides")
	}

	// Within hours: no question, no record.
	wantRedirect(t, c.post(t, page, url.Values{"date": {w.Day}, "time": {"10:00"}, "provider": {w.Ana}, "status": {"1"}}), page)
	if n := count(`SELECT count(*) FROM booking_overrides`); n != 2 {
		t.Errorf("a move within hours recorded an override (%d records)", n)
	}
}

// The day view's free times are the staff's (no client notice or booking window): the page says
// so, beside the explainer that answers with the clients' rules.
func TestDayViewSaysStaffRules(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	wantBody(t, c.get(t, w.dayPath()), `data-testid="day-note">Free times here follow the staff rules`, `data-testid="explain-link"`)
}
