package mcp_test

import (
	"strings"
	"testing"
)

type visitTimesOut struct {
	Times []struct {
		StartsAt  string `json:"starts_at"`
		LocalTime string `json:"local_time"`
		Parts     []struct {
			LocalTime string `json:"local_time"`
		} `json:"parts"`
	} `json:"times"`
}

type visitOut struct {
	VisitID  int64        `json:"visit_id"`
	Bookings []bookingOut `json:"bookings"`
}

// TestVisitTools: find_visit_times offers a haircut then a colour with Ana on Friday; book_visit
// books both as one visit through the same domain function as /v3, once per idempotency key;
// the same time again is refused as just taken.
func TestVisitTools(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs := f.connect(f.fullKey)
	var times visitTimesOut
	ok(t, cs, "find_visit_times", map[string]any{"location_id": 1, "service_ids": []int64{1, 2}, "date": "2027-04-02"}, &times)
	if len(times.Times) == 0 || len(times.Times[0].Parts) != 2 || times.Times[0].LocalTime != "09:00" || times.Times[0].Parts[1].LocalTime != "09:30" {
		t.Fatalf("visit times %+v: want 09:00 haircut then 09:30 colour", times)
	}
	args := map[string]any{"location_id": 1, "service_ids": []int64{1, 2}, "starts_at": times.Times[0].StartsAt, "client_id": clientMaria, "idempotency_key": "visit-1"}
	var a, b visitOut
	ok(t, cs, "book_visit", args, &a)
	r := ok(t, cs, "book_visit", args, &b)
	if a.VisitID == 0 || a.VisitID != b.VisitID || len(a.Bookings) != 2 || !strings.Contains(r.text, "Already booked") {
		t.Fatalf("visit %+v, retried %+v (%q)", a, b, r.text)
	}
	if n := count(t, f, "SELECT count(*) FROM visit_bookings WHERE visit_id = 1"); n != 2 {
		t.Fatalf("%d bookings in the visit, want 2", n)
	}
	args["idempotency_key"], args["client_id"] = "visit-2", clientJohn
	fails(t, cs, "book_visit", args, "just_taken")
}
