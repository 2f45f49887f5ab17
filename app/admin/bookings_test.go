package admin_test

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestBookingCreateConflictRescheduleCancel(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)

	day := c.get(t, w.dayPath())
	wantStatus(t, day, http.StatusOK)
	wantBody(t, day, `data-testid="day-provider"`, "Ana", "Bruno", "Carla",
		`href="/bookings/quick?date=`+w.Day, // free times link to the quick form
		`data-testid="free-slot">10:00<`)

	t.Run("the form from a free time", func(t *testing.T) {
		q := url.Values{"location": {w.Location}, "service": {w.Service}, "provider": {w.Ana}, "date": {w.Day}, "time": {"10:00"}, "client_q": {"lopez"}}
		res := c.get(t, "/bookings/new?"+q.Encode())
		wantStatus(t, res, http.StatusOK)
		wantBody(t, res, `value="10:00"`, `value="`+w.Day+`"`, "One client matches.",
			`<option value="`+w.Maria+`" selected>Maria Lopez · maria@example.com</option>`,
			`<option value="`+w.Ana+`" selected>Ana</option>`)
	})

	t.Run("invalid forms keep the input", func(t *testing.T) {
		tests := []struct {
			name  string
			edit  func(url.Values)
			wants []string
		}{
			{"no client", func(f url.Values) { f.Del("client") }, []string{`data-testid="error-client"`}},
			{"no time", func(f url.Values) { f.Set("time", "") }, []string{`data-testid="error-time"`}},
			{"bad date", func(f url.Values) { f.Set("date", "2026-02-30") }, []string{`data-testid="error-date"`}},
			{"skipped by the clocks", func(f url.Values) { f.Set("date", "2027-03-14"); f.Set("time", "02:30") }, []string{"02:30 does not exist on 2027-03-14 in America/New_York"}},
			{"repeated by the clocks", func(f url.Values) { f.Set("date", "2027-11-07"); f.Set("time", "01:30") }, []string{`data-testid="error-offset"`, `<option value="-04:00">01:30 (UTC−4), the first time</option>`, `<option value="-05:00">01:30 (UTC−5), the second time</option>`}},
			{"unknown provider", func(f url.Values) { f.Set("provider", "999") }, []string{`data-testid="error-provider"`, "This provider does not exist"}},
			{"provider elsewhere", func(f url.Values) { f.Set("provider", w.Nora) }, []string{"The provider does not work at this location."}},
			{"cancelled status", func(f url.Values) { f.Set("status", "5") }, []string{`data-testid="error-status"`}},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				form := w.booking(w.Ana, w.Maria, "10:00")
				tc.edit(form)
				res := c.post(t, "/bookings", form)
				wantStatus(t, res, http.StatusUnprocessableEntity)
				wantBody(t, res, append(tc.wants, `data-testid="form-error"`, "Kept &lt;notes&gt;")...)
			})
		}
		if n := len(eventTypes(t, d)); n != 0 {
			t.Errorf("got %d events after refused forms, want 0", n)
		}
	})

	res := c.post(t, "/bookings", w.booking(w.Ana, w.Maria, "10:00"))
	wantRedirect(t, res, w.dayPath())
	day = c.get(t, w.dayPath())
	wantBody(t, day, "Booking created: Ana with Maria Lopez", `data-testid="day-booking"`, "10:00–10:30")
	id := between(day.Body, `data-booking="`, `"`)
	if got := columnOf(day.Body, id); got != w.Ana {
		t.Errorf("booking %s is in provider %q's column, want Ana's (%s)", id, got, w.Ana)
	}
	if strings.Contains(day.Body, `aria-label="Book Ana at 10:00`) {
		t.Error("10:00 is still offered for Ana after booking it")
	}

	t.Run("a conflict is a message, the form kept", func(t *testing.T) {
		form := w.booking(w.Ana, w.Pedro, "10:15")
		res := c.post(t, "/bookings", form)
		wantStatus(t, res, http.StatusUnprocessableEntity)
		wantBody(t, res, `data-testid="form-error">Ana already has a booking at 10:00–10:30 (Maria Lopez, Norte).`,
			"That time is no longer free", `value="10:15"`, "Kept &lt;notes&gt;", `<option value="`+w.Pedro+`" selected>`)
	})

	t.Run("reschedule", func(t *testing.T) {
		page := c.get(t, "/bookings/"+id)
		wantStatus(t, page, http.StatusOK)
		wantBody(t, page, `value="10:00"`, "Maria Lopez", "Haircut", "(America/New_York)")
		move := url.Values{"date": {w.Day}, "time": {"11:00"}, "provider": {w.Bruno}, "status": {"2"}, "notes": {"moved"}}
		wantRedirect(t, c.post(t, "/bookings/"+id, move), "/bookings/"+id)
		page = c.get(t, "/bookings/"+id)
		wantBody(t, page, "Booking saved.", "11:00–11:30", "Reserved", ">moved</textarea>")
		status, provider, start := bookingRow(t, d, id)
		if status != 2 || provider != w.brunoID || start.In(w.zone).Format("15:04") != "11:00" {
			t.Errorf("stored status %d provider %d start %v; want 2, Bruno, 11:00", status, provider, start.In(w.zone))
		}

		// Pedro takes Ana at 14:00; moving Maria's booking there is refused, the form kept.
		wantRedirect(t, c.post(t, "/bookings", w.booking(w.Ana, w.Pedro, "14:00")), w.dayPath())
		move = url.Values{"date": {w.Day}, "time": {"14:15"}, "provider": {w.Ana}, "status": {"1"}, "notes": {"try"}}
		res := c.post(t, "/bookings/"+id, move)
		wantStatus(t, res, http.StatusUnprocessableEntity)
		wantBody(t, res, "Ana already has a booking at 14:00–14:30 (Pedro Diaz, Norte).", `value="14:15"`, ">try</textarea>")
	})

	t.Run("cancel", func(t *testing.T) {
		confirm := c.get(t, "/bookings/"+id+"/cancel")
		wantStatus(t, confirm, http.StatusOK)
		wantBody(t, confirm, `data-testid="confirm-cancel"`, "Maria Lopez")
		wantRedirect(t, c.post(t, "/bookings/"+id+"/cancel", nil), w.dayPath())
		if status, _, _ := bookingRow(t, d, id); status != 5 {
			t.Errorf("got status %d after cancelling, want 5", status)
		}
		day := c.get(t, w.dayPath())
		wantBody(t, day, "Booking cancelled", `data-testid="day-cancelled"`)
		if grid := between(day.Body, `data-testid="day-grid"`, "</table>"); strings.Contains(grid, `data-booking="`+id+`"`) {
			t.Error("the cancelled booking is still in the grid")
		}
		wantStatus(t, c.get(t, "/bookings/"+id+"/cancel"), http.StatusSeeOther) // nothing left to confirm
		wantBody(t, c.get(t, "/bookings/"+id), "This booking was cancelled")
	})

	want := []string{"booking.created", "booking.updated", "booking.created", "booking.updated"}
	if got := eventTypes(t, d); !slices.Equal(got, want) {
		t.Errorf("got events %v, want %v", got, want)
	}

	t.Run("list and filters", func(t *testing.T) {
		base := url.Values{"location": {w.Location}, "from": {w.Day}, "to": {w.Day}}
		tests := []struct {
			name  string
			extra url.Values
			rows  int
			wants []string
		}{
			{"the day", nil, 2, []string{"Maria Lopez", "Pedro Diaz", "Cancelled"}},
			{"cancelled only", url.Values{"status": {"5"}}, 1, []string{"Maria Lopez"}},
			{"by provider", url.Values{"provider": {w.Ana}}, 1, []string{"Pedro Diaz"}},
			{"client search", url.Values{"client_q": {"pedro"}}, 1, []string{`data-testid="filter-client">Pedro Diaz<`}},
			{"client by id", url.Values{"client": {w.Maria}}, 1, []string{`data-testid="filter-client">Maria Lopez<`}},
			{"no match", url.Values{"client_q": {"nobody"}}, 0, []string{"No client matches this."}},
			{"another day", url.Values{"from": {"2020-01-01"}, "to": {"2020-01-01"}}, 0, []string{"No bookings match."}},
			{"bad date", url.Values{"from": {"soon"}}, 2, []string{`data-testid="error-from"`}},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				q := url.Values{}
				for k, v := range base {
					q[k] = v
				}
				for k, v := range tc.extra {
					q[k] = v
				}
				res := c.get(t, "/bookings?"+q.Encode())
				wantStatus(t, res, http.StatusOK)
				wantBody(t, res, tc.wants...)
				if n := strings.Count(res.Body, `data-testid="booking-row"`); n != tc.rows {
					t.Errorf("got %d rows, want %d", n, tc.rows)
				}
			})
		}
	})
}

