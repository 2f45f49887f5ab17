package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"frontdesk/app/booking"
)

// The yoga class of these tests: service 6 "Yoga", 60 minutes, given by Ben (provider 2) at
// Providencia (location 1) every Monday at 10:00, so on 2026-11-30 from 10:00 to 11:00 −03:00.
const (
	yogaID      = 6
	yogaMonday  = "2026-11-30T10:00:00-03:00"
	yogaSession = "location_id=1&service_id=6&start_date=2026-11-30"
)

// addYoga adds the yoga class with capacity seats and its Monday timetable entry, and clients
// 4…clients (client 1–3 are seeded).
func (f *fixture) addYoga(capacity, clients int) {
	f.t.Helper()
	ms := f.now.UnixMilli()
	f.exec(`INSERT INTO services (id, uuid, name, price_cents, duration_min, capacity, online_booking, keywords_json, created_at, updated_at)
		VALUES (6, '66666666-6666-4666-8666-666666666666', 'Yoga', 800000, 60, ?, 1, '["yoga"]', ?, ?)`, capacity, ms, ms)
	f.exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (6, 2)`)
	for c := 4; c <= clients; c++ {
		f.exec(`INSERT INTO clients (id, first_name, last_name, created_at, updated_at) VALUES (?, 'Client', ?, ?, ?)`, c, fmt.Sprint(c), ms, ms)
	}
	_, _, err := booking.CreateTimetableEntry(context.Background(), f.db, f.now, booking.TimetableInput{
		LocationID: 1, ServiceID: yogaID, ProviderID: 2, Weekday: time.Monday, StartMin: 600, ValidFrom: booking.Date{Year: 2026, Month: 11, Day: 23},
	})
	if err != nil {
		f.t.Fatal(err)
	}
}

// yogaBooking is the body of a booking of the Monday session for a client.
func yogaBooking(client int) string {
	b, _ := json.Marshal(bkBooking(map[string]any{"service_id": yogaID, "provider_id": 2, "client_id": client, "start_time": yogaMonday}))
	return string(b)
}

// classSlot is a slot as a class answers it.
type classSlot struct {
	StartTime string `json:"start_time"`
	EndTime   string `json:"end_time"`
	StartsAt  string `json:"starts_at"`
	SessionID *int64 `json:"session_id"`
	Capacity  *int   `json:"capacity"`
	SeatsLeft *int   `json:"seats_left"`
}

func (f *fixture) classSlots(t *testing.T, query string) []classSlot {
	t.Helper()
	resp, raw := f.call("GET", "/v3/available_slots?"+query, nil)
	wantStatus(t, resp, raw, http.StatusOK)
	validateResponse(t, "listAvailableSlots", resp, raw)
	var body struct {
		Data struct {
			Slots []classSlot `json:"slots"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	return body.Data.Slots
}

func seatsOf(slots []classSlot) string {
	var out []string
	for _, s := range slots {
		if s.SeatsLeft == nil || s.Capacity == nil || s.SessionID == nil {
			out = append(out, s.StartsAt+" without seats")
			continue
		}
		out = append(out, fmt.Sprintf("%s %s–%s %d/%d", s.StartsAt, s.StartTime, s.EndTime, *s.SeatsLeft, *s.Capacity))
	}
	return strings.Join(out, ", ")
}

// TestClassSlots: a class is offered in its sessions with seats left, not every 15 minutes;
// a full session disappears (unless include_full); responses match both documents.
func TestClassSlots(t *testing.T) {
	f := newFixture(t)
	f.addYoga(3, 3)
	week := yogaSession + "&end_date=2026-12-07"
	if got, want := seatsOf(f.classSlots(t, week)), "2026-11-30T10:00:00-03:00 10:00–11:00 3/3, 2026-12-07T10:00:00-03:00 10:00–11:00 3/3"; got != want {
		t.Fatalf("got slots %s, want %s", got, want)
	}
	for c := 1; c <= 2; c++ {
		resp, raw := f.call("POST", "/v3/bookings", yogaBooking(c))
		wantStatus(t, resp, raw, http.StatusCreated)
		validateResponse(t, "createBooking", resp, raw)
	}
	if got, want := seatsOf(f.classSlots(t, yogaSession)), "2026-11-30T10:00:00-03:00 10:00–11:00 1/3"; got != want {
		t.Fatalf("after two bookings: got %s, want %s", got, want)
	}
	f.call("POST", "/v3/bookings", yogaBooking(3))
	if got := f.classSlots(t, yogaSession); len(got) != 0 {
		t.Fatalf("a full session: got %s, want it gone", seatsOf(got))
	}
	if got, want := seatsOf(f.classSlots(t, yogaSession+"&include_full=true")), "2026-11-30T10:00:00-03:00 10:00–11:00 0/3"; got != want {
		t.Fatalf("with include_full: got %s, want %s", got, want)
	}
	resp, raw := f.call("GET", "/v3/available_slots?"+yogaSession+"&include_full=maybe", nil)
	wantError(t, resp, raw, http.StatusBadRequest, "bad_request", "invalid_include_full")
}

