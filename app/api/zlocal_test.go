package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"frontdesk/app/apikey"
)

// A conversational booking assistant written for Connect v3 (issue 10, item 1): it reads the
// slots' local "date" and "start_time" and sends them back as "<date>T<HH:MM>:00Z", meaning the
// location's wall clock. assistant is such a client, with its own key.
type assistant struct {
	f   *fixture
	key string
}

// slot asks for the day's slots and returns the one starting at hhmm (local).
func (a assistant) slot(t *testing.T, query, hhmm string) (date, startsAt, endsAt string) {
	t.Helper()
	resp, raw := a.f.callWithKey(a.key, "GET", "/v3/available_slots?"+query, nil)
	wantStatus(t, resp, raw, http.StatusOK)
	var out struct {
		Data struct {
			Slots []struct {
				Date      string `json:"date"`
				StartTime string `json:"start_time"`
				StartsAt  string `json:"starts_at"`
				EndsAt    string `json:"ends_at"`
			} `json:"slots"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	for _, s := range out.Data.Slots {
		if s.StartTime == hhmm {
			return s.Date, s.StartsAt, s.EndsAt
		}
	}
	t.Fatalf("no slot at %s in %s", hhmm, raw)
	return "", "", ""
}

// localZ is how the assistant writes a local wall-clock time.
func localZ(date, hhmm string) string { return date + "T" + hhmm + ":00Z" }

func (a assistant) book(body map[string]any) (*http.Response, []byte) {
	return a.f.callWithKey(a.key, "POST", "/v3/bookings", body)
}

type bookingTimes struct {
	ID        int64  `json:"id"`
	StartTime string `json:"start_time"`
	EndTime   string `json:"end_time"`
}

func decodeTimes(t *testing.T, raw []byte) bookingTimes {
	t.Helper()
	var b bookingTimes
	if err := json.Unmarshal(raw, &b); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return b
}

func haircut(provider int, start string) map[string]any {
	return map[string]any{"service_id": 1, "provider_id": provider, "client_id": 1, "location_id": 1, "status_id": 1, "start_time": start}
}

func TestZMeansLocalBookings(t *testing.T) {
	f := newFixture(t)
	a := assistant{f, f.createKey(apikey.NewKey{Name: "assistant", Scopes: apikey.FullAccess, ZMeansLocal: true})}

	// The assistant books the 15:00 slot it was offered, writing 15:00 as "15:00:00Z".
	date, startsAt, endsAt := a.slot(t, "location_id=1&service_id=1&provider_id=1&start_date=2026-11-24", "15:00")
	resp, raw := a.book(haircut(1, localZ(date, "15:00")))
	got := decodeTimes(t, wantStatus(t, resp, raw, http.StatusCreated))
	if got.StartTime != startsAt || got.EndTime != endsAt || startsAt != "2026-11-24T15:00:00-03:00" {
		t.Fatalf("booked %s–%s, want the offered slot %s–%s (15:00 in Santiago, with its true offset)", got.StartTime, got.EndTime, startsAt, endsAt)
	}
	validateResponse(t, "createBooking", resp, raw)
	resp, raw = f.call("GET", fmt.Sprintf("/v3/bookings/%d", got.ID), nil)
	if read := decodeTimes(t, wantStatus(t, resp, raw, http.StatusOK)); read.StartTime != startsAt {
		t.Errorf("read back %s, want %s", read.StartTime, startsAt)
	}
	var event string
	if err := f.db.Read.QueryRow(`SELECT body FROM events WHERE type = 'booking.created' ORDER BY created_at DESC, rowid DESC LIMIT 1`).Scan(&event); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(event, `"start_time":"2026-11-24T15:00:00-03:00"`) {
		t.Errorf("event %s does not carry the true start time", event)
	}

	// The same request from a key without the option: Z is UTC, so 15:30Z is 12:30 in Santiago
	// (what the integrations saw: bookings hours off).
	resp, raw = f.call("POST", "/v3/bookings", haircut(2, localZ(date, "15:30")))
	if b := decodeTimes(t, wantStatus(t, resp, raw, http.StatusCreated)); b.StartTime != "2026-11-24T12:30:00-03:00" {
		t.Errorf("a key without the option booked %s, want 12:30 local (Z read as UTC)", b.StartTime)
	}

	// "+00:00" is the same reading; any other offset is an instant, even for this key.
	tests := []struct {
		name, start, want string
	}{
		{"plus zero", "2026-11-24T16:00:00+00:00", "2026-11-24T16:00:00-03:00"},
		{"minus zero", "2026-11-25T16:00:00-00:00", "2026-11-25T16:00:00-03:00"},
		{"own offset", "2026-11-24T17:00:00-03:00", "2026-11-24T17:00:00-03:00"},
		{"other offset", "2026-11-25T09:00:00-05:00", "2026-11-25T11:00:00-03:00"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, raw := a.book(haircut(1, tc.start))
			if b := decodeTimes(t, wantStatus(t, resp, raw, http.StatusCreated)); b.StartTime != tc.want {
				t.Errorf("sent %s, booked %s; want %s", tc.start, b.StartTime, tc.want)
			}
		})
	}

	// An explicit end_time in Z is local too.
	body := haircut(1, localZ("2026-11-26", "10:00"))
	body["end_time"] = localZ("2026-11-26", "11:00")
	resp, raw = a.book(body)
	if b := decodeTimes(t, wantStatus(t, resp, raw, http.StatusCreated)); b.StartTime != "2026-11-26T10:00:00-03:00" || b.EndTime != "2026-11-26T11:00:00-03:00" {
		t.Errorf("booked %s–%s, want 10:00–11:00 local", b.StartTime, b.EndTime)
	}

	// A reschedule through PATCH reads Z the same way; moving only the end keeps the start.
	path := fmt.Sprintf("/v3/bookings/%d", got.ID)
	resp, raw = f.callWithKey(a.key, "PATCH", path, map[string]any{"start_time": localZ("2026-11-27", "11:00")})
	if b := decodeTimes(t, wantStatus(t, resp, raw, http.StatusOK)); b.StartTime != "2026-11-27T11:00:00-03:00" || b.EndTime != "2026-11-27T11:30:00-03:00" {
		t.Errorf("rescheduled to %s–%s, want 11:00–11:30 local", b.StartTime, b.EndTime)
	}
	validateResponse(t, "updateBooking", resp, raw)
	resp, raw = f.callWithKey(a.key, "PATCH", path, map[string]any{"end_time": localZ("2026-11-27", "11:45")})
	if b := decodeTimes(t, wantStatus(t, resp, raw, http.StatusOK)); b.StartTime != "2026-11-27T11:00:00-03:00" || b.EndTime != "2026-11-27T11:45:00-03:00" {
		t.Errorf("after moving the end: %s–%s, want 11:00–11:45 local", b.StartTime, b.EndTime)
	}
	// Sending the booking's own local times back in Z changes nothing.
	resp, raw = f.callWithKey(a.key, "PATCH", path, map[string]any{"start_time": localZ("2026-11-27", "11:00"), "end_time": localZ("2026-11-27", "11:45")})
	wantStatus(t, resp, raw, http.StatusOK)
	var changes int
	if err := f.db.Read.QueryRow(`SELECT change_count FROM bookings WHERE id = ?`, got.ID).Scan(&changes); err != nil || changes != 2 {
		t.Errorf("change_count %d (%v), want 2: the same local times must not count as a reschedule", changes, err)
	}
	// A move to another location reads the time in the new location's zone.
	resp, raw = f.callWithKey(a.key, "PATCH", path, map[string]any{"location_id": 2, "provider_id": 3, "start_time": localZ("2026-11-27", "11:00")})
	if b := decodeTimes(t, wantStatus(t, resp, raw, http.StatusOK)); b.StartTime != "2026-11-27T11:00:00-05:00" {
		t.Errorf("moved to New York at %s, want 11:00 New York time", b.StartTime)
	}
}

// TestZMeansLocalAcrossTransitions: a local time a spring-forward skips is refused with a 422
// naming it; one a fall-back repeats is its first occurrence.
func TestZMeansLocalAcrossTransitions(t *testing.T) {
	f := newFixture(t)
	f.now = time.Date(2026, 10, 30, 12, 0, 0, 0, time.UTC)
	local := f.createKey(apikey.NewKey{Name: "assistant", Scopes: apikey.FullAccess, ZMeansLocal: true})
	// New York and Cleo open all Sunday (fall-back night 2026-11-01, spring-forward 2027-03-14).
	for _, q := range []string{
		`INSERT INTO location_hours (location_id, day_id, open_min, close_min) VALUES (2, 0, 0, 1440)`,
		`INSERT INTO provider_hours (provider_id, location_id, day_id, open_min, close_min) VALUES (3, 2, 0, 0, 1440)`,
		`UPDATE company SET max_advance_days = 0`,
	} {
		if _, err := f.db.Write.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	cleo := func(start string) map[string]any {
		return map[string]any{"service_id": 1, "provider_id": 3, "client_id": 2, "location_id": 2, "status_id": 1, "start_time": start}
	}

	resp, raw := f.callWithKey(local, "POST", "/v3/bookings", cleo("2026-11-01T01:30:00Z"))
	b := decodeTimes(t, wantStatus(t, resp, raw, http.StatusCreated))
	if b.StartTime != "2026-11-01T01:30:00-04:00" || b.EndTime != "2026-11-01T01:00:00-05:00" {
		t.Errorf("repeated 01:30 booked as %s–%s, want the first occurrence (EDT, -04:00), ending 30 minutes later", b.StartTime, b.EndTime)
	}
	// The second occurrence is reachable with its own offset.
	resp, raw = f.callWithKey(local, "POST", "/v3/bookings", cleo("2026-11-01T01:30:00-05:00"))
	if b := decodeTimes(t, wantStatus(t, resp, raw, http.StatusCreated)); b.StartTime != "2026-11-01T01:30:00-05:00" {
		t.Errorf("second 01:30 booked as %s", b.StartTime)
	}

	resp, raw = f.callWithKey(local, "POST", "/v3/bookings", cleo("2027-03-14T02:30:00Z"))
	wantError(t, resp, raw, http.StatusUnprocessableEntity, "unprocessable_entity",
		"start_time: 2027-03-14T02:30 in America/New_York does not exist: the clocks skip it that day (a daylight-saving change)")
	path := fmt.Sprintf("/v3/bookings/%d", b.ID)
	resp, raw = f.callWithKey(local, "PATCH", path, map[string]any{"start_time": "2027-03-14T02:00:00+00:00"})
	wantStatus(t, resp, raw, http.StatusUnprocessableEntity)
	// Nothing was written by the refusals.
	var n int
	if err := f.db.Read.QueryRow(`SELECT count(*) FROM bookings WHERE start_at >= ?`, time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d bookings in 2027 after refusals (%v)", n, err)
	}
}

// TestZMeansLocalCarts: on-demand booking times in a cart written by the key are read as the
// cart location's wall clock and stored as the true instant in UTC, which the payment request
// books.
func TestZMeansLocalCarts(t *testing.T) {
	f := newFixture(t)
	f.enablePayments(t)
	local := f.createKey(apikey.NewKey{Name: "assistant", Scopes: apikey.FullAccess, ZMeansLocal: true})
	cart := haircutCart()
	cart["items"] = []any{cartItem(map[string]any{"instances": bookingInstance("2026-11-24T10:00:00Z")})}
	resp, raw := f.callWithKey(local, "POST", "/v3/carts", cart)
	wantStatus(t, resp, raw, http.StatusCreated)
	validateResponse(t, "createCart", resp, raw)
	if !strings.Contains(string(raw), `"start_time":"2026-11-24T13:00:00Z"`) {
		t.Fatalf("cart %s: want 10:00 Santiago stored as 13:00Z", raw)
	}
	var c cartResp
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	resp, raw = f.callWithKey(local, "POST", fmt.Sprintf("/v3/carts/%d/payment_requests", c.ID), nil)
	wantStatus(t, resp, raw, http.StatusCreated)
	resp, raw = f.call("GET", "/v3/bookings?service_provider_id=2", nil)
	if !strings.Contains(string(wantStatus(t, resp, raw, http.StatusOK)), `"start_time":"2026-11-24T10:00:00-03:00"`) {
		t.Errorf("reserved bookings %s: want one at 10:00 Santiago", raw)
	}

	// PATCH reads "+00:00" the same way; a key without the option keeps Z as UTC.
	cart["items"] = []any{cartItem(map[string]any{"instances": bookingInstance("2026-11-25T11:00:00+00:00")})}
	resp, raw = f.callWithKey(local, "PATCH", fmt.Sprintf("/v3/carts/%d", c.ID), cart)
	if !strings.Contains(string(wantStatus(t, resp, raw, http.StatusOK)), `"start_time":"2026-11-25T14:00:00Z"`) {
		t.Errorf("patched cart %s: want 11:00 Santiago stored as 14:00Z", raw)
	}
	cart["items"] = []any{cartItem(map[string]any{"instances": bookingInstance("2026-11-25T14:00:00Z")})}
	resp, raw = f.call("POST", "/v3/carts", cart)
	if !strings.Contains(string(wantStatus(t, resp, raw, http.StatusCreated)), `"start_time":"2026-11-25T14:00:00Z"`) {
		t.Errorf("cart of a plain key %s: want the time as sent", raw)
	}

	// A skipped local time is refused, and nothing is written.
	var before int
	f.db.Read.QueryRow(`SELECT count(*) FROM carts`).Scan(&before)
	cart["items"] = []any{cartItem(map[string]any{"instances": bookingInstance("2026-09-06T00:30:00Z")})}
	resp, raw = f.callWithKey(local, "POST", "/v3/carts", cart)
	wantError(t, resp, raw, http.StatusUnprocessableEntity, "invalid_start_time",
		"items[0].instances[0].data.start_time: 2026-09-06T00:30 in America/Santiago does not exist: the clocks skip it that day (a daylight-saving change)")
	var after int
	f.db.Read.QueryRow(`SELECT count(*) FROM carts`).Scan(&after)
	if after != before {
		t.Errorf("carts %d → %d after a refusal", before, after)
	}
}

// A booking time sent with "Z" (or +00:00) that is refused as outside the location's hours
// probably meant the location's clock: the 422's detail — same status, same error, same
// leading "start_time: outside_hours: …" — goes on to say what the instant is there, in which
// zone, and how to book the time meant (its offset, or the key's z_means_local option). Other
// refusals, and times sent with an offset, keep their detail as it was.
func TestUTCTimeOutsideHoursNamesTheZone(t *testing.T) {
	f := newFixture(t)
	hint := func(utc, local, meant string) string {
		return ". The time was sent with Z, so it was read as UTC: " + utc + " UTC is " + local +
			" in America/Santiago, the location's time zone. To book " + utc + " there, send " + meant +
			", or ask the business owner to turn on this API key's z_means_local option (docs/api.md, Local times sent with Z)"
	}
	for _, c := range []struct {
		name, method, path string
		body               map[string]any
		detail             string
	}{
		{"create, before opening", "POST", "/v3/bookings", haircut(2, "2026-11-24T09:00:00Z"),
			"start_time: outside_hours: 06:00–06:30 is outside the location's opening hours" + hint("2026-11-24 09:00", "2026-11-24 06:00", "2026-11-24T09:00:00-03:00")},
		{"create, a closed day", "POST", "/v3/bookings", haircut(2, "2026-11-30T01:00:00Z"),
			"start_time: closed: the location is closed on Sunday 2026-11-29" + hint("2026-11-30 01:00", "2026-11-29 22:00", "2026-11-30T01:00:00-03:00")},
		{"create, +00:00", "POST", "/v3/bookings", haircut(2, "2026-11-24T09:30:00+00:00"),
			"start_time: outside_hours: 06:30–07:00 is outside the location's opening hours" +
				strings.Replace(hint("2026-11-24 09:30", "2026-11-24 06:30", "2026-11-24T09:30:00-03:00"), "sent with Z", "sent with +00:00", 1)},
		{"reschedule", "PATCH", "/v3/bookings/1", map[string]any{"start_time": "2026-11-25T08:00:00Z"},
			"start_time: outside_hours: 05:00–05:30 is outside the location's opening hours" + hint("2026-11-25 08:00", "2026-11-25 05:00", "2026-11-25T08:00:00-03:00")},
		{"with the location's offset", "POST", "/v3/bookings", haircut(2, "2026-11-24T06:00:00-03:00"),
			"start_time: outside_hours: 06:00–06:30 is outside the location's opening hours"},
		{"open, but Ben is not working", "POST", "/v3/bookings", haircut(2, "2026-11-24T21:30:00Z"),
			"start_time: not_working: Ben is not working all of 18:30–19:00"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.method == "PATCH" && f.count("bookings") == 0 {
				f.book(t, nil) // booking 1: Ben, Tuesday 10:00
			}
			resp, raw := f.call(c.method, c.path, c.body)
			wantError(t, resp, raw, http.StatusUnprocessableEntity, "unprocessable_entity", c.detail)
			validateResponse(t, map[string]string{"POST": "createBooking", "PATCH": "updateBooking"}[c.method], resp, raw)
		})
	}
	// For a key whose Z means local, 06:00Z is 06:00 there: refused without the hint.
	local := f.createKey(apikey.NewKey{Name: "assistant", Scopes: apikey.FullAccess, ZMeansLocal: true})
	resp, raw := f.callWithKey(local, "POST", "/v3/bookings", haircut(2, "2026-11-24T06:00:00Z"))
	wantError(t, resp, raw, http.StatusUnprocessableEntity, "unprocessable_entity", "start_time: outside_hours: 06:00–06:30 is outside the location's opening hours")
}
