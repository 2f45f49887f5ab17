package admin_test

import (
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// clockInput finds the admin's time-of-day inputs: the booking forms' time, a class's start,
// the two ends of a provider's time off or of a webhook's recovery range.
var clockInput = regexp.MustCompile(`<input id="f-(time|start|from_time|to_time)" name="[^"]+" type="([^"]+)"[^>]*>`)

// No admin page asks for a time of day with <input type=time>, which draws the browser's
// locale's clock whatever the business's: each asks for text on the business's clock, with a
// pattern and the expected form in its hint.
func TestTimeOfDayFieldsAreTextOnTheBusinessClock(t *testing.T) {
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	c := ts.setupOwner(t)
	var withClock []string
	for _, p := range seededPages(t, ts, c) {
		body := p.get(t, ts, c).Body
		if strings.Contains(body, `type="time"`) {
			t.Errorf("%s has an <input type=time>", p.Path)
		}
		// A client's answer to a date-and-time question is the one date-time input left.
		if strings.Contains(body, `type="datetime-local"`) && !strings.HasPrefix(p.Path, "/clients/") {
			t.Errorf("%s has an <input type=datetime-local>", p.Path)
		}
		inputs := clockInput.FindAllStringSubmatch(body, -1)
		if len(inputs) > 0 {
			path, _, _ := strings.Cut(p.Path, "?")
			withClock = append(withClock, strings.TrimRight(path, "0123456789"))
		}
		for _, in := range inputs {
			if in[2] != "text" || !strings.Contains(in[0], `pattern="`) || !strings.Contains(in[0], `aria-describedby="f-`+in[1]+`-hint"`) {
				t.Errorf("%s: the %s field is %s", p.Path, in[1], in[0])
			}
		}
		if len(inputs) > 0 && !strings.Contains(body, "Like 14:30.") {
			t.Errorf("%s: a time field without the expected form in its hint", p.Path)
		}
	}
	slices.Sort(withClock)
	want := []string{"/bookings/", "/bookings/explain", "/bookings/new", "/bookings/quick", "/bookings/visits/new", "/catalog/providers/", "/catalog/timetable", "/catalog/timetable/",
		"/settings/integrations/webhooks/"}
	if !slices.Equal(slices.Compact(withClock), want) {
		t.Errorf("time-of-day fields on %v, want on %v", slices.Compact(withClock), want)
	}
}

// A 12-hour business types "2:30 pm" everywhere the admin asks for a time of day (a booking,
// a provider's time off, a location's hours) and sees its times so; a time of 1:00 to 12:59
// without am or pm is refused in the owner's language, since it could be morning or evening;
// 24-hour times the clock cannot misread still go.
func TestTwelveHourBusinessTypesTimesWithAmPm(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	if _, err := d.Write.Exec(`UPDATE company SET clock = '12h'`); err != nil {
		t.Fatal(err)
	}

	// A link's 24-hour time shows on the business's clock, with the expected form.
	link := "/bookings/new?" + url.Values{"location": {w.Location}, "service": {w.Service}, "provider": {w.Ana}, "date": {w.Day}, "time": {"14:00"}}.Encode()
	wantBody(t, c.get(t, link), `name="time" type="text" value="2:00 PM"`, "Like 2:30 PM.")

	res := c.post(t, "/bookings", w.booking(w.Ana, w.Maria, "2:30"))
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-time"`, "Add AM or PM, like 2:30 PM.", `value="2:30"`)
	res = c.post(t, "/bookings", w.booking(w.Ana, w.Maria, "half past two"))
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, "Enter a time like 2:30 PM.")
	if res := c.post(t, "/bookings", w.booking(w.Ana, w.Maria, "2:30 pm")); res.Status != http.StatusSeeOther {
		t.Fatalf("booking at 2:30 pm: got %d\n%.2000s", res.Status, res.Body)
	}
	var id string
	if err := d.Read.QueryRow(`SELECT max(id) FROM bookings`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	if _, _, start := bookingRow(t, d, id); start.In(w.zone).Format("15:04") != "14:30" {
		t.Errorf("the booking starts at %s, want 14:30", start.In(w.zone).Format("15:04"))
	}
	wantBody(t, c.get(t, "/bookings/"+id), `name="time" type="text" value="2:30 PM"`)
	if res := c.post(t, "/bookings", w.booking(w.Bruno, w.Maria, "15:30")); res.Status != http.StatusSeeOther {
		t.Errorf("a 24-hour 15:30 on a 12-hour clock: got %d\n%.2000s", res.Status, res.Body)
	}

	// Spanish: the same rule in Spanish words.
	if _, err := d.Write.Exec(`UPDATE company SET language = 'es'`); err != nil {
		t.Fatal(err)
	}
	res = c.post(t, "/bookings", w.booking(w.Carla, w.Maria, "3:30"))
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, "Agrega a. m. o p. m., como 2:30 p. m.", "Por ejemplo, 2:30 p. m.")
	if res := c.post(t, "/bookings", w.booking(w.Carla, w.Maria, "3:30 p. m.")); res.Status != http.StatusSeeOther {
		t.Errorf("booking at 3:30 p. m.: got %d\n%.2000s", res.Status, res.Body)
	}
	if _, err := d.Write.Exec(`UPDATE company SET language = 'en'`); err != nil {
		t.Fatal(err)
	}

	// Time off: a date and a time on the business's clock for each end.
	provider := "/catalog/providers/" + w.Ana
	off := url.Values{"from_date": {"2026-12-24"}, "from_time": {"9:00 am"}, "to_date": {"2026-12-24"}, "to_time": {"1:00"}}
	res = c.post(t, provider+"/time-off", off)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-to_time"`, "Add AM or PM, like 2:30 PM.")
	off.Set("to_time", "1:00 PM")
	wantRedirect(t, c.post(t, provider+"/time-off", off), provider)
	wantBody(t, c.get(t, provider), "24 Dec 2026, 9:00 AM", "24 Dec 2026, 1:00 PM")
	var from, to int64
	if err := d.Read.QueryRow(`SELECT starts_at, ends_at FROM provider_time_off WHERE provider_id = ?`, w.Ana).Scan(&from, &to); err != nil {
		t.Fatal(err)
	}
	if got := time.UnixMilli(from).In(w.zone).Format("2006-01-02 15:04") + " " + time.UnixMilli(to).In(w.zone).Format("15:04"); got != "2026-12-24 09:00 13:00" {
		t.Errorf("the time off is stored as %s, want 2026-12-24 09:00 13:00", got)
	}

	// A location's hours: typed and shown with am and pm; 24:00 still ends a day.
	hours := locationForm("Tarde")
	hours.Set("hours_1", "9:00-1:00 pm")
	res = c.post(t, "/catalog/locations", hours)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-hours_1"`, "could be morning or evening: add AM or PM", `<code>9:00 AM-1:00 PM, 2:00 PM-7:00 PM</code>`)
	hours.Set("hours_1", "9:00 am-1:00 pm, 14:00-19:00")
	hours.Set("hours_6", "6 pm-24:00")
	wantRedirect(t, c.post(t, "/catalog/locations", hours), "/catalog/locations")
	var location string
	if err := d.Read.QueryRow(`SELECT id FROM locations WHERE name = 'Tarde'`).Scan(&location); err != nil {
		t.Fatal(err)
	}
	wantBody(t, c.get(t, "/catalog/locations/"+location), `value="9:00 AM-1:00 PM, 2:00 PM-7:00 PM"`, `value="6:00 PM-24:00"`)
}
