package admin_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func locationForm(name string) url.Values {
	return url.Values{
		"name": {name}, "active": {"1"}, "timezone": {"America/Santiago"}, "country_code": {"CL"},
		"route": {"Av. Providencia"}, "street_number": {"1234"}, "locality": {"Providencia"},
		"administrative_area_level_1": {"Región Metropolitana"}, "phone": {"+56 9 1234 5678"},
		"email": {"centro@example.com"}, "latitude": {"-33.4255"}, "longitude": {"-70.6101"},
		"hours_1": {"09:00-13:00, 14:00-19:00"}, "hours_6": {"10:00-24:00"},
	}
}

func TestLocationPages(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	wantBody(t, c.get(t, "/catalog/locations"), "No locations yet.")
	newPage := c.get(t, "/catalog/locations/new")
	wantBody(t, newPage, `<option value="America/Santiago">America/Santiago</option>`, `<option value="Asia/Kathmandu">`,
		`<option value="CL">Chile</option>`, `<label for="f-hours_1">Monday</label>`)
	if strings.Index(newPage.Body, "f-hours_1") > strings.Index(newPage.Body, "f-hours_0") {
		t.Error("the week does not start on Monday")
	}

	tests := []struct {
		name  string
		field string
		value string
	}{
		{"no zone", "timezone", ""},
		{"unknown zone", "timezone", "Mars/Base"},
		{"unknown country", "country_code", "XX"},
		{"hours overlap", "hours_1", "09:00-13:00, 12:00-19:00"},
		{"hours backwards", "hours_2", "19:00-09:00"},
		{"phone", "phone", "12345"},
		{"latitude", "latitude", "-91"},
		{"email", "email", "centro at example"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			form := locationForm("Kept <name>")
			form.Set(tc.field, tc.value)
			res := c.post(t, "/catalog/locations", form)
			wantStatus(t, res, http.StatusUnprocessableEntity)
			wantBody(t, res, `data-testid="error-`+tc.field+`"`, `value="Kept &lt;name&gt;"`, `value="Av. Providencia"`)
			if tc.field != "hours_1" {
				wantBody(t, res, `value="09:00-13:00, 14:00-19:00"`)
			}
		})
	}

	wantRedirect(t, c.post(t, "/catalog/locations", locationForm("<i>Centro</i>")), "/catalog/locations")
	list := c.get(t, "/catalog/locations")
	wantBody(t, list, "&lt;i&gt;Centro&lt;/i&gt;", "Providencia", "America/Santiago", "Chile")
	id := linkID(t, list.Body, "/catalog/locations/", "<i>Centro</i>")

	edit := c.get(t, "/catalog/locations/"+id)
	wantBody(t, edit, `value="+56912345678"`, `value="-33.4255"`, `value="10:00-24:00"`,
		`<option value="America/Santiago" selected>`, `<option value="CL" selected>Chile</option>`, `value="Chile"`)

	form := locationForm("Centro")
	form.Set("timezone", "Asia/Kathmandu")
	form.Set("hours_1", "")
	form.Set("hours_0", "8:00-12:00")
	wantRedirect(t, c.post(t, "/catalog/locations/"+id, form), "/catalog/locations")
	wantBody(t, c.get(t, "/catalog/locations/"+id), `<option value="Asia/Kathmandu" selected>`, `id="f-hours_0" name="hours_0" type="text" value="08:00-12:00"`,
		`id="f-hours_1" name="hours_1" type="text" value=""`)

	t.Run("closed days", func(t *testing.T) {
		closures := "/catalog/locations/" + id + "/closures"
		wantRedirect(t, c.post(t, closures, url.Values{"date": {"2026-12-25"}, "reason": {"<b>Christmas</b>"}}), "/catalog/locations/"+id)
		page := c.get(t, "/catalog/locations/"+id)
		wantBody(t, page, "2026-12-25", "&lt;b&gt;Christmas&lt;/b&gt;")
		res := c.post(t, closures, url.Values{"date": {"2026-12-25"}, "reason": {"again"}})
		wantStatus(t, res, http.StatusUnprocessableEntity)
		wantBody(t, res, `data-testid="error-date"`, "already closed", `value="again"`, `value="Centro"`)
		res = c.post(t, closures, url.Values{"date": {"soon"}})
		wantStatus(t, res, http.StatusUnprocessableEntity)

		closure := between(page.Body, closures+"/", "/delete")
		wantRedirect(t, c.post(t, closures+"/"+closure+"/delete", nil), "/catalog/locations/"+id)
		wantBody(t, c.get(t, "/catalog/locations/"+id), "No closed days.")
		wantStatus(t, c.post(t, closures+"/"+closure+"/delete", nil), http.StatusNotFound)
		wantStatus(t, c.post(t, "/catalog/locations/999/closures", url.Values{"date": {"2026-12-26"}}), http.StatusNotFound)
	})

	wantStatus(t, c.get(t, "/catalog/locations/999"), http.StatusNotFound)
	wantStatus(t, c.post(t, "/catalog/locations/999", locationForm("x")), http.StatusNotFound)
}
