package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

type waitlistResp struct {
	ID        int64  `json:"id"`
	SessionID int64  `json:"session_id"`
	ClientID  int64  `json:"client_id"`
	Status    string `json:"status"`
	Position  *int64 `json:"position"`
	BookingID *int64 `json:"booking_id"`
}

func (f *fixture) join(t *testing.T, client int) waitlistResp {
	t.Helper()
	resp, raw := f.call("POST", "/v3/waitlist", joinBody(client))
	wantStatus(t, resp, raw, http.StatusCreated)
	validateResponse(t, "joinWaitlist", resp, raw)
	return decodeAs[waitlistResp](t, raw)
}

func joinBody(client int) string {
	b, _ := json.Marshal(map[string]any{"client_id": client, "service_id": yogaID, "provider_id": 2, "location_id": 1, "start_time": yogaMonday})
	return string(b)
}

func (f *fixture) entry(t *testing.T, id int64) waitlistResp {
	t.Helper()
	resp, raw := f.call("GET", fmt.Sprintf("/v3/waitlist/%d", id), nil)
	wantStatus(t, resp, raw, http.StatusOK)
	validateResponse(t, "getWaitlistEntry", resp, raw)
	return decodeAs[waitlistResp](t, raw)
}

// seatIDs returns the live bookings of the yoga session, oldest first.
func (f *fixture) seatIDs(t *testing.T) []int64 {
	t.Helper()
	rows, err := f.db.Read.Query(`SELECT id FROM bookings WHERE service_id = 6 AND status_id <> 5 ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		rows.Scan(&id)
		ids = append(ids, id)
	}
	return ids
}

// fillYoga books clients 1…n into the Monday session.
func (f *fixture) fillYoga(t *testing.T, n int) {
	t.Helper()
	for c := 1; c <= n; c++ {
		resp, raw := f.call("POST", "/v3/bookings", yogaBooking(c))
		wantStatus(t, resp, raw, http.StatusCreated)
	}
}

// TestWaitlist: clients join a full session's list in order; a cancel books the first of them
// in the cancel's own request, with booking.created; the rest move up and may leave.
func TestWaitlist(t *testing.T) {
	f := newFixture(t)
	f.addYoga(2, 6)
	f.fillYoga(t, 1)
	resp, raw := f.call("POST", "/v3/waitlist", joinBody(3))
	wantError(t, resp, raw, http.StatusConflict, "conflict", "seats_available")
	validateResponse(t, "joinWaitlist", resp, raw)
	resp, raw = f.call("POST", "/v3/bookings", yogaBooking(2))
	wantStatus(t, resp, raw, http.StatusCreated)
	resp, raw = f.call("POST", "/v3/bookings", yogaBooking(3))
	wantError(t, resp, raw, http.StatusConflict, "conflict", "class_full")
	validateResponse(t, "createBooking", resp, raw)

	w3, w4 := f.join(t, 3), f.join(t, 4)
	if *w3.Position != 1 || *w4.Position != 2 || w3.Status != "waiting" {
		t.Fatalf("got positions %d and %d, want 1 and 2", *w3.Position, *w4.Position)
	}
	for _, c := range []struct {
		client int
		detail string
	}{{3, "client_id: the client is already on the waitlist of this session"}, {1, "client_id: the client already has a seat in this session"}} {
		resp, raw := f.call("POST", "/v3/waitlist", joinBody(c.client))
		wantError(t, resp, raw, http.StatusUnprocessableEntity, "unprocessable_entity", c.detail)
		validateResponse(t, "joinWaitlist", resp, raw)
	}
	resp, raw = f.call("POST", "/v3/waitlist", fmt.Sprintf(`{"client_id":5,"session_id":%d}`, w3.SessionID))
	wantStatus(t, resp, raw, http.StatusCreated)
	w5 := decodeAs[waitlistResp](t, raw)

	created := bkCount(t, f, `SELECT count(*) FROM events WHERE type = 'booking.created'`)
	resp, raw = f.call("PATCH", fmt.Sprintf("/v3/bookings/%d/cancel", f.seatIDs(t)[0]), nil)
	wantStatus(t, resp, raw, http.StatusNoContent)
	got := f.entry(t, w3.ID)
	if got.Status != "booked" || got.BookingID == nil || got.Position != nil {
		t.Fatalf("first waiting client after the cancel: got %+v, want booked", got)
	}
	resp, raw = f.call("GET", fmt.Sprintf("/v3/bookings/%d", *got.BookingID), nil)
	wantStatus(t, resp, raw, http.StatusOK)
	validateResponse(t, "getBooking", resp, raw)
	b := decodeAs[struct {
		ClientID  int64  `json:"client_id"`
		SessionID *int64 `json:"session_id"`
	}](t, raw)
	if b.ClientID != 3 || b.SessionID == nil || *b.SessionID != w3.SessionID {
		t.Fatalf("the promoted booking: got %+v, want client 3 in the session", b)
	}
	if n := bkCount(t, f, `SELECT count(*) FROM events WHERE type = 'booking.created'`) - created; n != 1 {
		t.Fatalf("got %d booking.created for the promotion, want 1", n)
	}
	if got := f.entry(t, w4.ID); *got.Position != 1 {
		t.Fatalf("second waiting client: got position %d, want 1", *got.Position)
	}
	for range 2 { // leaving twice is fine
		resp, raw = f.call("PATCH", fmt.Sprintf("/v3/waitlist/%d/cancel", w4.ID), nil)
		wantStatus(t, resp, raw, http.StatusNoContent)
		validateResponse(t, "leaveWaitlist", resp, raw)
	}
	if got := f.entry(t, w5.ID); *got.Position != 1 {
		t.Fatalf("after client 4 left: got client 5 at %d, want 1", *got.Position)
	}
	resp, raw = f.call("GET", "/v3/waitlist/999", nil)
	wantError(t, resp, raw, http.StatusNotFound, "not_found", "waitlist_entry")
	validateResponse(t, "getWaitlistEntry", resp, raw)
}

// TestWaitlistPromotionSharesTheCancel: the promotion is part of the cancel's transaction. When
// writing it fails, the cancel fails with it: the seat is still taken and nobody is booked.
func TestWaitlistPromotionSharesTheCancel(t *testing.T) {
	f := newFixture(t)
	f.addYoga(2, 4)
	f.fillYoga(t, 2)
	w := f.join(t, 3)
	f.exec(`CREATE TRIGGER test_fail_promotion BEFORE UPDATE OF status ON waitlist_entries
		WHEN NEW.status = 'booked' BEGIN SELECT RAISE(ABORT, 'test_fail_promotion'); END`)
	seat := f.seatIDs(t)[0]
	events := bkCount(t, f, `SELECT count(*) FROM events`)
	resp, raw := f.call("PATCH", fmt.Sprintf("/v3/bookings/%d/cancel", seat), nil)
	wantStatus(t, resp, raw, http.StatusInternalServerError)
	if n := bkCount(t, f, `SELECT count(*) FROM bookings WHERE id = ? AND status_id = 1`, seat); n != 1 {
		t.Fatal("the cancel went through without its promotion")
	}
	if n := bkCount(t, f, `SELECT count(*) FROM bookings WHERE client_id = 3`); n != 0 {
		t.Fatal("the waiting client was booked without the cancel")
	}
	if n := bkCount(t, f, `SELECT count(*) FROM events`); n != events {
		t.Fatalf("got %d new events, want none", n-events)
	}
	f.exec(`DROP TRIGGER test_fail_promotion`)
	resp, raw = f.call("PATCH", fmt.Sprintf("/v3/bookings/%d/cancel", seat), nil)
	wantStatus(t, resp, raw, http.StatusNoContent)
	if got := f.entry(t, w.ID); got.Status != "booked" {
		t.Fatalf("after the retry: got %s, want booked", got.Status)
	}
}

// TestWaitlistRace: a full session of 8 with clients 9…16 waiting in that order; five
// attendees cancel while ten new clients join, all at once. The five freed seats go to
// clients 9…13 — the first five in the queue, no one skipped — the session never holds more
// than 8, and every join is accepted behind them.
func TestWaitlistRace(t *testing.T) {
	f := newFixture(t)
	f.addYoga(8, 30)
	f.fillYoga(t, 8)
	for c := 9; c <= 16; c++ {
		f.join(t, c)
	}
	seats := f.seatIDs(t)
	var attempts []*bkAttempt
	for _, id := range seats[:5] {
		attempts = append(attempts, &bkAttempt{set: 1, method: "PATCH", path: fmt.Sprintf("/v3/bookings/%d/cancel", id)})
	}
	for c := 17; c <= 26; c++ {
		attempts = append(attempts, &bkAttempt{set: 2, method: "POST", path: "/v3/waitlist", body: joinBody(c)})
	}
	f.race(attempts)
	for _, a := range attempts {
		if a.err != nil || a.set == 1 && a.status != http.StatusNoContent || a.set == 2 && a.status != http.StatusCreated {
			t.Fatalf("%s %s: got %d %s (%v)", a.method, a.path, a.status, a.resp, a.err)
		}
	}
	if n := len(f.seatIDs(t)); n != 8 {
		t.Fatalf("got %d seats taken, want 8", n)
	}
	var booked []string
	rows, err := f.db.Read.Query(`SELECT client_id FROM waitlist_entries WHERE status = 'booked' ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var c int
		rows.Scan(&c)
		booked = append(booked, fmt.Sprint(c))
	}
	rows.Close()
	if got := strings.Join(booked, " "); got != "9 10 11 12 13" {
		t.Fatalf("got clients %s booked from the list, want 9 10 11 12 13", got)
	}
	if n := bkCount(t, f, `SELECT count(*) FROM bookings b JOIN waitlist_entries w ON w.booking_id = b.id
		WHERE b.status_id <> 5 AND b.client_id = w.client_id`); n != 5 {
		t.Fatalf("got %d live bookings made from the list, want 5", n)
	}
	if n := bkCount(t, f, `SELECT count(*) FROM waitlist_entries WHERE status = 'waiting'`); n != 13 {
		t.Fatalf("got %d still waiting, want 13 (3 of the first eight and the 10 who joined)", n)
	}
}
