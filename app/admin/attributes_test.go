package admin_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestAttributePages(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	wantBody(t, c.get(t, "/catalog/custom-attributes"), "No custom attributes yet.")
	wantBody(t, c.get(t, "/catalog/custom-attributes/new"), `<option value="categoric">`, `<option value="text" selected>`)

	tests := []struct {
		name  string
		form  url.Values
		field string
	}{
		{"no name", url.Values{"name": {""}, "datatype": {"text"}, "order": {"0"}, "description": {"Kept"}}, "name"},
		{"unknown type", url.Values{"name": {"Kept"}, "datatype": {"colour"}, "order": {"0"}, "description": {"Kept"}}, "datatype"},
		{"categoric without choices", url.Values{"name": {"Kept"}, "datatype": {"categoric"}, "order": {"0"}, "description": {"Kept"}}, "options"},
		{"a choice twice", url.Values{"name": {"Kept"}, "datatype": {"categoric"}, "options": {"A\na"}, "description": {"Kept"}}, "options"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := c.post(t, "/catalog/custom-attributes", tc.form)
			wantStatus(t, res, http.StatusUnprocessableEntity)
			wantBody(t, res, `data-testid="error-`+tc.field+`"`, ">Kept</textarea>")
		})
	}

	form := url.Values{"name": {"<em>Hair type</em>"}, "datatype": {"categoric"}, "order": {"2"}, "group": {"Profile"},
		"mandatory": {"1"}, "options": {"Straight\nCurly"}, "description": {"Asked at the first visit"}}
	wantRedirect(t, c.post(t, "/catalog/custom-attributes", form), "/catalog/custom-attributes")
	list := c.get(t, "/catalog/custom-attributes")
	wantBody(t, list, "&lt;em&gt;Hair type&lt;/em&gt;", "Profile", "categoric")
	if strings.Contains(list.Body, "<em>Hair") {
		t.Error("the list contains an attribute name as raw HTML")
	}
	id := linkID(t, list.Body, "/catalog/custom-attributes/", "<em>Hair type</em>")
	wantBody(t, c.get(t, "/catalog/custom-attributes/"+id), ">Straight\nCurly</textarea>", `value="Profile"`, `<option value="Profile">`)

	d := openDB(t, ts)
	if _, err := d.Write.Exec(`INSERT INTO clients (id, first_name, created_at, updated_at) VALUES (1, 'Ana', 0, 0)`); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Write.Exec(`INSERT INTO client_attribute_values (client_id, attribute_id, value) VALUES (1, ?, 'Curly')`, id); err != nil {
		t.Fatal(err)
	}
	form.Set("options", "Straight\nWavy")
	res := c.post(t, "/catalog/custom-attributes/"+id, form)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, "“Curly” is chosen by clients", ">Straight\nWavy</textarea>")
	form.Set("options", "Straight\nCurly\nWavy")
	form.Set("name", "Hair type")
	wantRedirect(t, c.post(t, "/catalog/custom-attributes/"+id, form), "/catalog/custom-attributes")
	wantBody(t, c.get(t, "/catalog/custom-attributes/"+id), ">Straight\nCurly\nWavy</textarea>", `value="Hair type"`)

	wantBody(t, c.get(t, "/catalog/custom-attributes/"+id+"/delete"), `data-testid="delete-name">Hair type<`, "One client has a value for it")
	wantRedirect(t, c.post(t, "/catalog/custom-attributes/"+id+"/delete", nil), "/catalog/custom-attributes")
	wantBody(t, c.get(t, "/catalog/custom-attributes"), "Custom attribute “Hair type” deleted.", "No custom attributes yet.")
	for _, path := range []string{"/catalog/custom-attributes/" + id, "/catalog/custom-attributes/" + id + "/delete"} {
		wantStatus(t, c.get(t, path), http.StatusNotFound)
		wantStatus(t, c.post(t, path, form), http.StatusNotFound)
	}
}
