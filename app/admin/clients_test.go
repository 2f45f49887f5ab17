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

// seedAttributes writes one custom attribute template per datatype (Hair type, categoric, is
// mandatory) and a location in Santiago, whose zone datetime values are typed in.
func seedAttributes(t *testing.T, ts *testServer) map[string]string {
	t.Helper()
	d := openBookingDB(t, ts)
	ms := time.Now().UnixMilli()
	for _, q := range []string{
		`INSERT INTO countries (id, code, name) VALUES (1, 'CL', 'Chile')`,
		fmt.Sprintf(`INSERT INTO locations (uuid, name, timezone, country_id, created_at, updated_at) VALUES ('c', 'Centro', 'America/Santiago', 1, %d, %d)`, ms, ms),
		`INSERT INTO custom_attributes (id, name, datatype, sort_order, mandatory) VALUES
			(1, 'Newsletter', 'boolean', 1, 0), (2, 'Hair type', 'categoric', 2, 1), (3, 'First visit', 'date', 3, 0),
			(4, 'Last call', 'datetime', 4, 0), (5, 'Visits', 'integer', 5, 0), (6, 'Balance', 'float', 6, 0),
			(7, 'Stylist', 'text', 7, 0), (8, 'Allergies', 'textarea', 8, 0)`,
		`INSERT INTO attribute_options (attribute_id, label, sort_order) VALUES (2, 'Curly', 1), (2, 'Straight', 2)`,
	} {
		if _, err := d.Write.Exec(q); err != nil {
			t.Fatalf("%v\n%s", err, q)
		}
	}
	return map[string]string{"boolean": "attr_1", "categoric": "attr_2", "date": "attr_3", "datetime": "attr_4",
		"integer": "attr_5", "float": "attr_6", "text": "attr_7", "textarea": "attr_8"}
}

func clientForm() url.Values {
	return url.Values{
		"first_name": {"Ana"}, "last_name": {"Diaz"}, "email": {"Ana@Example.com"}, "phone": {"+56987654321"},
		"gender": {"1"}, "birth_day": {"29"}, "birth_month": {"2"}, "city": {"Valparaíso"}, "record_number": {"R-1"},
		"attr_1": {"1"}, "attr_2": {"straight"}, "attr_3": {"2026-12-01"}, "attr_4": {"2026-12-01T10:30"},
		"attr_5": {"7"}, "attr_6": {"1.5"}, "attr_7": {"Bea"}, "attr_8": {"Latex\r\nNuts"},
	}
}

// storedAttributes reads a client's attribute values by template id.
func storedAttributes(t *testing.T, ts *testServer, id string) map[int]string {
	t.Helper()
	rows, err := openBookingDB(t, ts).Read.Query(`SELECT attribute_id, value FROM client_attribute_values WHERE client_id = ?`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int]string{}
	for rows.Next() {
		var k int
		var v string
		if err := rows.Scan(&k, &v); err != nil {
			t.Fatal(err)
		}
		out[k] = v
	}
	return out
}

