package admin_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Names with bidirectional controls or invisible characters ("Ana\u202Eagrom" shows as
// "Anamorga") used to be stored. Every name-like field of the admin UI now refuses them with
// the field's message (input.CheckName), and nothing is written; a name that needs a joiner
// (Persian) is kept.
func TestNamesRefuseHiddenCharacters(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	wantRedirect(t, c.post(t, "/settings/business", businessForm()), "/settings/business")
	loc := addLocation(t, c, "Centro", "America/Santiago")
	wantRedirect(t, c.post(t, "/catalog/services", serviceForm("Haircut")), "/catalog/services")
	service := linkID(t, c.get(t, "/catalog/services").Body, "/catalog/services/", "Haircut")
	d := openDB(t, ts)
	counts := func() string {
		t.Helper()
		var n string
		err := d.Read.QueryRow(`SELECT (SELECT count(*) FROM services) || '/' || (SELECT count(*) FROM categories) || '/' ||
			(SELECT count(*) FROM locations) || '/' || (SELECT count(*) FROM providers) || '/' || (SELECT count(*) FROM custom_attributes) || '/' ||
			(SELECT count(*) FROM clients) || '/' || (SELECT count(*) FROM api_keys) || '/' || (SELECT name FROM company)`).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	with := func(form url.Values, field, value string) url.Values {
		out := url.Values{}
		for k, v := range form {
			out[k] = v
		}
		out.Set(field, value)
		return out
	}
	provider := url.Values{"public_name": {"Ana"}, "active": {"1"}, "location_id": {loc}, "location_ids": {loc}, "service_ids": {service}}
	attribute := url.Values{"name": {"Hair type"}, "datatype": {"categoric"}, "order": {"1"}, "options": {"Curly\nStraight"}, "group": {"Profile"}}
	forms := []struct {
		path  string
		form  url.Values
		field string
	}{
		{"/catalog/services", serviceForm("x"), "name"},
		{"/catalog/services/" + service, serviceForm("x"), "name"},
		{"/catalog/categories", url.Values{"order": {"1"}}, "name"},
		{"/catalog/locations", locationForm("x"), "name"},
		{"/catalog/locations/" + loc, locationForm("x"), "name"},
		{"/catalog/providers", provider, "public_name"},
		{"/catalog/custom-attributes", attribute, "name"},
		{"/catalog/custom-attributes", attribute, "group"},
		{"/catalog/custom-attributes", attribute, "options"},
		{"/clients", clientForm(), "first_name"},
		{"/clients", clientForm(), "last_name"},
		{"/settings/business", businessForm(), "name"},
		{"/settings/integrations/api-keys", url.Values{}, "name"},
	}
	before := counts()
	for _, bad := range []struct{ value, code string }{
		{"Ana\u202Eagrom", "U+202E"}, {"An\u200Ba", "U+200B"}, {"A\u200Dna", "U+200D"}, {"\u2067Ana", "U+2067"},
	} {
		for _, f := range forms {
			res := c.post(t, f.path, with(f.form, f.field, bad.value))
			if res.Status != http.StatusUnprocessableEntity {
				t.Errorf("POST %s with %s %q: got %d, want 422", f.path, f.field, bad.value, res.Status)
				continue
			}
			wantBody(t, res, `data-testid="error-`+f.field+`"`, bad.code)
		}
	}
	if after := counts(); after != before {
		t.Errorf("row counts %s after refused names, want %s", after, before)
	}
	// A Persian name needs its non-joiner; an emoji sequence its joiner.
	wantRedirect(t, c.post(t, "/catalog/categories", url.Values{"name": {"می\u200cخواهم 👩\u200d🎨"}, "order": {"1"}}), "/catalog/categories")
}

// Ids like 01 or +1 used to be read as 1 on admin routes too. Only the canonical spelling
// names a record; the others are a 404 and change nothing.
func TestAdminRoutesMatchOnlyCanonicalIDs(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	wantRedirect(t, c.post(t, "/settings/business", businessForm()), "/settings/business")
	loc := addLocation(t, c, "Centro", "America/Santiago")
	cat := addCategory(t, c, "Hair")
	wantRedirect(t, c.post(t, "/catalog/services", serviceForm("Haircut")), "/catalog/services")
	wantRedirect(t, c.post(t, "/settings/integrations/api-keys", url.Values{"name": {"k"}, "access": {"full"}}), "/settings/integrations/api-keys")
	if loc != "1" || cat != "1" {
		t.Fatalf("ids %s, %s: want the first records to be 1", loc, cat)
	}
	pages := []string{"/catalog/locations/%s", "/catalog/categories/%s", "/catalog/services/%s", "/catalog/categories/%s/delete",
		"/settings/integrations/api-keys/%s/revoke"}
	for _, p := range pages {
		wantStatus(t, c.get(t, strings.Replace(p, "%s", "1", 1)), http.StatusOK)
		for _, spelling := range []string{"01", "+1", "%2B1", "1.0", "0x1"} {
			path := strings.Replace(p, "%s", spelling, 1)
			if res := c.get(t, path); res.Status != http.StatusNotFound {
				t.Errorf("GET %s: got %d, want 404", path, res.Status)
			}
		}
	}
	for _, path := range []string{"/catalog/categories/01", "/catalog/categories/+1/delete", "/settings/integrations/api-keys/01/revoke"} {
		if res := c.post(t, path, url.Values{"name": {"Renamed"}, "order": {"1"}}); res.Status != http.StatusNotFound {
			t.Errorf("POST %s: got %d, want 404", path, res.Status)
		}
	}
	wantBody(t, c.get(t, "/catalog/categories"), ">Hair<")
	if strings.Contains(c.get(t, "/settings/integrations/api-keys").Body, `class="revoked"`) {
		t.Error("a key was revoked through a non-canonical id")
	}
}
