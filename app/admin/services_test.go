package admin_test

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"frontdesk/db"
)

// Helpers shared by the catalog page tests.

// openDB opens the running server's database, to look at what a page wrote.
func openDB(t *testing.T, ts *testServer) *db.DB {
	t.Helper()
	d, err := db.Open(context.Background(), db.Path(ts.Data))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// linkID returns the id in the first link to prefix+id whose text is name (as typed; the page
// shows it escaped).
func linkID(t *testing.T, body, prefix, name string) string {
	t.Helper()
	re := regexp.MustCompile(`href="` + regexp.QuoteMeta(prefix) + `(\d+)"[^>]*>` + regexp.QuoteMeta(html.EscapeString(name)) + `<`)
	m := re.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no link to %s… named %q in:\n%.3000s", prefix, name, body)
	}
	return m[1]
}

// addLocation creates a location through its page and returns its id.
func addLocation(t *testing.T, c *client, name, zone string) string {
	t.Helper()
	form := url.Values{"name": {name}, "active": {"1"}, "timezone": {zone}, "country_code": {"CL"}, "hours_1": {"09:00-19:00"}}
	wantRedirect(t, c.post(t, "/catalog/locations", form), "/catalog/locations")
	return linkID(t, c.get(t, "/catalog/locations").Body, "/catalog/locations/", name)
}

// addCategory creates a category through its page and returns its id.
func addCategory(t *testing.T, c *client, name string) string {
	t.Helper()
	wantRedirect(t, c.post(t, "/catalog/categories", url.Values{"name": {name}, "order": {"1"}}), "/catalog/categories")
	return linkID(t, c.get(t, "/catalog/categories").Body, "/catalog/categories/", name)
}

func serviceForm(name string) url.Values {
	return url.Values{
		"name": {name}, "price": {"15000"}, "duration": {"45"}, "buffer_before": {"0"}, "buffer_after": {"0"},
		"capacity": {"1"}, "session_count": {"1"}, "online_booking": {"1"}, "active": {"1"},
		"online_payment_mode": {"NOT_AVAILABLE"}, "keywords": {"hair, cut"},
	}
}

// serviceEvents returns the data of every service.updated event in the outbox, oldest first.
func serviceEvents(t *testing.T, d *db.DB) []map[string]any {
	t.Helper()
	rows, err := d.Read.Query(`SELECT body FROM events WHERE type = 'service.updated' ORDER BY created_at, rowid`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []map[string]any
	for rows.Next() {
		var body []byte
		if err := rows.Scan(&body); err != nil {
			t.Fatal(err)
		}
		var e struct {
			Type string         `json:"type"`
			Data map[string]any `json:"data"`
		}
		if err := json.Unmarshal(body, &e); err != nil || e.Type != "service.updated" {
			t.Fatalf("event body %s: %v", body, err)
		}
		out = append(out, e.Data)
	}
	return out
}

func TestServicePages(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	wantBody(t, c.get(t, "/catalog/services"), "No services yet.")
	loc := addLocation(t, c, "Centro", "America/Santiago")
	hair := addCategory(t, c, "Hair")
	wantStatus(t, c.get(t, "/catalog/services/new"), http.StatusOK)

	t.Run("invalid input is shown again with the errors", func(t *testing.T) {
		tests := []struct {
			name  string
			field string
			value string
		}{
			{"no name", "name", " "},
			{"price", "price", "12..50"},
			{"duration", "duration", "1440"},
			{"keywords", "keywords", strings.Repeat("k", 51)},
			{"category", "category_id", "999"},
			{"image", "image_2", "ftp://x"},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				form := serviceForm("Kept <name>")
				form.Set("description", "Kept description")
				form.Set(tc.field, tc.value)
				res := c.post(t, "/catalog/services", form)
				wantStatus(t, res, http.StatusUnprocessableEntity)
				wantBody(t, res, `data-testid="error-`+tc.field+`"`, `data-testid="form-error"`, `aria-invalid="true"`, ">Kept description</textarea>")
				if tc.field != "name" {
					wantBody(t, res, `value="Kept &lt;name&gt;"`)
				}
			})
		}
	})

	evil := `<script>alert(1)</script>`
	form := serviceForm(evil)
	form.Set("category_id", hair)
	form.Set("location_id", loc)
	form.Set("has_discount", "1")
	form.Set("discount", "12.5")
	form.Set("image_0", "https://img.example/a.png")
	wantRedirect(t, c.post(t, "/catalog/services", form), "/catalog/services")
	list := c.get(t, "/catalog/services")
	wantBody(t, list, `data-testid="flash">Service “&lt;script&gt;`, "&lt;script&gt;alert(1)&lt;/script&gt;", ">Hair<", "$15,000.00", "45 min")
	if strings.Contains(list.Body, evil) {
		t.Error("the list contains the name as raw HTML")
	}
	id := linkID(t, list.Body, "/catalog/services/", evil)

	edit := c.get(t, "/catalog/services/"+id)
	wantStatus(t, edit, http.StatusOK)
	wantBody(t, edit, `value="hair, cut"`, `value="12.5"`, `value="https://img.example/a.png"`,
		`<option value="`+hair+`" selected>Hair</option>`, `<option value="`+loc+`" selected>Centro</option>`)
	if strings.Contains(edit.Body, evil) {
		t.Error("the edit page contains the name as raw HTML")
	}

	t.Run("search", func(t *testing.T) {
		form := serviceForm("Manicure")
		form.Set("keywords", "nails, Hands")
		wantRedirect(t, c.post(t, "/catalog/services", form), "/catalog/services")
		tests := []struct{ query, want, not string }{
			{"MANI", "Manicure", "alert(1)"},
			{"hands", "Manicure", "alert(1)"},
			{"script", "alert(1)", "Manicure"},
			{"%", "No service matches “%”.", "Manicure"},
		}
		for _, tc := range tests {
			res := c.get(t, "/catalog/services?q="+url.QueryEscape(tc.query))
			wantBody(t, res, tc.want)
			if strings.Contains(res.Body, tc.not) {
				t.Errorf("search %q lists %q", tc.query, tc.not)
			}
		}
	})

	t.Run("edit", func(t *testing.T) {
		form := serviceForm("Haircut")
		form.Set("duration", "4")
		res := c.post(t, "/catalog/services/"+id, form)
		wantStatus(t, res, http.StatusUnprocessableEntity)
		wantBody(t, res, `data-testid="error-duration"`, `value="Haircut"`, `action="/catalog/services/`+id+`"`)

		form.Set("duration", "60")
		wantRedirect(t, c.post(t, "/catalog/services/"+id, form), "/catalog/services")
		wantBody(t, c.get(t, "/catalog/services"), "Haircut", "60 min")
		wantRedirect(t, c.post(t, "/catalog/services/"+id, form), "/catalog/services")
		wantBody(t, c.get(t, "/catalog/services"), "Nothing changed in “Haircut”.")
	})

	for _, path := range []string{"/catalog/services/999", "/catalog/services/abc"} {
		wantStatus(t, c.get(t, path), http.StatusNotFound)
		wantStatus(t, c.post(t, path, serviceForm("x")), http.StatusNotFound)
	}
}

