package dispatch

import (
	"context"
	"net/http"
	"testing"
	"time"

	"frontdesk/app/webhook"
	"frontdesk/db"
)

// A delivery claimed by a process that died is due again when the next dispatcher starts.
func TestStartReleasesClaimsOfAStoppedProcess(t *testing.T) {
	h := newHarness(t)
	rc := newReceiver(t, nil)
	w, _ := h.create(rc.srv.URL, "*")
	id := h.enqueue(webhook.ClientCreated, map[string]any{"id": 1})
	d := h.deliveryOf(id, w.ID)
	// What a crash mid-delivery leaves behind: the row claimed, nobody holding it.
	err := h.db.InTx(context.Background(), func(q *db.Queries) error {
		claimed, err := q.ClaimDelivery(context.Background(), d.ID)
		if err == nil && claimed != 1 {
			t.Fatalf("claimed %d rows, want delivery %d claimed", claimed, d.ID)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := h.deliveryOf(id, w.ID); !got.InFlight {
		t.Fatalf("claimed delivery %+v, want in flight", got)
	}

	h.startDispatcher(Config{AllowPrivate: true})
	eventually(t, 5*time.Second, "the interrupted delivery", func() bool { return len(rc.byID(id)) == 1 })
}

// A dispatcher stopped before it could begin (serve asked to stop during its start) stops
// cleanly like any other: Run returns nil, and the claims it never got to release stay for the
// next start.
func TestStopBeforeStartIsClean(t *testing.T) {
	h := newHarness(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := New(h.db, Config{AllowPrivate: true, Workers: 1, Handoff: h.handoff}, discardLog(), nil, nil).Run(ctx); err != nil {
		t.Fatalf("Run on a stopped context: %v, want nil", err)
	}
}

// Shutdown lets the attempt in flight finish and records it; what was queued behind it goes
// back to the outbox, due as before.
func TestShutdownFinishesInFlightAndHandsBackTheRest(t *testing.T) {
	h := newHarness(t)
	arrived := make(chan struct{}, 10)
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, n int) {
		arrived <- struct{}{}
		time.Sleep(300 * time.Millisecond)
		w.WriteHeader(http.StatusOK)
	})
	w, _ := h.create(rc.srv.URL, "*")
	var ids []string
	for i := range 5 {
		ids = append(ids, h.enqueue(webhook.BookingCreated, map[string]any{"id": i}))
	}

	disp := New(h.db, Config{AllowPrivate: true, Workers: 1, Handoff: h.handoff}, discardLog(), nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error, 1)
	go func() { stopped <- disp.Run(ctx) }()
	select {
	case <-arrived:
	case <-time.After(5 * time.Second):
		t.Fatal("no delivery started")
	}
	cancel()
	select {
	case err := <-stopped:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after cancellation")
	}

	var succeeded, due int
	for _, id := range ids {
		d := h.deliveryOf(id, w.ID)
		switch {
		case d.State == webhook.StateSucceeded && d.Attempts == 1:
			succeeded++
		case d.State == webhook.StatePending && !d.InFlight && d.Attempts == 0:
			due++
		default:
			t.Errorf("after shutdown: delivery %+v, want succeeded or pending and due", d)
		}
	}
	if succeeded != 1 || due != 4 {
		t.Errorf("after shutdown: %d succeeded, %d due again; want 1 (the one in flight) and 4", succeeded, due)
	}
	if n := rc.count(); n != 1 {
		t.Errorf("receiver got %d requests, want 1", n)
	}
}

// Deleting a webhook while its delivery is in flight must not break recording the others.
func TestDeleteDuringFlightIsHarmless(t *testing.T) {
	h := newHarness(t)
	arrived := make(chan struct{}, 10)
	slow := newReceiver(t, func(w http.ResponseWriter, r *http.Request, n int) {
		arrived <- struct{}{}
		time.Sleep(200 * time.Millisecond)
	})
	fast := newReceiver(t, nil)
	doomed, _ := h.create(slow.srv.URL, "*")
	kept, _ := h.create(fast.srv.URL, "*")
	h.startDispatcher(Config{AllowPrivate: true})

	id := h.enqueue(webhook.ClientUpdated, map[string]any{"id": 1})
	<-arrived
	if err := h.m.Delete(context.Background(), doomed.ID); err != nil {
		t.Fatal(err)
	}
	eventually(t, 5*time.Second, "the other delivery", func() bool { return h.deliveryOf(id, kept.ID).State == webhook.StateSucceeded })
	later := h.enqueue(webhook.ClientUpdated, map[string]any{"id": 2})
	eventually(t, 5*time.Second, "a later delivery", func() bool { return h.deliveryOf(later, kept.ID).State == webhook.StateSucceeded })
	if _, err := h.m.Get(context.Background(), doomed.ID); err == nil {
		t.Errorf("deleted webhook still found")
	}
}