// columnOf is the provider id of the day-view cell holding booking id ("" if none does).
func columnOf(body, id string) string {
	i := strings.Index(body, `data-booking="`+id+`"`)
	if i < 0 {
		return ""
	}
	cell := body[:i]
	cell = cell[strings.LastIndex(cell, "<td"):]
	return between(cell, `data-provider="`, `"`)
}

func TestBookingPagesRefuseBadRequests(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	seedBookingWorld(t, ts)
	for _, path := range []string{"/bookings/999", "/bookings/abc", "/bookings/999/cancel", "/clients/999", "/clients/0/deactivate"} {
		wantStatus(t, c.get(t, path), http.StatusNotFound)
		wantStatus(t, c.post(t, path, url.Values{"time": {"10:00"}}), http.StatusNotFound)
	}
	for _, path := range []string{"/bookings/day?location=x&date=yesterday&service=-1", "/bookings/explain?provider=x&time=25:99",
		"/bookings/new?location=999&time=zz", "/bookings?page=-5&status=9&location=abc"} {
		if res := c.get(t, path); res.Status >= 500 {
			t.Errorf("%s: got %d", path, res.Status)
		}
	}
}

func TestExplainSlot(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	wantRedirect(t, c.post(t, "/bookings", w.booking(w.Ana, w.Maria, "10:00")), w.dayPath())

	ask := func(provider, clock string) response {
		q := url.Values{"location": {w.Location}, "service": {w.Service}, "provider": {provider}, "date": {w.Day}, "time": {clock}}
		return c.get(t, "/bookings/explain?"+q.Encode())
	}
	date, err := time.Parse(time.DateOnly, w.Day)
	if err != nil {
		t.Fatal(err)
	}
	day := date.Format("2 Jan 2006")
	tests := []struct {
		name, provider, clock string
		code, message         string
	}{
		{"break", w.Ana, "12:15", "break", "Ana has a break during 12:15–12:45."},
		{"booked", w.Ana, "10:00", "booked", "Ana is booked from " + day + ", 10:00"},
		{"half-booked", w.Ana, "09:45", "booked", "Ana is booked from"},
		{"before the shift", w.Ana, "08:00", "not_working", "Ana is not working all of 08:00–08:30."},
		{"before opening", w.Ana, "07:00", "outside_hours", "outside the location&#39;s opening hours"},
		{"off the grid", w.Bruno, "10:05", "off_grid", "10:05 is not one of the start times offered every 15 minutes"},
		{"another location's provider", w.Nora, "10:00", "unknown_provider", "does not work at this location"},
		{"offered", w.Bruno, "10:00", "ok", "Bruno is offered at " + day + ", 10:00."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := ask(tc.provider, tc.clock)
			wantStatus(t, res, http.StatusOK)
			wantBody(t, res, `data-code="`+tc.code+`">`, tc.message)
			// The owner reads words: the engine's code is an attribute for programs, not text.
			if title := between(res.Body, `data-testid="explain-title" data-code="`+tc.code+`">`, "<"); title == "" || strings.Contains(title, "_") || strings.Contains(res.Body, ">"+tc.code+"<") || strings.Contains(res.Body, "<code") {
				t.Errorf("title %q: want words without the code %q", title, tc.code)
			}
		})
	}
	wantBody(t, ask(w.Bruno, "10:00"), "Book this time")

	res := c.get(t, "/bookings/explain?"+url.Values{"location": {w.Location}, "provider": {w.Ana}, "date": {"2027-03-14"}, "time": {"02:30"}}.Encode())
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, "02:30 does not exist on 2027-03-14")
	wantBody(t, c.get(t, w.dayPath()), `data-testid="explain-link"`)
}

