package admin_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Bookings → Waitlist joins a client through the one waitlist function: the entry is listed
// and stored with source admin; a later cancel of a time it suits sends the client a claim
// link; bad input is refused on the form (422) and writes nothing; Remove takes it off.
func TestAdminJoinsTheAppointmentWaitlist(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	page := c.get(t, "/bookings/waitlist")
	wantStatus(t, page, http.StatusOK)
	wantBody(t, page, `data-testid="apptwait-form"`, `data-testid="apptwait-empty"`)

	form := url.Values{"location": {w.Location}, "service": {w.Service}, "provider": {""}, "client": {w.Maria},
		"first_day": {w.Day}, "last_day": {w.Day}}
	bad := url.Values{}
	for k, v := range form {
		bad[k] = v
	}
	bad.Set("first_day", "2020-01-01")
	res := c.post(t, "/bookings/waitlist", bad)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, "Days from today, at most 92, the last not before the first.")
	bad.Set("first_day", w.Day)
	bad.Del("client")
	wantStatus(t, c.post(t, "/bookings/waitlist", bad), http.StatusUnprocessableEntity)
	var n int
	if err := d.Read.QueryRow(`SELECT count(*) FROM appointment_waits`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d waits after refused forms (%v), want 0", n, err)
	}

	wantRedirect(t, c.post(t, "/bookings/waitlist", form), "/bookings/waitlist")
	list := c.get(t, "/bookings/waitlist")
	wantBody(t, list, `data-testid="apptwait-entry"`, "Maria Lopez", "Haircut", "Anyone free", w.Day+" – "+w.Day)
	if err := d.Read.QueryRow(`SELECT count(*) FROM appointment_waits WHERE client_id = ? AND status = 'waiting' AND source = 'admin' AND provider_id IS NULL`, w.mariaID).Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d waits for Maria (%v), want 1", n, err)
	}
	again := c.post(t, "/bookings/waitlist", form)
	wantStatus(t, again, http.StatusUnprocessableEntity)
	wantBody(t, again, "This client is already waiting for this on those days.")

	// Pedro's booking on that day is cancelled: Maria is offered the time.
	wantRedirect(t, c.post(t, "/bookings", w.booking(w.Ana, w.Pedro, "10:00")), w.dayPath())
	var booking string
	if err := d.Read.QueryRow(`SELECT max(id) FROM bookings`).Scan(&booking); err != nil {
		t.Fatal(err)
	}
	wantRedirect(t, c.post(t, "/bookings/"+booking+"/cancel", nil), w.dayPath())
	var detail string
	if err := d.Read.QueryRow(`SELECT m.detail_json FROM messages m JOIN appointment_offers o ON o.id = m.offer_id
		JOIN appointment_waits aw ON aw.id = o.wait_id WHERE aw.client_id = ?`, w.mariaID).Scan(&detail); err != nil {
		t.Fatalf("no claim link sent to Maria after the cancel: %v", err)
	}
	if !strings.Contains(detail, `"token"`) && !strings.Contains(detail, `"Token"`) {
		t.Errorf("the claim message carries no link: %s", detail)
	}

	var wait string
	if err := d.Read.QueryRow(`SELECT id FROM appointment_waits WHERE client_id = ?`, w.mariaID).Scan(&wait); err != nil {
		t.Fatal(err)
	}
	wantRedirect(t, c.post(t, "/bookings/waitlist/"+wait+"/remove", nil), "/bookings/waitlist")
	wantBody(t, c.get(t, "/bookings/waitlist"), `data-testid="apptwait-empty"`)
	wantStatus(t, c.post(t, "/bookings/waitlist/999999/remove", nil), http.StatusNotFound)
}