func TestClientCreateEditDeactivate(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	seedAttributes(t, ts)

	blank := c.get(t, "/clients/new")
	wantStatus(t, blank, http.StatusOK)
	wantBody(t, blank, `name="attr_1" value="1"`, `<select id="f-attr_2" name="attr_2" required`, `<option value="Curly">Curly</option>`,
		`name="attr_3" type="date"`, `name="attr_4" type="datetime-local"`, `name="attr_5" type="number"`, `step="any"`,
		`<textarea id="f-attr_8"`, "Local time in America/Santiago.")

	t.Run("invalid", func(t *testing.T) {
		tests := []struct {
			name  string
			edit  func(url.Values)
			wants []string
		}{
			{"no first name", func(f url.Values) { f.Set("first_name", " ") }, []string{`data-testid="error-first_name">This field is required.<`}},
			{"bad email and phone", func(f url.Values) { f.Set("email", "nope"); f.Set("phone", "123") },
				[]string{`data-testid="error-email">Enter a valid email address, like name@example.com.<`, `data-testid="error-phone"`, "Please correct the 2 fields marked below."}},
			{"only a first name", func(f url.Values) { f.Del("last_name"); f.Del("email"); f.Del("phone") },
				[]string{`data-testid="error-last_name">Enter a last name, an email or a phone.<`}},
			{"30 February", func(f url.Values) { f.Set("birth_day", "30") }, []string{"Month 2 has no day 30."}},
			{"age not a number", func(f url.Values) { f.Set("age", "ten") }, []string{`data-testid="error-age">Enter a whole number.<`}},
			{"mandatory attribute", func(f url.Values) { f.Set("attr_2", "") }, []string{`data-testid="error-attr_2">Hair type is required.<`}},
			{"unknown option", func(f url.Values) { f.Set("attr_2", "Wavy") }, []string{"Choose one of: Curly, Straight."}},
			{"bad date", func(f url.Values) { f.Set("attr_3", "1 Dec") }, []string{`data-testid="error-attr_3"`}},
			{"bad datetime", func(f url.Values) { f.Set("attr_4", "tomorrow") }, []string{`data-testid="error-attr_4"`}},
			{"bad integer", func(f url.Values) { f.Set("attr_5", "7.5") }, []string{`data-testid="error-attr_5">Enter a whole number.<`}},
			{"bad float", func(f url.Values) { f.Set("attr_6", "NaN") }, []string{`data-testid="error-attr_6">Enter a number.<`}},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				form := clientForm()
				form.Set("city", "Kept <city>")
				tc.edit(form)
				res := c.post(t, "/clients", form)
				wantStatus(t, res, http.StatusUnprocessableEntity)
				wantBody(t, res, append(tc.wants, `data-testid="form-error"`, `value="Kept &lt;city&gt;"`)...)
			})
		}
	})

	res := c.post(t, "/clients", clientForm())
	if res.Status != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/clients/") {
		t.Fatalf("create: got %d to %q, want 303 to the client", res.Status, res.Header.Get("Location"))
	}
	path := res.Header.Get("Location")
	id := strings.TrimPrefix(path, "/clients/")
	page := c.get(t, path)
	wantBody(t, page, "Client “Ana Diaz” created.", `value="ana@example.com"`, `value="R-1"`, `<option value="1" selected>Female</option>`,
		`name="attr_1" value="1" checked`, `<option value="Straight" selected>Straight</option>`, `value="2026-12-01T10:30"`,
		`value="7"`, `value="1.5"`, ">Latex\nNuts</textarea>", `href="/bookings?client=`+id+`"`)
	want := map[int]string{1: "true", 2: "Straight", 3: "2026-12-01", 4: "2026-12-01T10:30:00-03:00", 5: "7", 6: "1.5", 7: "Bea", 8: "Latex\nNuts"}
	if got := storedAttributes(t, ts, id); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("stored attributes %v, want %v", got, want)
	}

	t.Run("duplicate record number", func(t *testing.T) {
		form := clientForm()
		form.Set("first_name", "Other")
		res := c.post(t, "/clients", form)
		wantStatus(t, res, http.StatusUnprocessableEntity)
		wantBody(t, res, `data-testid="error-record_number">Another client already has this record number.<`)
	})

	// Editing: untick the boolean (stored as false), clear a text, change the email.
	form := clientForm()
	form.Del("attr_1")
	form.Set("attr_7", "")
	form.Set("email", "ana.diaz@example.com")
	wantRedirect(t, c.post(t, path, form), path)
	wantBody(t, c.get(t, path), "Client “Ana Diaz” saved.", `value="ana.diaz@example.com"`)
	want[1] = "false"
	delete(want, 7)
	if got := storedAttributes(t, ts, id); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("stored attributes after the edit %v, want %v", got, want)
	}
	wantRedirect(t, c.post(t, path, form), path) // saved again unchanged: no event
	d := openBookingDB(t, ts)
	if got, want := eventTypes(t, d), []string{"client.created", "client.updated"}; !slices.Equal(got, want) {
		t.Errorf("got events %v, want %v", got, want)
	}

	confirm := c.get(t, path+"/deactivate")
	wantStatus(t, confirm, http.StatusOK)
	wantBody(t, confirm, `data-testid="deactivate-name">Ana Diaz<`)
	wantRedirect(t, c.post(t, path+"/deactivate", nil), path)
	wantBody(t, c.get(t, path), "Client “Ana Diaz” deactivated.", `data-testid="reactivate-client"`)
	wantRedirect(t, c.post(t, path+"/deactivate", nil), path)
	wantBody(t, c.get(t, path), "This client is already deactivated.")
	if strings.Contains(c.get(t, "/clients").Body, "Ana Diaz") {
		t.Error("a deactivated client is in the list of active clients")
	}
	wantBody(t, c.get(t, "/clients?status=inactive"), "Ana Diaz")
	wantRedirect(t, c.post(t, path+"/reactivate", nil), path)
	wantBody(t, c.get(t, "/clients"), "Ana Diaz")
	if got, want := eventTypes(t, d), []string{"client.created", "client.updated", "client.updated", "client.updated"}; !slices.Equal(got, want) {
		t.Errorf("got events %v, want %v", got, want)
	}
}