// The day view's rows are the location's wall-clock times: on the spring-forward day New York
// has no 02:xx rows (23 hours); on the fall-back day the 01:xx rows come twice (25 hours).
func TestDayViewAcrossDST(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	rows := func(body string) []string {
		var out []string
		for _, part := range strings.Split(between(body, "<tbody>", "</tbody>"), `<th scope="row" class="mono">`)[1:] {
			label, _, _ := strings.Cut(part, "<")
			out = append(out, label)
		}
		return out
	}
	tests := []struct {
		date       string
		rows       int
		note       string
		has, hasnt []string
	}{
		{"2027-03-14", 23 * 4, "it lasts 23 h.", []string{"01:45", "03:00"}, []string{"02:00", "02:30"}},
		{"2026-11-01", 25 * 4, "it lasts 25 h,", []string{"00:45", "01:00 UTC−4", "01:45 UTC−4", "01:00 UTC−5", "01:45 UTC−5", "02:00"}, []string{"01:00"}},
		{"2026-11-02", 24 * 4, "", []string{"00:00", "23:45"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.date, func(t *testing.T) {
			res := c.get(t, "/bookings/day?"+url.Values{"location": {w.Night}, "date": {tc.date}, "service": {w.Service}}.Encode())
			wantStatus(t, res, http.StatusOK)
			got := rows(res.Body)
			if len(got) != tc.rows {
				t.Errorf("got %d rows, want %d: %v", len(got), tc.rows, got)
			}
			for _, label := range tc.has {
				if !slices.Contains(got, label) {
					t.Errorf("no row %q", label)
				}
			}
			for _, label := range tc.hasnt {
				if slices.Contains(got, label) {
					t.Errorf("got a row %q, want none", label)
				}
			}
			if i, j := slices.Index(got, "01:45 UTC−4"), slices.Index(got, "01:00 UTC−5"); i >= 0 && j != i+1 {
				t.Errorf("01:00 UTC−5 is row %d, want right after 01:45 UTC−4 (row %d)", j, i)
			}
			if tc.note != "" {
				wantBody(t, res, tc.note)
			} else if strings.Contains(res.Body, "The clocks go") {
				t.Error("an ordinary day says the clocks change")
			}
		})
	}
}

// The owner may book what clients cannot (a break, once confirmed); without business settings
// (the booking policies) the booking pages say what to do instead of failing.
func TestBookingOutsideTheOfferAndWithoutSettings(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)

	inBreak := w.booking(w.Ana, w.Maria, "12:15")
	wantStatus(t, c.post(t, "/bookings", inBreak), http.StatusUnprocessableEntity) // asks first (bookings_hours_test.go)
	inBreak.Set("outside_hours", "1")
	wantRedirect(t, c.post(t, "/bookings", inBreak), w.dayPath())
	// Confirmed knowingly: created, without the after-the-fact note a staff rule used to get.
	wantBody(t, c.get(t, w.dayPath()), "Booking created: Ana with Maria Lopez")
	wantRedirect(t, c.post(t, "/bookings", w.booking(w.Bruno, w.Maria, "12:15")), w.dayPath())
	if body := c.get(t, w.dayPath()).Body; strings.Contains(body, "Clients could not have booked") {
		t.Error("a note for a time clients can book")
	}

	if _, err := d.Write.Exec(`DELETE FROM company`); err != nil {
		t.Fatal(err)
	}
	res := c.post(t, "/bookings", w.booking(w.Carla, w.Maria, "10:00"))
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, "Save the business settings first")
	wantBody(t, c.get(t, w.dayPath()), "Free times appear once the business settings are saved")
	q := url.Values{"location": {w.Location}, "provider": {w.Ana}, "date": {w.Day}, "time": {"10:00"}}
	wantBody(t, c.get(t, "/bookings/explain?"+q.Encode()), "Save the business settings first")
}

