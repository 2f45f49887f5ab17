package customer_test

import (
	"context"
	"testing"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/payments"
)

// A visit reserved for payment gets one payment request for its total, every booking of it
// held for that request; paying it confirms them all at once, and the client gets one
// checkout link.
func TestVisitHasOnePaymentRequest(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	now := time.Now()
	scl, err := time.LoadLocation("America/Santiago")
	if err != nil {
		t.Fatal(err)
	}
	day := now.In(scl).AddDate(0, 0, 3)
	start := time.Date(day.Year(), day.Month(), day.Day(), 10, 0, 0, 0, scl)
	pr, v, err := payments.ReserveVisit(ctx, f.db, now, booking.NewVisit{LocationID: 1, ClientID: 1, Source: booking.SourceOnline, Start: start,
		Segments: []booking.VisitSegment{{ServiceID: 1, ProviderID: 1}, {ServiceID: 1, ProviderID: 1}}}, f.url, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Bookings) != 2 || pr.AmountCents != v.PriceCents || pr.AmountCents != 2*v.Bookings[0].Booking.PriceCents {
		t.Fatalf("request for %d, visit of %d bookings costs %d; want one request for the whole visit", pr.AmountCents, len(v.Bookings), v.PriceCents)
	}
	count := func(q string, args ...any) (n int) {
		t.Helper()
		if err := f.db.Read.QueryRow(q, args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(`SELECT count(*) FROM payment_requests`); n != 1 {
		t.Fatalf("%d payment requests, want 1", n)
	}
	if n := count(`SELECT count(*) FROM bookings WHERE payment_request_id = ? AND status_id = 2`, pr.ID); n != 2 {
		t.Fatalf("%d reserved bookings held for the request, want both", n)
	}
	if n := count(`SELECT count(*) FROM messages WHERE kind = 'payment_request'`); n != 1 {
		t.Fatalf("%d checkout links, want 1", n)
	}
	if _, err := payments.Settle(ctx, f.db, pr.ID, payments.MethodCash, now); err != nil {
		t.Fatal(err)
	}
	if n := count(`SELECT count(*) FROM bookings WHERE status_id = 1`); n != 2 {
		t.Fatalf("%d bookings confirmed by paying, want both", n)
	}
}