// TestClassLastSeatsRace: 50 HTTP clients race for the last 8 seats of a 20-seat session:
// exactly 8 get 201, the rest 409 class_full, and the database holds 20. Then cancels,
// re-bookings by the same clients and new bookings race: never more than 20, no client twice.
func TestClassLastSeatsRace(t *testing.T) {
	f := newFixture(t)
	f.addYoga(20, 100)
	for c := 1; c <= 12; c++ {
		resp, raw := f.call("POST", "/v3/bookings", yogaBooking(c))
		wantStatus(t, resp, raw, http.StatusCreated)
	}
	var attempts []*bkAttempt
	for c := 13; c < 63; c++ {
		attempts = append(attempts, &bkAttempt{method: "POST", path: "/v3/bookings", body: yogaBooking(c)})
	}
	f.race(attempts)
	won := 0
	for _, a := range attempts {
		switch {
		case a.err != nil:
			t.Fatal(a.err)
		case a.status == http.StatusCreated:
			won++
		case a.status == http.StatusConflict && strings.Contains(string(a.resp), `"detail":"class_full"`):
		default:
			t.Fatalf("got %d %s, want 201 or 409 class_full", a.status, a.resp)
		}
	}
	if won != 8 {
		t.Fatalf("got %d winners for the last 8 seats, want 8", won)
	}
	live := `SELECT count(*) FROM bookings WHERE service_id = 6 AND status_id <> 5`
	if n := bkCount(t, f, live); n != 20 {
		t.Fatalf("got %d live seats, want 20", n)
	}

	// Round two: the first ten attendees cancel, five of them book again at once, and 35 new
	// clients book, all together.
	var ids []int64
	rows, err := f.db.Read.Query(`SELECT id FROM bookings WHERE service_id = 6 AND status_id <> 5 ORDER BY id LIMIT 10`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		rows.Scan(&id)
		ids = append(ids, id)
	}
	rows.Close()
	attempts = attempts[:0]
	for _, id := range ids {
		attempts = append(attempts, &bkAttempt{set: 1, method: "PATCH", path: fmt.Sprintf("/v3/bookings/%d/cancel", id)})
	}
	for c := 1; c <= 5; c++ {
		attempts = append(attempts, &bkAttempt{set: 2, method: "POST", path: "/v3/bookings", body: yogaBooking(c)})
	}
	for c := 63; c < 98; c++ {
		attempts = append(attempts, &bkAttempt{set: 3, method: "POST", path: "/v3/bookings", body: yogaBooking(c)})
	}
	f.race(attempts)
	won = 0
	for _, a := range attempts {
		switch {
		case a.err != nil:
			t.Fatal(a.err)
		case a.set == 1 && a.status == http.StatusNoContent:
		case a.set > 1 && a.status == http.StatusCreated:
			won++
		case a.set > 1 && a.status == http.StatusConflict && strings.Contains(string(a.resp), `"detail":"class_full"`):
		case a.set == 2 && a.status == http.StatusUnprocessableEntity && strings.Contains(string(a.resp), "already has a seat"):
			// re-booking before its own cancel went through
		default:
			t.Fatalf("%s %s: got %d %s", a.method, a.path, a.status, a.resp)
		}
	}
	n := bkCount(t, f, live)
	if n > 20 || n != 10+won {
		t.Fatalf("got %d live seats after %d new bookings on 10 kept, want 10+%d ≤ 20", n, won, won)
	}
	if dup := bkCount(t, f, `SELECT count(*) FROM (SELECT client_id FROM bookings WHERE service_id = 6 AND status_id <> 5 GROUP BY client_id HAVING count(*) > 1)`); dup != 0 {
		t.Fatalf("%d clients hold two seats", dup)
	}
	wantNoOverlaps(t, f)
}