// On a fall-back night a booking's summary names the offset of a time the clock shows twice:
// 01:30 to 02:00 (UTC−4) is 01:30 to 01:00 by the clock, which read bare as "01:30–01:00"
// looks backwards and says nothing of which 01:30 it is.
func TestBookingSummaryOnFallBackNight(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	form := url.Values{
		"location": {w.Night}, "service": {w.Service}, "provider": {w.Nora}, "client": {w.Maria},
		"date": {"2027-11-07"}, "time": {"01:30"}, "offset": {"-04:00"}, "status": {"1"},
	}
	res := c.post(t, "/bookings", form)
	if res.Status != http.StatusSeeOther {
		t.Fatalf("status %d, want 303; body:\n%.2000s", res.Status, res.Body)
	}
	var id int64
	if err := openBookingDB(t, ts).Read.QueryRow(`SELECT id FROM bookings`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	res = c.get(t, "/bookings/"+strconv.FormatInt(id, 10))
	wantStatus(t, res, http.StatusOK)
	wantBody(t, res, "Sunday, 7 November 2027, 01:30 (UTC−4)–01:00 (UTC−5) (America/New_York)")
	wantBody(t, c.get(t, "/bookings?from=2027-11-07&to=2027-11-07"), "01:30 (UTC−4)–01:00 (UTC−5)")
	wantBody(t, c.get(t, "/bookings/day?location="+w.Night+"&date=2027-11-07"), "01:30 (UTC−4)–01:00 (UTC−5)")

	// Another booking over it is refused with the same times.
	form.Set("client", w.Pedro)
	form.Set("time", "01:45")
	res = c.post(t, "/bookings", form)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, "Nora already has a booking at 01:30 (UTC−4)–01:00 (UTC−5)")
}
