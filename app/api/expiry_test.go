package api

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"frontdesk/app/payments"
)

// fakeClock is a clock the test moves while the API and the expiry worker read it.
type fakeClock struct{ ms atomic.Int64 }

func newFakeClock(t time.Time) *fakeClock {
	c := &fakeClock{}
	c.ms.Store(t.UnixMilli())
	return c
}

func (c *fakeClock) Now() time.Time           { return time.UnixMilli(c.ms.Load()).UTC() }
func (c *fakeClock) Advance(d time.Duration)  { c.ms.Add(d.Milliseconds()) }
func (c *fakeClock) Set(t time.Time)          { c.ms.Store(t.UnixMilli()) }
func withClock(c *fakeClock) func(o *Options) { return func(o *Options) { o.Now = c.Now } }
func requestStatus(t *testing.T, f *fixture, id int64) string {
	t.Helper()
	var s string
	if err := f.db.Read.QueryRow(`SELECT status FROM payment_requests WHERE id = ?`, id).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// ExpireDue leaves a request alone until its expires_at and then expires it: status expired,
// the reserved booking released (the slot is offered again), payment_request.expired recorded
// with the request, its cart and the released booking.
func TestExpireDue(t *testing.T) {
	clock := newFakeClock(fixtureNow)
	f := newFixture(t, withClock(clock))
	f.enablePayments(t)
	cart := f.createCart(t, haircutCart())
	pr := f.createPaymentRequest(t, cart.ID)
	bookingID := int64(bkCount(t, f, `SELECT id FROM bookings WHERE payment_request_id = ?`, pr.ID))
	e := payments.NewExpirer(f.db, testLogger(t), clock.Now)
	ctx := context.Background()

	clock.Advance(15*time.Minute - time.Millisecond)
	next, err := e.ExpireDue(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := fixtureNow.Add(15 * time.Minute); !next.Equal(want) {
		t.Errorf("got next expiry %v, want %v", next, want)
	}
	if got := requestStatus(t, f, pr.ID); got != "pending" {
		t.Fatalf("got status %s a millisecond before expiry, want pending", got)
	}

	clock.Advance(time.Millisecond)
	if next, err = e.ExpireDue(ctx); err != nil || !next.IsZero() {
		t.Fatalf("got next %v, err %v; want no pending request left", next, err)
	}
	if got := requestStatus(t, f, pr.ID); got != "expired" {
		t.Errorf("got status %s at expires_at, want expired", got)
	}
	if got := bookingStatus(t, f, bookingID); got != 5 {
		t.Errorf("got booking status %d, want 5 (released)", got)
	}
	if !f.benOffered(t) {
		t.Error("Ben's Tuesday 10:00 is not offered again after the request expired")
	}
	ev := lastEvent(t, f, "payment_request.expired")
	if ev.ID != pr.ID || ev.Status != "expired" || ev.CartID != cart.ID || !slices.Equal(ev.BookingIDs, []int64{bookingID}) || ev.SaleID != nil {
		t.Errorf("got payment_request.expired data %+v, want request %d expired, cart %d, bookings [%d], no sale", ev, pr.ID, cart.ID, bookingID)
	}
	if got, want := eventTypesOf(t, f), []string{"booking.created", "booking.updated", "payment_request.expired"}; !slices.Equal(got, want) {
		t.Errorf("got events %v, want %v", got, want)
	}
}

// Run wakes up by itself when a request is due: the test moves the clock and waits for the
// outcome, without sleeping for a guessed time.
func TestExpirerRun(t *testing.T) {
	clock := newFakeClock(fixtureNow)
	f := newFixture(t, withClock(clock))
	f.enablePayments(t)
	pr := f.createPaymentRequest(t, f.createCart(t, haircutCart()).ID)
	e := payments.NewExpirer(f.db, testLogger(t), clock.Now)
	e.MaxWait = 10 * time.Millisecond
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.Run(ctx) }()

	clock.Advance(16 * time.Minute)
	deadline := time.Now().Add(10 * time.Second)
	for requestStatus(t, f, pr.ID) != "expired" {
		if time.Now().After(deadline) {
			t.Fatal("the worker did not expire the request within 10 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
	stop()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run returned %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after its context ended")
	}
	if n := bkCount(t, f, `SELECT count(*) FROM events WHERE type = 'payment_request.expired'`); n != 1 {
		t.Errorf("got %d payment_request.expired events, want exactly 1", n)
	}
}

// Before the worker gets to it, a request past its expiry is already expired for cancel and
// settle: they expire it (with its event) and refuse, so timing never changes the outcome.
func TestDueRequestIsExpiredByEveryOperation(t *testing.T) {
	clock := newFakeClock(fixtureNow)
	f := newFixture(t, withClock(clock))
	f.enablePayments(t)
	first := f.createPaymentRequest(t, f.createCart(t, haircutCart()).ID)
	clock.Advance(16 * time.Minute)
	resp, raw := f.call("PATCH", "/v3/payment_requests/"+itoa(first.ID)+"/cancel", nil)
	wantError(t, resp, raw, http.StatusUnprocessableEntity, "payment_request_invalid_status", "the payment request is expired; only a pending request can be changed")
	if got := requestStatus(t, f, first.ID); got != "expired" {
		t.Errorf("got status %s, want expired", got)
	}

	clock.Set(fixtureNow)
	second := f.createPaymentRequest(t, f.createCart(t, map[string]any{"client_id": 1, "location_id": 1,
		"items": []any{cartItem(map[string]any{"instances": bookingInstance("2026-11-24T14:00:00Z")})}}).ID)
	clock.Advance(16 * time.Minute)
	_, err := payments.Settle(context.Background(), f.db, second.ID, payments.MethodCash, clock.Now())
	var refusal *payments.RefusedError
	if !errors.As(err, &refusal) || refusal.Code != payments.CodeInvalidStatus {
		t.Errorf("settle after expiry: got %v, want %s", err, payments.CodeInvalidStatus)
	}
	if got := requestStatus(t, f, second.ID); got != "expired" {
		t.Errorf("got status %s, want expired", got)
	}
	if n := f.count("sales"); n != 0 {
		t.Errorf("got %d sales, want none for an expired request", n)
	}
	if n := bkCount(t, f, `SELECT count(*) FROM events WHERE type = 'payment_request.expired'`); n != 2 {
		t.Errorf("got %d payment_request.expired events, want 2", n)
	}
}
