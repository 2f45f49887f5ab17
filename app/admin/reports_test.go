package admin_test

import (
	"encoding/xml"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"frontdesk/app/staff"
)

// seedReport adds to the booking world, over the last 30 days in its zone, bookings of every
// outcome and a paid sale, and returns the custom range's query covering them.
func seedReport(t *testing.T, ts *testServer) (bookingWorld, string) {
	t.Helper()
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	exec := func(query string, args ...any) int64 {
		t.Helper()
		res, err := d.Write.Exec(query, args...)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		id, _ := res.LastInsertId()
		return id
	}
	// Long names, as real teams have, must not widen a phone's page (charts' labels, tables).
	for i := range 3 {
		p := exec(`INSERT INTO providers (public_name, location_id, created_at, updated_at) VALUES (?, ?, 0, 0)`,
			"Provider with a rather long name for a phone screen "+strings.Repeat("x", i), w.norteID)
		exec(`INSERT INTO provider_locations (provider_id, location_id) VALUES (?, ?)`, p, w.norteID)
		exec(`INSERT INTO provider_hours (provider_id, location_id, day_id, open_min, close_min) VALUES (?, ?, 2, 600, 900)`, p, w.norteID)
	}
	now := time.Now().In(w.zone)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, w.zone)
	for i, status := range []int{3, 3, 4, 5, 1} {
		start := today.AddDate(0, 0, -(i*3 + 1)).Add(10 * time.Hour)
		end := start.Add(30 * time.Minute)
		id := exec(`INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at, block_start_at,
			block_end_at, price_cents, list_price_cents, cancelled_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 2500, 2500, ?, 0, 0)`,
			w.norteID, w.serviceID, w.anaID, w.mariaID, status, start.UnixMilli(), end.UnixMilli(), start.UnixMilli(), end.UnixMilli(),
			map[bool]any{true: "client", false: nil}[status == 5])
		if i == 0 {
			cart := exec(`INSERT INTO carts (uuid, client_id, location_id, created_at, updated_at, expires_at) VALUES ('rc', ?, ?, 0, 0, 0)`, w.mariaID, w.norteID)
			exec(`INSERT INTO cart_items (cart_id, item_id, item_type, quantity, unit_price_cents) VALUES (?, ?, 'service', 1, 2500)`, cart, w.serviceID)
			paid := end.UnixMilli()
			sale := exec(`INSERT INTO sales (cart_id, client_id, location_id, status, paid_cents, paid_at, created_at, updated_at)
				VALUES (?, ?, ?, 'paid', 2500, ?, ?, ?)`, cart, w.mariaID, w.norteID, paid, paid, paid)
			exec(`INSERT INTO transactions (sale_id, amount_cents, payment_method_id, paid_at, created_at) VALUES (?, 2500, 1, ?, ?)`, sale, paid, paid)
			exec(`UPDATE bookings SET sale_id = ? WHERE id = ?`, sale, id)
		}
	}
	q := url.Values{"range": {"custom"}, "from": {today.AddDate(0, 0, -29).Format("2006-01-02")}, "to": {today.Format("2006-01-02")}}
	return w, "/reports?" + q.Encode()
}

// svgs are the page's charts.
var svgs = regexp.MustCompile(`(?s)<svg[ >].*?</svg>`)

