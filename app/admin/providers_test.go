package admin_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestProviderPages(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	wantBody(t, c.get(t, "/catalog/providers"), "add a location.</a>")
	centro := addLocation(t, c, "Centro", "America/Santiago")
	norte := addLocation(t, c, "Norte", "America/Santiago")
	remote := addLocation(t, c, "Kathmandu", "Asia/Kathmandu")
	wantRedirect(t, c.post(t, "/catalog/services", serviceForm("Haircut")), "/catalog/services")
	service := linkID(t, c.get(t, "/catalog/services").Body, "/catalog/services/", "Haircut")

	hours := func(loc string, day int) string { return "hours_" + loc + "_" + string(rune('0'+day)) }
	form := func(name string) url.Values {
		return url.Values{
			"public_name": {name}, "active": {"1"}, "online_booking": {"1"}, "location_id": {centro},
			"location_ids": {centro, norte}, "service_ids": {service},
			hours(centro, 1): {"09:00-18:00 (13:00-14:00)"}, hours(norte, 2): {"10:00-14:00, 15:00-19:00"},
		}
	}
	page := c.get(t, "/catalog/providers/new")
	wantBody(t, page, "Hours at Centro", "Hours at Kathmandu", `name="`+hours(remote, 0)+`"`)

	tests := []struct {
		name  string
		field string
		value string
	}{
		{"no name", "public_name", ""},
		{"no main location", "location_id", ""},
		{"break outside the shift", hours(centro, 1), "09:00-12:00 (12:00-13:00)"},
		{"same zone overlap", hours(norte, 1), "17:00-20:00"},
		{"hours at a location not ticked", hours(remote, 3), "09:00-10:00"},
		{"unknown service", "service_ids", "999"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := form("Kept <name>")
			f.Set(tc.field, tc.value)
			res := c.post(t, "/catalog/providers", f)
			wantStatus(t, res, http.StatusUnprocessableEntity)
			wantBody(t, res, `data-testid="error-`+tc.field+`"`, `value="10:00-14:00, 15:00-19:00"`)
			if tc.field != "public_name" {
				wantBody(t, res, `value="Kept &lt;name&gt;"`)
			}
		})
	}

	f := form("<u>Camila</u>")
	f.Add("location_ids", remote)
	f.Set(hours(remote, 1), "10:00-11:00") // overlaps Centro's Monday on the clock, in another zone
	wantRedirect(t, c.post(t, "/catalog/providers", f), "/catalog/providers")
	list := c.get(t, "/catalog/providers")
	wantBody(t, list, "&lt;u&gt;Camila&lt;/u&gt;", "different time zones", ">Centro<")
	if strings.Contains(list.Body, "<u>Camila") {
		t.Error("the list contains a provider name as raw HTML")
	}
	id := linkID(t, list.Body, "/catalog/providers/", "<u>Camila</u>")

	edit := c.get(t, "/catalog/providers/"+id)
	wantBody(t, edit, `value="09:00-18:00 (13:00-14:00)"`, `value="`+service+`" checked`, `value="`+remote+`" checked`, "Times are in America/Santiago")
	wantBody(t, c.get(t, "/catalog/services/"+service), `name="provider_ids" value="`+id+`" checked`)

	f = form("Camila")
	f.Set(hours(centro, 1), "")
	wantRedirect(t, c.post(t, "/catalog/providers/"+id, f), "/catalog/providers")
	if body := c.get(t, "/catalog/providers/"+id).Body; !strings.Contains(body, `name="`+hours(centro, 1)+`" type="text" value=""`) ||
		strings.Contains(body, `value="`+remote+`" checked`) {
		t.Error("the edit did not replace the hours and locations")
	}

	t.Run("time off", func(t *testing.T) {
		path := "/catalog/providers/" + id + "/time-off"
		off := func(from, fromTime, to, toTime, reason string) url.Values {
			return url.Values{"from_date": {from}, "from_time": {fromTime}, "to_date": {to}, "to_time": {toTime}, "reason": {reason}}
		}
		wantRedirect(t, c.post(t, path, off("2026-12-24", "09:00", "2026-12-26", "18:00", "<b>Holidays</b>")), "/catalog/providers/"+id)
		page := c.get(t, "/catalog/providers/"+id)
		wantBody(t, page, "24 Dec 2026, 09:00", "26 Dec 2026, 18:00", "&lt;b&gt;Holidays&lt;/b&gt;")
		res := c.post(t, path, off("2026-09-06", "00:30", "2026-09-06", "10:00", "kept"))
		wantStatus(t, res, http.StatusUnprocessableEntity)
		wantBody(t, res, `data-testid="error-from_time"`, "the clocks skip it", `value="kept"`, `value="Camila"`)
		res = c.post(t, path, off("2026-12-24", "10:00", "2026-12-24", "9:00", "kept"))
		wantStatus(t, res, http.StatusUnprocessableEntity)
		wantBody(t, res, `data-testid="error-to_time"`, "The end must be after the start.")
		res = c.post(t, path, off("2026-12-24", "9 o'clock", "24/12/2026", "10:00", "kept"))
		wantStatus(t, res, http.StatusUnprocessableEntity)
		wantBody(t, res, `data-testid="error-from_time"`, "Enter a time like 14:30.", `data-testid="error-to_date"`)

		offID := between(page.Body, path+"/", "/delete")
		wantRedirect(t, c.post(t, path+"/"+offID+"/delete", nil), "/catalog/providers/"+id)
		wantBody(t, c.get(t, "/catalog/providers/"+id), "No time off.")
		wantStatus(t, c.post(t, path+"/"+offID+"/delete", nil), http.StatusNotFound)
		wantStatus(t, c.post(t, "/catalog/providers/999/time-off", off("2026-12-24", "09:00", "2026-12-24", "10:00", "")), http.StatusNotFound)
	})

	wantStatus(t, c.get(t, "/catalog/providers/999"), http.StatusNotFound)
	wantStatus(t, c.post(t, "/catalog/providers/999", form("x")), http.StatusNotFound)
}