// TestClassSameClientTwice: a client cannot hold two seats in one session (422), even with
// seats left.
func TestClassSameClientTwice(t *testing.T) {
	f := newFixture(t)
	f.addYoga(8, 3)
	resp, raw := f.call("POST", "/v3/bookings", yogaBooking(1))
	wantStatus(t, resp, raw, http.StatusCreated)
	resp, raw = f.call("POST", "/v3/bookings", yogaBooking(1))
	wantError(t, resp, raw, http.StatusUnprocessableEntity, "unprocessable_entity", "client_id: the client already has a seat in this session")
	validateResponse(t, "createBooking", resp, raw)
	resp, raw = f.call("POST", "/v3/bookings", bkBooking(map[string]any{"service_id": yogaID, "start_time": "2026-11-30T10:15:00-03:00"}))
	wantStatus(t, resp, raw, http.StatusUnprocessableEntity)
	if !strings.Contains(string(raw), "not_session_time") {
		t.Fatalf("a start that is no session: got %s, want not_session_time", raw)
	}
}

// TestClassHoldsItsProvider: a haircut with Ben during his class session is 409 whatever the
// number of attendees, while the time around the session is still offered for haircuts.
func TestClassHoldsItsProvider(t *testing.T) {
	f := newFixture(t)
	f.addYoga(8, 3)
	resp, raw := f.call("POST", "/v3/bookings", bkBooking(map[string]any{"start_time": "2026-11-30T10:30:00-03:00"}))
	wantError(t, resp, raw, http.StatusConflict, "conflict", "slot_unavailable")
	validateResponse(t, "createBooking", resp, raw)
	var body struct {
		Data struct {
			Slots []struct {
				StartTime string `json:"start_time"`
			} `json:"slots"`
		} `json:"data"`
	}
	f.getJSON("/v3/available_slots?location_id=1&service_id=1&provider_id=2&start_date=2026-11-30", &body)
	var starts []string
	for _, s := range body.Data.Slots {
		if s.StartTime < "12:00" {
			starts = append(starts, s.StartTime)
		}
	}
	if got, want := strings.Join(starts, " "), "09:00 09:15 09:30 11:00 11:15 11:30 11:45"; got != want {
		t.Fatalf("haircut starts before noon: got %s, want %s", got, want)
	}
	f.book(t, map[string]any{"start_time": "2026-11-30T09:30:00-03:00"})
	f.book(t, map[string]any{"start_time": "2026-11-30T11:00:00-03:00"})
}

// TestClassAcrossSantiagoDST: the weekly sessions keep their local wall time across both of
// Santiago's clock changes, as the API shows them (docs/classes.md: a session whose start falls
// in the missing hour is not held that day).
func TestClassAcrossSantiagoDST(t *testing.T) {
	f := newFixture(t)
	f.now = time.Date(2027, 3, 20, 12, 0, 0, 0, time.UTC)
	f.exec(`UPDATE company SET max_advance_days = 0`)
	f.addYoga(8, 3)
	for _, e := range []struct {
		day   time.Weekday
		start int
	}{{time.Saturday, 23*60 + 30}, {time.Sunday, 45}, {time.Sunday, 9 * 60}} {
		if _, _, err := booking.CreateTimetableEntry(context.Background(), f.db, f.now, booking.TimetableInput{
			LocationID: 1, ServiceID: yogaID, ProviderID: 2, Weekday: e.day, StartMin: e.start, ValidFrom: booking.Date{Year: 2027, Month: 3, Day: 1},
		}); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct{ dates, want string }{
		{"start_date=2027-04-03&end_date=2027-04-04", "2027-04-03T23:30:00-03:00 23:30–23:30 8/8, 2027-04-04T00:45:00-04:00 00:45–01:45 8/8, 2027-04-04T09:00:00-04:00 09:00–10:00 8/8"},
		{"start_date=2027-09-04&end_date=2027-09-05", "2027-09-04T23:30:00-04:00 23:30–01:30 8/8, 2027-09-05T09:00:00-03:00 09:00–10:00 8/8"},
	}
	for _, c := range cases {
		if got := seatsOf(f.classSlots(t, "location_id=1&service_id=6&"+c.dates)); got != c.want {
			t.Errorf("%s: got %s, want %s", c.dates, got, c.want)
		}
	}
}