// TestServiceUpdatedFromTheUI: editing a service through its page writes exactly one
// service.updated event whose data is GET /v3/services/{id} without the computed fields;
// saving without a change writes none.
func TestServiceUpdatedFromTheUI(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	wantRedirect(t, c.post(t, "/settings/business", businessForm()), "/settings/business")
	hair := addCategory(t, c, "Hair")
	wantRedirect(t, c.post(t, "/catalog/services", serviceForm("Haircut")), "/catalog/services")
	id := linkID(t, c.get(t, "/catalog/services").Body, "/catalog/services/", "Haircut")
	d := openDB(t, ts)
	if n := len(serviceEvents(t, d)); n != 0 {
		t.Fatalf("creating a service wrote %d service.updated events, want none", n)
	}

	wantRedirect(t, c.post(t, "/catalog/services/"+id, serviceForm("Haircut")), "/catalog/services")
	if n := len(serviceEvents(t, d)); n != 0 {
		t.Fatalf("saving without a change wrote %d events, want none", n)
	}

	form := serviceForm("Haircut & wash")
	form.Set("category_id", hair)
	form.Set("keywords", "hair, wash, Hair")
	form.Set("price", "17500.5")
	wantRedirect(t, c.post(t, "/catalog/services/"+id, form), "/catalog/services")
	// No webhook listens yet: the save message does not promise that one is told.
	if page := c.get(t, "/catalog/services"); !strings.Contains(page.Body, "Service “Haircut &amp; wash” saved.") || strings.Contains(page.Body, "webhooks") {
		t.Errorf("without a subscribed webhook the flash should say only saved:\n%.3000s", page.Body)
	}
	events := serviceEvents(t, d)
	if len(events) != 1 {
		t.Fatalf("got %d events after one edit, want exactly 1", len(events))
	}
	got := events[0]

	want := getV3(t, ts, c, "/v3/services/"+id)
	for _, computed := range []string{"type", "online_payment", "images", "providers"} {
		if _, ok := got[computed]; ok {
			t.Errorf("the event carries the computed field %q", computed)
		}
		delete(want, computed)
	}
	if !jsonEqual(got, want) {
		t.Errorf("event data differs from GET /v3/services/%s without the computed fields:\n got %v\nwant %v", id, got, want)
	}
	if !jsonEqual(got["keywords"], []string{"hair", "wash"}) || !jsonEqual(got["category"], map[string]any{"id": json.Number(hair), "name": "Hair"}) {
		t.Errorf("got keywords %v and category %v", got["keywords"], got["category"])
	}

	// With a webhook subscribed (to a target the dial-time guard refuses, so nothing leaves),
	// the message says that webhooks are told.
	subscribeWebhook(t, d, "service.*")
	form.Set("price", "18000")
	wantRedirect(t, c.post(t, "/catalog/services/"+id, form), "/catalog/services")
	wantBody(t, c.get(t, "/catalog/services"), "Service “Haircut &amp; wash” saved; webhooks subscribed to service.updated are told.")
}

// subscribeWebhook registers an active webhook for patterns straight in the database, with a
// loopback target that the dispatcher's guard refuses (no -webhook-allow-private).
func subscribeWebhook(t *testing.T, d *db.DB, patterns ...string) {
	t.Helper()
	events, _ := json.Marshal(patterns)
	if _, err := d.Write.Exec(`INSERT INTO webhooks (url, events_json, description, key_mode, state, created_at, updated_at)
		VALUES ('http://127.0.0.1:9/hook', ?, '', 'standard', 'active', 0, 0)`, string(events)); err != nil {
		t.Fatal(err)
	}
}

// getV3 creates an API key through the UI and reads path from /v3 with it.
func getV3(t *testing.T, ts *testServer, c *client, path string) map[string]any {
	t.Helper()
	wantRedirect(t, c.post(t, "/settings/integrations/api-keys", url.Values{"name": {"test"}, "access": {"full"}}), "/settings/integrations/api-keys")
	key := between(c.get(t, "/settings/integrations/api-keys").Body, `data-testid="new-api-key">`, "<")
	req, err := http.NewRequest(http.MethodGet, ts.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, res.StatusCode, body)
	}
	var out map[string]any
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func jsonEqual(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}
