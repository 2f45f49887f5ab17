package admin_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestResourcePages: the owner adds a resource, is refused a bad quantity, edits it, makes a
// service require it; a second booking at the same time fills a room of one, the booking form
// refuses a third naming the room, the day view by resource shows the room's column with its
// bookings, and deleting the room frees the time.
func TestResourcePages(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	wantBody(t, c.get(t, "/catalog/resources"), "No resources yet.")

	res := c.post(t, "/catalog/resources", url.Values{"location_id": {w.Location}, "name": {"Room"}, "kind": {"room"}, "quantity": {"0"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-quantity"`)
	wantRedirect(t, c.post(t, "/catalog/resources", url.Values{"location_id": {w.Location}, "name": {"Room"}, "kind": {"room"}, "quantity": {"3"}}), "/catalog/resources")
	res = c.post(t, "/catalog/resources", url.Values{"location_id": {w.Location}, "name": {"Room"}, "kind": {"room"}, "quantity": {"1"}})
	wantStatus(t, res, http.StatusUnprocessableEntity) // one name per location
	list := c.get(t, "/catalog/resources")
	id := between(list.Body, `href="/catalog/resources/`, `"`)
	wantRedirect(t, c.post(t, "/catalog/resources/"+id, url.Values{"name": {"Room"}, "kind": {"room"}, "quantity": {"1"}}), "/catalog/resources")
	wantBody(t, c.get(t, "/catalog/resources"), `data-testid="resource-quantity">1<`)

	wantBody(t, c.get(t, "/catalog/services/"+w.Service), `href="/catalog/services/`+w.Service+`/resources"`)
	wantRedirect(t, c.post(t, "/catalog/services/"+w.Service+"/resources", url.Values{"resources": {id}}), "/catalog/services/"+w.Service)
	wantStatus(t, c.post(t, "/catalog/services/"+w.Service+"/resources", url.Values{"resources": {"999"}}), http.StatusUnprocessableEntity)
	wantBody(t, c.get(t, "/catalog/services/"+w.Service+"/resources"), `value="`+id+`" checked`)

	wantRedirect(t, c.post(t, "/bookings", w.booking(w.Ana, w.Maria, "10:00")), w.dayPath())
	res = c.post(t, "/bookings", w.booking(w.Bruno, w.Pedro, "10:00"))
	if res.Status == http.StatusSeeOther {
		t.Fatal("a second booking took the only room")
	}
	wantBody(t, res, "Room")

	day := c.get(t, "/bookings/day?"+url.Values{"location": {w.Location}, "date": {w.Day}, "by": {"resources"}}.Encode())
	wantBody(t, day, `data-testid="day-resource"`, "Room ×1", `data-testid="view-providers"`)
	if strings.Count(day.Body, `data-testid="day-booking"`) != 1 || strings.Contains(day.Body, `data-provider=`) {
		t.Errorf("the day by resource should show the room's one booking and no provider columns:\n%.3000s", day.Body)
	}
	wantBody(t, c.get(t, w.dayPath()), `data-testid="view-resources"`)

	wantRedirect(t, c.post(t, "/catalog/resources/"+id+"/delete", nil), "/catalog/resources")
	wantRedirect(t, c.post(t, "/bookings", w.booking(w.Bruno, w.Pedro, "10:00")), w.dayPath())
}

// TestVisitForm: the owner gives the colour a processing time on its page, then books a haircut
// then a colour for one client on the visit form; both are booked back to back (the colour in
// two parts), and the same visit again is refused whole, nothing written.
func TestVisitForm(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	if _, err := d.Write.Exec(`INSERT INTO services (uuid, name, duration_min, price_cents, created_at, updated_at) VALUES ('colour', 'Colour', 60, 100, 1, 1)`); err != nil {
		t.Fatal(err)
	}
	var colour string
	if err := d.Read.QueryRow(`SELECT id FROM services WHERE uuid = 'colour'`).Scan(&colour); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Write.Exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (?, ?)`, colour, w.anaID); err != nil {
		t.Fatal(err)
	}
	// The colour's processing time and add-on, set on its page.
	wantStatus(t, c.post(t, "/catalog/services/"+colour+"/visit", url.Values{"after_min": {"20"}, "processing_min": {"50"}}), http.StatusUnprocessableEntity)
	wantRedirect(t, c.post(t, "/catalog/services/"+colour+"/visit", url.Values{"after_min": {"20"}, "processing_min": {"30"}, "add_ons": {w.Service}}), "/catalog/services/"+colour)
	wantBody(t, c.get(t, "/catalog/services/"+colour+"/visit"), `value="20"`, `value="30"`, `value="`+w.Service+`" checked`)
	var after, length int
	if err := d.Read.QueryRow(`SELECT after_min, processing_min FROM service_processing WHERE service_id = ?`, colour).Scan(&after, &length); err != nil || after != 20 || length != 30 {
		t.Fatalf("processing %d+%d (%v), want 20+30", after, length, err)
	}
	wantBody(t, c.get(t, "/bookings/visits/new"), `data-testid="visit-form"`)
	form := url.Values{"location": {w.Location}, "client": {w.Maria}, "date": {w.Day}, "time": {"10:00"},
		"service_1": {w.Service}, "provider_1": {w.Bruno}, "service_2": {colour}, "provider_2": {""}}
	res := c.post(t, "/bookings/visits", form)
	if res.Status != http.StatusSeeOther {
		t.Fatalf("book a visit: %d\n%.3000s", res.Status, res.Body)
	}
	var n int
	if err := d.Read.QueryRow(`SELECT count(*) FROM visit_bookings vb JOIN bookings b ON b.id = vb.booking_id WHERE b.provider_id IN (?, ?)`, w.brunoID, w.anaID).Scan(&n); err != nil || n != 3 {
		t.Fatalf("%d bookings in the visit (%v), want Bruno's haircut and Ana's colour in two parts", n, err)
	}
	form.Set("client", w.Pedro)
	res = c.post(t, "/bookings/visits", form)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	if err := d.Read.QueryRow(`SELECT count(*) FROM bookings`).Scan(&n); err != nil || n != 3 {
		t.Fatalf("%d bookings after a refused visit, want 3", n)
	}
}

// TestVisitFormPayOnline: with online payments set up, the visit form offers "the client pays
// online", which books every booking of the visit reserved for one payment request of its total
// (payments.ReserveVisit) and shows its checkout link; without them the choice is not offered,
// and posted anyway it is refused with nothing written.
func TestVisitFormPayOnline(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	form := url.Values{"location": {w.Location}, "client": {w.Maria}, "date": {w.Day}, "time": {"10:00"},
		"service_1": {w.Service}, "provider_1": {w.Bruno}, "service_2": {w.Service}, "provider_2": {w.Bruno}, "pay_online": {"1"}}
	if strings.Contains(c.get(t, "/bookings/visits/new").Body, `name="pay_online"`) {
		t.Fatal("the visit form offers online payment to a business that takes none")
	}
	res := c.post(t, "/bookings/visits", form)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, "Online payments are not turned on")
	var n int
	if err := d.Read.QueryRow(`SELECT count(*) FROM bookings`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d bookings after a refused visit (%v), want none", n, err)
	}

	if _, err := d.Write.Exec(`UPDATE company SET online_payments = 1`); err != nil {
		t.Fatal(err)
	}
	wantBody(t, c.get(t, "/bookings/visits/new"), `name="pay_online"`, "The client pays online")
	res = c.post(t, "/bookings/visits", form)
	if res.Status != http.StatusSeeOther {
		t.Fatalf("book a visit paid online: %d\n%.3000s", res.Status, res.Body)
	}
	var held, requests int
	if err := d.Read.QueryRow(`SELECT count(*), count(DISTINCT payment_request_id) FROM bookings WHERE status_id = 2 AND payment_request_id IS NOT NULL`).Scan(&held, &requests); err != nil || held != 2 || requests != 1 {
		t.Fatalf("%d bookings reserved for %d payment requests (%v), want the visit's 2 for one", held, requests, err)
	}
	wantBody(t, c.get(t, res.Header.Get("Location")), "held until the client pays", "/pay/")
}
