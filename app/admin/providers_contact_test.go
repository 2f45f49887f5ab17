package admin_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// A provider's email, phone and message choices are kept by the form: the email as clients'
// are stored, a number dialled the Chilean way read in the main location's country, the agenda
// time on the business's clock. Each bad value is refused with its field's error and nothing
// is saved.
func TestProviderContactFields(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	centro := addLocation(t, c, "Centro", "America/Santiago")
	form := func() url.Values {
		return url.Values{
			"public_name": {"Camila"}, "active": {"1"}, "location_id": {centro}, "location_ids": {centro},
			"email": {" Camila@Example.COM "}, "phone": {"9 8765 4321"}, "notify_bookings": {"1"}, "agenda_time": {"7:30"},
		}
	}
	bad := []struct{ name, field, value string }{
		{"email", "email", "camila at example"},
		{"phone", "phone", "12"},
		{"agenda time", "agenda_time", "25:99"},
		{"emails without an address", "email", ""},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			f := form()
			f.Set(tc.field, tc.value)
			res := c.post(t, "/catalog/providers", f)
			wantStatus(t, res, http.StatusUnprocessableEntity)
			wantBody(t, res, `data-testid="error-`+tc.field+`"`, `value="Camila"`)
		})
	}
	wantBody(t, c.get(t, "/catalog/providers"), "No providers yet.")

	wantRedirect(t, c.post(t, "/catalog/providers", form()), "/catalog/providers")
	id := linkID(t, c.get(t, "/catalog/providers").Body, "/catalog/providers/", "Camila")
	edit := c.get(t, "/catalog/providers/"+id)
	wantBody(t, edit, `value="camila@example.com"`, `value="+56987654321"`, `name="notify_bookings" value="1" checked`,
		`value="07:30"`)

	f := form()
	f.Set("phone", "+44 20 7946 0018")
	f.Del("notify_bookings")
	f.Set("agenda_time", "")
	wantRedirect(t, c.post(t, "/catalog/providers/"+id, f), "/catalog/providers")
	edit = c.get(t, "/catalog/providers/"+id)
	wantBody(t, edit, `value="+442079460018"`, `name="agenda_time" type="text" value=""`)
	if strings.Contains(edit.Body, `name="notify_bookings" value="1" checked`) {
		t.Error("notifications still on after they were switched off")
	}
}
