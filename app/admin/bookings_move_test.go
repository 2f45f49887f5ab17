package admin_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
)

// Moving a booking by picking a free time: the page lists the service's free times on the
// chosen day, the booking's own time among them (it does not stand in its own way) and Ana's
// break not; choosing one moves the booking with exactly one booking.updated event; a time
// taken by another booking, a break, or no choice at all changes nothing and says why.
func TestMoveBookingToAFreeTime(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	wantRedirect(t, c.post(t, "/bookings", w.booking(w.Ana, w.Maria, "10:00")), w.dayPath())
	wantRedirect(t, c.post(t, "/bookings", w.booking(w.Bruno, w.Pedro, "11:00")), w.dayPath())
	var id string
	if err := d.Read.QueryRow(`SELECT min(id) FROM bookings`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	day, err := time.ParseInLocation(time.DateOnly, w.Day, w.zone)
	if err != nil {
		t.Fatal(err)
	}
	choice := func(provider string, clock time.Duration) string {
		return fmt.Sprintf("%s:%d", provider, day.Add(clock).UnixMilli())
	}
	movePath := "/bookings/" + id + "/move"

	wantBody(t, c.get(t, "/bookings/"+id), `href="`+movePath+`"`)
	page := c.get(t, movePath+"?"+url.Values{"date": {w.Day}, "provider": {w.Ana}}.Encode())
	wantStatus(t, page, http.StatusOK)
	wantBody(t, page, `value="`+choice(w.Ana, 10*time.Hour)+`"`, `value="`+choice(w.Ana, 14*time.Hour)+`"`, `type="radio"`)
	if strings.Contains(page.Body, `value="`+choice(w.Ana, 12*time.Hour)+`"`) {
		t.Error("Ana's break (12:00) is offered")
	}
	any := c.get(t, movePath+"?"+url.Values{"date": {w.Day}}.Encode())
	wantBody(t, any, "09:00 · Ana", "Any provider")

	before := eventTypes(t, d)
	refuse := func(name, value, why string) {
		t.Helper()
		res := c.post(t, movePath, url.Values{"choice": {value}, "date": {w.Day}, "provider": {w.Ana}})
		wantStatus(t, res, http.StatusUnprocessableEntity)
		wantBody(t, res, `data-testid="form-error"`, why)
		if _, provider, start := bookingRow(t, d, id); provider != w.anaID || !start.Equal(day.Add(10*time.Hour)) {
			t.Errorf("%s: the booking moved to provider %d at %v", name, provider, start)
		}
		if got := eventTypes(t, d); !slices.Equal(got, before) {
			t.Errorf("%s: events %v after a refused move, want %v", name, got, before)
		}
	}
	refuse("clash", choice(w.Bruno, 11*time.Hour), "Bruno already has a booking at 11:00–11:30 (Pedro Diaz, Norte).")
	refuse("break", choice(w.Ana, 12*time.Hour), "During the provider")
	refuse("no choice", "", "Choose one of the free times.")
	refuse("not a choice", "x:y", "Choose one of the free times.")

	res := c.post(t, movePath, url.Values{"choice": {choice(w.Ana, 14*time.Hour)}, "date": {w.Day}, "provider": {w.Ana}})
	wantRedirect(t, res, "/bookings/"+id)
	if _, provider, start := bookingRow(t, d, id); provider != w.anaID || !start.Equal(day.Add(14*time.Hour)) {
		t.Errorf("after the move: provider %d at %v, want Ana at 14:00", provider, start)
	}
	if got, want := eventTypes(t, d), append(slices.Clone(before), "booking.updated"); !slices.Equal(got, want) {
		t.Errorf("got events %v, want %v", got, want)
	}
}
