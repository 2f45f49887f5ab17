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
	VisitID    int64        `json:"visit_id"`
	Bookings   []bookingOut `json:"bookings"`
	TotalPrice string       `json:"total_price"`
	Payment    *struct {
		PaymentRequestID int64  `json:"payment_request_id"`
		Amount           string `json:"amount"`
		CheckoutURL      string `json:"checkout_url"`
	} `json:"payment"`
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

// TestBookVisitPayOnline: book_visit with pay_online holds every booking of the visit for one
// payment request of its total and answers its checkout link, as POST /v3/visits does; without
// online payments set up it is refused and nothing is written; without pay_online the visit
// is booked confirmed with no payment.
func TestBookVisitPayOnline(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs := f.connect(f.fullKey)
	var times visitTimesOut
	ok(t, cs, "find_visit_times", map[string]any{"location_id": 1, "service_ids": []int64{1, 2}, "date": "2027-04-02"}, &times)
	if len(times.Times) < 2 {
		t.Fatalf("visit times %+v: want at least two", times)
	}
	args := map[string]any{"location_id": 1, "service_ids": []int64{1, 2}, "starts_at": times.Times[0].StartsAt, "client_id": clientMaria,
		"idempotency_key": "visit-paid", "pay_online": true}
	r := fails(t, cs, "book_visit", args, "not_allowed")
	if !strings.Contains(r.text, "pay_online") {
		t.Errorf("refusal without online payments: %q, want it to name pay_online", r.text)
	}
	if n := count(t, f, "SELECT count(*) FROM bookings"); n != 0 {
		t.Fatalf("%d bookings written by a refused visit", n)
	}

	exec(t, f, `UPDATE company SET online_payments = 1`)
	var v visitOut
	r = ok(t, cs, "book_visit", args, &v)
	if v.Payment == nil || v.Payment.Amount != v.TotalPrice || !strings.HasPrefix(v.Payment.CheckoutURL, "https://book.example.com/pay/") {
		t.Fatalf("visit %+v: want one payment request of its total with a checkout link", v)
	}
	if !strings.Contains(r.text, v.Payment.CheckoutURL) {
		t.Errorf("answer %q does not give the checkout link", r.text)
	}
	if n := count(t, f, "SELECT count(*) FROM bookings WHERE status_id = 2 AND payment_request_id = ?", v.Payment.PaymentRequestID); n != 2 || len(v.Bookings) != 2 {
		t.Fatalf("%d bookings reserved for the request, want the visit's 2", n)
	}

	args["starts_at"], args["idempotency_key"], args["pay_online"] = times.Times[len(times.Times)-1].StartsAt, "visit-unpaid", false
	var plain visitOut
	ok(t, cs, "book_visit", args, &plain)
	if plain.Payment != nil || count(t, f, "SELECT count(*) FROM bookings WHERE status_id = 1") != 2 {
		t.Fatalf("visit without pay_online %+v: want it confirmed, with no payment", plain)
	}
}
