package admin_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"frontdesk/app/catalog"
	"frontdesk/app/staff"
)

// A provider account sees its own bookings and their clients only: in the lists, the day view,
// the client search and the booking filter, and by direct URL — plain and htmx — another
// provider's booking or client is a 404, as if it did not exist.
func TestProviderSeesOnlyOwnBookings(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	book := func(provider, client, clock string) string {
		t.Helper()
		res := c.post(t, "/bookings", w.booking(provider, client, clock))
		if res.Status != http.StatusSeeOther {
			t.Fatalf("create booking: got %d; body:\n%.2000s", res.Status, res.Body)
		}
		var id int64
		if err := d.Read.QueryRow(`SELECT max(id) FROM bookings`).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(id)
	}
	mine := book(w.Ana, w.Maria, "09:00")
	theirs := book(w.Bruno, w.Pedro, "10:00")
	ana := addStaff(t, ts, d, "ana@example.com", staff.RoleProvider, mustID(t, w.Ana))

	htmx := func(path string) response {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, ts.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("HX-Request", "true")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		return ana.do(t, req)
	}
	lacks := func(res response, what ...string) {
		t.Helper()
		for _, s := range what {
			if strings.Contains(res.Body, s) {
				t.Errorf("the page shows %q to another provider's account:\n%.3000s", s, res.Body)
			}
		}
	}

	list := ana.get(t, "/bookings?from="+w.Day)
	wantStatus(t, list, http.StatusOK)
	wantBody(t, list, "Maria")
	lacks(list, "Pedro", "Bruno")
	lacks(ana.get(t, "/bookings?provider="+w.Bruno+"&from="+w.Day), "Pedro")
	lacks(ana.get(t, "/bookings?client="+w.Pedro), "Pedro")
	lacks(ana.get(t, "/bookings?client_q=Pedro"), "Diaz", "/bookings?client="+w.Pedro)
	day := ana.get(t, w.dayPath())
	wantStatus(t, day, http.StatusOK)
	wantBody(t, day, "Maria")
	lacks(day, "Pedro", "Bruno", "Carla")
	lacks(htmx(w.dayPath()), "Pedro", "Bruno")

	wantStatus(t, ana.get(t, "/bookings/"+mine), http.StatusOK)
	wantBody(t, ana.get(t, "/bookings/"+mine), `data-testid="attendance-form"`)
	for _, path := range []string{"/bookings/" + theirs, "/clients/" + w.Pedro} {
		wantStatus(t, ana.get(t, path), http.StatusNotFound)
		wantStatus(t, htmx(path), http.StatusNotFound)
	}
	wantStatus(t, ana.post(t, "/bookings/"+theirs+"/status", url.Values{"status": {"3"}}), http.StatusNotFound)

	clients := ana.get(t, "/clients")
	wantStatus(t, clients, http.StatusOK)
	wantBody(t, clients, "Maria")
	lacks(clients, "Pedro", `data-testid="new-client"`)
	lacks(ana.get(t, "/clients?q=Pedro"), "Diaz")
	lacks(htmx("/clients?q=Ped"), "Diaz")
	lacks(ana.get(t, "/bookings"), `href="/bookings/new"`)
	maria := ana.get(t, "/clients/"+w.Maria)
	wantStatus(t, maria, http.StatusOK)
	wantBody(t, maria, "Maria", `data-testid="provider-client"`)
	lacks(maria, "maria@example.com") // name and phone only

	// Marking attendance is theirs; changing or cancelling is not.
	wantRedirect(t, ana.post(t, "/bookings/"+mine+"/status", url.Values{"status": {"3"}}), "/bookings/"+mine)
	var status int
	if err := d.Read.QueryRow(`SELECT status_id FROM bookings WHERE id = ?`, mine).Scan(&status); err != nil || status != 3 {
		t.Errorf("status after marking attended: %d (%v), want 3", status, err)
	}
	wantStatus(t, ana.post(t, "/bookings/"+mine+"/status", url.Values{"status": {"5"}}), http.StatusUnprocessableEntity)
	wantStatus(t, ana.post(t, "/bookings/"+mine+"/cancel", nil), http.StatusForbidden)

	// Their own time off only while the owner allows it, and never another provider's.
	wantStatus(t, ana.get(t, "/catalog/providers/"+w.Ana), http.StatusForbidden)
	wantRedirect(t, c.post(t, "/settings/team/settings", url.Values{"providers_edit_own_hours": {"1"}}), "/settings/team")
	own := ana.get(t, "/catalog/providers/"+w.Ana)
	wantStatus(t, own, http.StatusOK)
	wantBody(t, own, `action="/catalog/providers/`+w.Ana+`/hours"`)
	lacks(own, `name="public_name"`, `name="service_ids"`)
	hours := url.Values{catalog.HoursField(mustID(t, w.Location), 1): {"10:00-16:00"}}
	wantRedirect(t, ana.post(t, "/catalog/providers/"+w.Ana+"/hours", hours), "/catalog/providers/"+w.Ana)
	var open int
	if err := d.Read.QueryRow(`SELECT open_min FROM provider_hours WHERE provider_id = ? AND day_id = 1`, w.Ana).Scan(&open); err != nil || open != 600 {
		t.Errorf("Monday opens at minute %d (%v) after the provider's change, want 600", open, err)
	}
	var name string
	if err := d.Read.QueryRow(`SELECT public_name FROM providers WHERE id = ?`, w.Ana).Scan(&name); err != nil || name != "Ana" {
		t.Errorf("the provider's name became %q (%v) after saving hours, want Ana", name, err)
	}
	wantStatus(t, ana.post(t, "/catalog/providers/"+w.Bruno+"/hours", hours), http.StatusNotFound)
	wantStatus(t, ana.post(t, "/catalog/providers/"+w.Ana, url.Values{"public_name": {"Boss"}}), http.StatusForbidden)
	wantStatus(t, ana.get(t, "/catalog/providers/"+w.Bruno), http.StatusNotFound)
	wantStatus(t, ana.post(t, "/catalog/providers/"+w.Bruno+"/time-off", url.Values{"from": {w.Day}}), http.StatusNotFound)

	// The navigation offers only what the role may use.
	nav := ana.get(t, "/schedule")
	lacks(nav, `href="/catalog/services"`, `href="/payments"`, `href="/settings/business"`)
	wantBody(t, nav, `href="/bookings"`, `href="/clients"`)
}
