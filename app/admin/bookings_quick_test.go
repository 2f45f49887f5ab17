package admin_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"frontdesk/db"
)

// seedUsualService adds a Color service (45 minutes, offered by Ana, Bruno and Carla) and
// gives Maria a history of three Colors and one Haircut a few weeks back: Color is her
// usual service. It returns Color's id as the forms send it.
func seedUsualService(t testing.TB, ts *testServer, w bookingWorld) string {
	t.Helper()
	d := openBookingDB(t, ts)
	ms := time.Now().UnixMilli()
	res, err := d.Write.Exec(`INSERT INTO services (uuid, name, duration_min, price_cents, created_at, updated_at) VALUES ('color', 'Color', 45, 4000, ?, ?)`, ms, ms)
	if err != nil {
		t.Fatal(err)
	}
	color, _ := res.LastInsertId()
	for _, p := range []int64{w.anaID, w.brunoID, w.carlaID} {
		if _, err := d.Write.Exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (?, ?)`, color, p); err != nil {
			t.Fatal(err)
		}
	}
	for i, svc := range []int64{color, color, w.serviceID, color} {
		start := time.Now().Add(-time.Duration(20+7*i) * 24 * time.Hour).UnixMilli()
		end := start + 30*60*1000
		if _, err := d.Write.Exec(`INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at, block_start_at, block_end_at, price_cents, list_price_cents, source, created_at, updated_at)
			VALUES (?, ?, ?, ?, 3, ?, ?, ?, ?, 2500, 2500, 'admin', ?, ?)`, w.norteID, svc, w.anaID, w.mariaID, start, end, start, end, ms, ms); err != nil {
			t.Fatal(err)
		}
	}
	return strconv.FormatInt(color, 10)
}

// count is the number of rows of a table.
func tableRows(t testing.TB, d *db.DB, table string) int {
	t.Helper()
	var n int
	if err := d.Read.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The quick form from an empty time: every calendar view links to it with the time filled in;
// the client search answers with a fragment of links (htmx) and, without JavaScript, on the
// page itself; a returning client's usual service comes first and is chosen; a new client is
// created with their booking in one write — a refusal of either leaves no client and no
// booking.
func TestQuickBookingOneWrite(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	color := seedUsualService(t, ts, w)

	slot := url.Values{"location": {w.Location}, "provider": {w.Ana}, "date": {w.Day}, "time": {"10:00"}, "service": {w.Service}}
	week := c.get(t, "/bookings/week?"+url.Values{"location": {w.Location}, "date": {w.Day}}.Encode())
	link := "/bookings/quick?" + url.Values{"date": {w.Day}, "location": {w.Location}, "provider": {w.Ana}}.Encode()
	wantBody(t, week, `href="`+strings.ReplaceAll(link, "&", "&amp;")+`"`)
	wantBody(t, c.get(t, "/bookings/agenda?"+url.Values{"location": {w.Location}, "date": {w.Day}}.Encode()), `href="`+strings.ReplaceAll(link, "&", "&amp;")+`"`)
	wantBody(t, c.get(t, w.dayPath()), `href="/bookings/quick?date=`+w.Day)

	form := c.get(t, "/bookings/quick?"+slot.Encode())
	wantStatus(t, form, http.StatusOK)
	wantBody(t, form, `<option value="`+w.Ana+`" selected>`, `name="date" type="date" value="`+w.Day+`"`, `value="10:00"`,
		`hx-get="/bookings/quick/clients"`, `data-testid="quick-new-client"`)

	// The search fragment: links that choose the client, the slot kept.
	frag := c.get(t, "/bookings/quick/clients?"+url.Values{"client_q": {"lopez"}, "location": {w.Location}, "provider": {w.Ana}, "date": {w.Day}, "time": {"10:00"}}.Encode())
	wantStatus(t, frag, http.StatusOK)
	if strings.Contains(frag.Body, "<html") || !strings.Contains(frag.Body, `data-testid="quick-client-link"`) {
		t.Fatalf("the search fragment is not the list alone:\n%.1500s", frag.Body)
	}
	wantBody(t, frag, "Maria Lopez · maria@example.com", "client="+w.Maria, "time=10%3A00")
	if strings.Contains(frag.Body, "Pedro") {
		t.Error("searching for lopez lists Pedro")
	}
	wantBody(t, c.get(t, "/bookings/quick/clients?client_q=nobody-here"), `data-testid="quick-no-client"`)
	// Without JavaScript the same search reloads the page; one match is chosen.
	nojs := c.get(t, "/bookings/quick?"+url.Values{"client_q": {"maria"}, "location": {w.Location}, "provider": {w.Ana}, "date": {w.Day}, "time": {"10:00"}}.Encode())
	wantBody(t, nojs, `data-testid="quick-client">Maria Lopez · maria@example.com<`)

	// Maria's usual service (Color, three of her four visits) is first and chosen, whatever
	// service the time came with.
	chosen := slot
	chosen.Set("client", w.Maria)
	picked := c.get(t, "/bookings/quick?"+chosen.Encode())
	services := between(picked.Body, `id="f-service"`, "</select>")
	if i, j := strings.Index(services, "Color"), strings.Index(services, "Haircut"); i < 0 || j < 0 || i > j {
		t.Errorf("the usual service is not listed first: %s", services)
	}
	if !strings.Contains(services, `<option value="`+color+`" selected>Color (45 min) · usual</option>`) {
		t.Errorf("the usual service is not chosen: %s", services)
	}

	clients0, bookings0 := tableRows(t, d, "clients"), tableRows(t, d, "bookings")
	newCaller := func(provider, clock, email string) url.Values {
		return url.Values{"location": {w.Location}, "service": {w.Service}, "provider": {provider}, "date": {w.Day}, "time": {clock},
			"first_name": {"Rosa"}, "last_name": {"Diaz"}, "phone": {"+56933334444"}, "email": {email}}
	}
	// Bruno is taken at 11:00: a valid new client with a refused time writes nothing.
	if res := c.post(t, "/bookings", w.booking(w.Bruno, w.Pedro, "11:00")); res.Status != http.StatusSeeOther {
		t.Fatalf("booking Bruno at 11:00: got %d", res.Status)
	}
	bookings0++
	for name, tc := range map[string]struct {
		form url.Values
		want string
	}{
		"time taken":    {newCaller(w.Bruno, "11:00", "rosa@example.com"), "Pedro Diaz"},
		"bad email":     {newCaller(w.Ana, "10:00", "rosa@"), `data-testid="error-email"`},
		"no client":     {url.Values{"location": {w.Location}, "service": {w.Service}, "provider": {w.Ana}, "date": {w.Day}, "time": {"10:00"}}, "Find the client, or type a new client"},
		"bad time":      {newCaller(w.Ana, "25:99", "rosa@example.com"), `data-testid="error-time"`},
		"no such staff": {newCaller("999999", "10:00", "rosa@example.com"), `data-testid="form-error"`},
	} {
		t.Run(name, func(t *testing.T) {
			res := c.post(t, "/bookings/quick", tc.form)
			wantStatus(t, res, http.StatusUnprocessableEntity)
			wantBody(t, res, tc.want)
			if tc.form.Has("first_name") {
				wantBody(t, res, `value="Rosa"`) // what was typed is kept
			}
			if got := tableRows(t, d, "clients"); got != clients0 {
				t.Errorf("%d clients after a refused quick booking, want %d", got, clients0)
			}
			if got := tableRows(t, d, "bookings"); got != bookings0 {
				t.Errorf("%d bookings after a refused quick booking, want %d", got, bookings0)
			}
		})
	}

	res := c.post(t, "/bookings/quick", newCaller(w.Ana, "10:00", "rosa@example.com"))
	if res.Status != http.StatusSeeOther {
		t.Fatalf("quick booking a new caller: got %d\n%.3000s", res.Status, res.Body)
	}
	var client int64
	var first string
	if err := d.Read.QueryRow(`SELECT c.id, c.first_name FROM bookings b JOIN clients c ON c.id = b.client_id ORDER BY b.id DESC LIMIT 1`).Scan(&client, &first); err != nil {
		t.Fatal(err)
	}
	if first != "Rosa" || tableRows(t, d, "clients") != clients0+1 || tableRows(t, d, "bookings") != bookings0+1 {
		t.Errorf("after the quick booking: the last booking's client is %q; %d clients, %d bookings; want Rosa, %d, %d",
			first, tableRows(t, d, "clients"), tableRows(t, d, "bookings"), clients0+1, bookings0+1)
	}
}