func TestClientListSearchAndPages(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	d := openBookingDB(t, ts)
	for i := range 30 {
		if _, err := d.Write.Exec(`INSERT INTO clients (first_name, last_name, email, phone, record_number, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0, 0)`,
			fmt.Sprintf("Client%02d", i), "Zeta", fmt.Sprintf("c%02d@example.com", i), fmt.Sprintf("+5691000%04d", i), fmt.Sprintf("REC-%02d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.Write.Exec(`INSERT INTO clients (first_name, last_name, email, created_at, updated_at) VALUES ('María', 'López', 'maria@example.com', 0, 0)`); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query string
		rows  int
		wants []string
	}{
		{"", 25, []string{"Page 1 of 2 · 31 clients", `data-testid="next-page"`, "Client00"}},
		{"page=2", 6, []string{"Page 2 of 2", `data-testid="prev-page"`, "María López"}},
		{"q=maria", 1, []string{"María López"}},                 // diacritics ignored
		{"q=lóp", 1, []string{"María López"}},                   // any part of the name
		{"q=c07%40example", 1, []string{"Client07"}},            // email
		{"q=%2B56910000012", 1, []string{"Client12"}},           // phone
		{"q=rec-29", 1, []string{"Client29"}},                   // record number
		{"q=zz", 0, []string{"No clients found."}},              // short text
		{"q=l%C3%B3", 1, []string{"María López"}},               // short text, not ASCII
		{"q=%22%29+OR+1%3D1", 0, []string{"No clients found."}}, // search syntax is text
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			res := c.get(t, "/clients?"+tc.query)
			wantStatus(t, res, http.StatusOK)
			wantBody(t, res, tc.wants...)
			if n := strings.Count(res.Body, `data-testid="client-row"`); n != tc.rows {
				t.Errorf("got %d rows, want %d", n, tc.rows)
			}
		})
	}
}

// TestClientNameInert: a client named like markup is text on every page that shows them.
func TestClientNameInert(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	evil := `<img src=x onerror=alert(1)>`
	res := c.post(t, "/clients", url.Values{"first_name": {evil}, "last_name": {evil}, "gender": {"0"}})
	wantStatus(t, res, http.StatusSeeOther)
	path := res.Header.Get("Location")
	id := strings.TrimPrefix(path, "/clients/")
	wantRedirect(t, c.post(t, "/bookings", w.booking(w.Bruno, id, "15:00")), w.dayPath())
	booking := between(c.get(t, w.dayPath()).Body, `data-booking="`, `"`)

	pages := map[string]string{
		"client page with flash": path, "client list": "/clients?q=onerror", "deactivate": path + "/deactivate",
		"day view": w.dayPath(), "booking": "/bookings/" + booking, "booking list": "/bookings?client=" + id,
		"new booking": "/bookings/new?client=" + id, "cancel": "/bookings/" + booking + "/cancel",
	}
	for name, p := range pages {
		t.Run(name, func(t *testing.T) {
			res := c.get(t, p)
			wantStatus(t, res, http.StatusOK)
			wantBody(t, res, "&lt;img src=x onerror=alert(1)&gt;")
			if strings.Contains(res.Body, "<img src=x") {
				t.Errorf("%s contains raw markup", p)
			}
		})
	}
}