// TestReportsPage: the figures reach the page, every chart is well-formed SVG with a title, a
// description and a table behind it, and nothing is loaded from anywhere; bad input is a form
// error, never a 500.
func TestReportsPage(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	_, path := seedReport(t, ts)
	res := c.get(t, path)
	if res.Status != http.StatusOK {
		t.Fatalf("GET %s: %d\n%s", path, res.Status, res.Body)
	}
	for _, want := range []string{`data-testid="card-net"`, "$25.00", "Cancelled by the client", "Net takings by day", "Utilisation by provider"} {
		if !strings.Contains(res.Body, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	charts := svgs.FindAllString(res.Body, -1)
	if len(charts) != 4 {
		t.Fatalf("%d charts, want 4 (money, outcomes, top services, utilisation)", len(charts))
	}
	for i, svg := range charts {
		checkSVG(t, i, svg)
	}
	if n := strings.Count(res.Body, `<div class="visually-hidden"><table>`); n != len(charts) {
		t.Errorf("%d tables behind %d charts", n, len(charts))
	}

	for _, bad := range []struct {
		query  url.Values
		status int
	}{
		{url.Values{"range": {"custom"}, "from": {"2026-02-30"}, "to": {"2026-03-01"}}, http.StatusUnprocessableEntity},
		{url.Values{"range": {"custom"}, "from": {"2026-03-02"}, "to": {"2026-03-01"}}, http.StatusUnprocessableEntity},
		{url.Values{"range": {"custom"}, "from": {"2016-03-02"}, "to": {"2026-03-01"}}, http.StatusUnprocessableEntity},
		{url.Values{"range": {"forever"}}, http.StatusNotFound},
		{url.Values{"location": {"999"}}, http.StatusNotFound},
	} {
		res := c.get(t, "/reports?"+bad.query.Encode())
		if res.Status != bad.status {
			t.Errorf("%v: %d, want %d", bad.query, res.Status, bad.status)
		}
		if bad.status == http.StatusUnprocessableEntity && strings.Contains(res.Body, "<svg") {
			t.Errorf("%v: charts drawn for a refused range", bad.query)
		}
	}

	// In Spanish: the catalog's words, the language's separators.
	if res := c.post(t, "/account/language", url.Values{"language": {"es"}}); res.Status != http.StatusSeeOther {
		t.Fatalf("language: %d", res.Status)
	}
	es := c.get(t, path)
	for _, want := range []string{"Ingresos netos por día", "Cancelada por el cliente", "Ocupación por profesional"} {
		if !strings.Contains(es.Body, want) {
			t.Errorf("the Spanish page lacks %q", want)
		}
	}
	for i, svg := range svgs.FindAllString(es.Body, -1) {
		checkSVG(t, i, svg)
	}
}

// checkSVG parses a chart with encoding/xml and refuses any reference to another resource.
func checkSVG(t *testing.T, i int, svg string) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(svg))
	var title, desc bool
	depth := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("chart %d is not well-formed: %v\n%s", i, err, svg)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			depth++
			if depth == 2 && el.Name.Local == "title" {
				title = true
			}
			if depth == 2 && el.Name.Local == "desc" {
				desc = true
			}
			for _, a := range el.Attr {
				v := strings.ToLower(a.Value)
				if a.Name.Local == "href" || a.Name.Local == "src" || a.Name.Local == "style" || strings.Contains(v, "url(") ||
					(strings.Contains(v, "//") && a.Name.Local != "xmlns") {
					t.Errorf("chart %d: %s=%q refers elsewhere", i, a.Name.Local, a.Value)
				}
			}
			switch el.Name.Local {
			case "image", "use", "foreignObject", "script", "a", "style":
				t.Errorf("chart %d has a <%s>", i, el.Name.Local)
			}
		case xml.EndElement:
			depth--
		}
	}
	if !title || !desc {
		t.Errorf("chart %d: title %v, desc %v", i, title, desc)
	}
	if !strings.Contains(svg, `role="img"`) || !strings.Contains(svg, "aria-labelledby=") {
		t.Errorf("chart %d is not an image named by its title", i)
	}
}

// TestReportsRoles: owners and managers read the reports; reception and providers get 403 and
// no link in the navigation.
func TestReportsRoles(t *testing.T) {
	ts := startServer(t)
	owner := ts.setupOwner(t)
	w, path := seedReport(t, ts)
	d := openBookingDB(t, ts)
	for _, c := range []struct {
		role   staff.Role
		client *client
		status int
	}{
		{staff.RoleOwner, owner, http.StatusOK},
		{staff.RoleManager, addStaff(t, ts, d, "manager@example.com", staff.RoleManager, 0), http.StatusOK},
		{staff.RoleReception, addStaff(t, ts, d, "reception@example.com", staff.RoleReception, 0), http.StatusForbidden},
		{staff.RoleProvider, addStaff(t, ts, d, "ana@example.com", staff.RoleProvider, w.anaID), http.StatusForbidden},
	} {
		if res := c.client.get(t, path); res.Status != c.status {
			t.Errorf("%s: GET %s = %d, want %d", c.role, path, res.Status, c.status)
		}
		home := c.client.get(t, "/")
		if got := strings.Contains(home.Body, `href="/reports"`); got != (c.status == http.StatusOK) {
			t.Errorf("%s: navigation link to Reports shown %v", c.role, got)
		}
	}
}

// TestReportsInBrowser: at 390 px the page does not scroll sideways and axe-core finds
// nothing, in English and in Spanish, and the browser requests nothing from another origin.
func TestReportsInBrowser(t *testing.T) {
	ts := startServer(t)
	ts.setupOwner(t)
	_, path := seedReport(t, ts)
	axe, err := os.ReadFile("testdata/axe-4.11.0.min.js")
	if err != nil {
		t.Fatal(err)
	}
	phone := newBrowser(t, 390, 844, chromedp.EmulateMobile)
	requests := watchOrigins(t, phone)
	visit(t, phone, ts.URL+"/login")
	phone.do("signed-in", chromedp.SendKeys(css("#f-email"), ownerEmail), chromedp.SendKeys(css("#f-password"), ownerPassword),
		chromedp.Submit(testID("login-form")), chromedp.WaitNotPresent(testID("login-form")), chromedp.WaitVisible(css("main h1")))
	for _, lang := range []string{"en", "es"} {
		if lang == "es" {
			visit(t, phone, ts.URL+"/account")
			phone.do("spanish", chromedp.SetValue(css("#f-language"), "es"), chromedp.Submit(css("#f-language")),
				chromedp.WaitVisible(css(`html[lang="es"]`)))
		}
		visit(t, phone, ts.URL+path)
		if n := evalJS[int](phone, `document.querySelectorAll("figure.report-chart svg").length`); n != 4 {
			t.Errorf("%s: %d charts drawn", lang, n)
		}
		if w := evalJS[int](phone, `Math.round(document.querySelector("figure.report-chart svg").getBoundingClientRect().width)`); w < 200 || w > 390 {
			t.Errorf("%s: the money chart is %d px wide on a 390 px screen", lang, w)
		}
		checkPage(t, phone, axe, lang+" "+path)
	}
	requests.check(t, ts.URL)
}
