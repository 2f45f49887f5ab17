package dispatch

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"frontdesk/app/webhook"
)

// "Replay missed" sends oldest first, truly: a real receiver that takes its time over the
// oldest event still finishes the events in the order they happened, and never has two of them
// at once — although the endpoint may otherwise take four attempts at a time.
func TestReplayArrivesOldestFirst(t *testing.T) {
	h := newHarness(t)
	var (
		fixed    atomic.Bool
		inFlight atomic.Int32
		most     atomic.Int32
		mu       sync.Mutex
		done     []string
		slowID   atomic.Value
	)
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if !fixed.Load() {
			w.WriteHeader(http.StatusGone) // deactivates at once
			return
		}
		now := inFlight.Add(1)
		defer inFlight.Add(-1)
		for m := most.Load(); now > m && !most.CompareAndSwap(m, now); m = most.Load() {
		}
		if r.Header.Get(webhook.HeaderID) == slowID.Load() {
			time.Sleep(150 * time.Millisecond) // the oldest is the slowest to handle
		}
		mu.Lock()
		done = append(done, r.Header.Get(webhook.HeaderID))
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})
	w, _ := h.create(rc.srv.URL, "*")
	h.startDispatcher(Config{AllowPrivate: true, Workers: 16, PerEndpoint: 4, Schedule: fastSchedule(20 * time.Millisecond)})
	h.enqueue(webhook.BookingCreated, map[string]any{"id": 0})
	eventually(t, 5*time.Second, "deactivation", func() bool { return h.webhook(w.ID).State == webhook.WebhookDeactivated })

	var missed []string
	for i := range 8 {
		missed = append(missed, h.enqueue(webhook.BookingUpdated, map[string]any{"id": i + 1}))
	}
	slowID.Store(missed[0])
	fixed.Store(true)
	if res, err := h.m.Reactivate(context.Background(), w.ID, true); err != nil || res.Replayed != len(missed) {
		t.Fatalf("Reactivate = %+v, %v; want %d replayed", res, err, len(missed))
	}
	eventually(t, 10*time.Second, "every replayed event handled", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(done) == len(missed)
	})
	mu.Lock()
	defer mu.Unlock()
	for i, id := range missed {
		if done[i] != id {
			t.Fatalf("the receiver finished %v, want the events in their original order %v", done, missed)
		}
	}
	if m := most.Load(); m != 1 {
		t.Errorf("the receiver had %d replayed events at once, want one at a time", m)
	}
}

// A paused webhook gets nothing, while its events are recorded and queued; resuming delivers
// them. Another webhook is served meanwhile, which shows the dispatcher was running.
func TestPauseQueuesAndResumeDelivers(t *testing.T) {
	h := newHarness(t)
	paused := newReceiver(t, nil)
	other := newReceiver(t, nil)
	w, _ := h.create(paused.srv.URL, "booking.*")
	h.create(other.srv.URL, "client.*")
	h.startDispatcher(Config{AllowPrivate: true, Schedule: fastSchedule(20 * time.Millisecond)})

	if ok, err := h.m.Pause(context.Background(), w.ID); err != nil || !ok {
		t.Fatalf("Pause = %v, %v; want paused", ok, err)
	}
	if ok, err := h.m.Pause(context.Background(), w.ID); err != nil || ok {
		t.Errorf("Pause again = %v, %v; want no change and no error", ok, err)
	}
	if got := h.webhook(w.ID); got.PausedAt.IsZero() || got.State != webhook.WebhookActive {
		t.Errorf("paused webhook: state %s, paused at %v; want active and paused", got.State, got.PausedAt)
	}
	var queued []string
	for i := range 3 {
		queued = append(queued, h.enqueue(webhook.BookingCreated, map[string]any{"id": i}))
	}
	marker := h.enqueue(webhook.ClientCreated, map[string]any{"id": 1})
	eventually(t, 5*time.Second, "the other webhook's event", func() bool { return len(other.byID(marker)) == 1 })
	// One more round of the dispatcher after the marker, so a send to the paused webhook
	// would have happened by now.
	marker2 := h.enqueue(webhook.ClientCreated, map[string]any{"id": 2})
	eventually(t, 5*time.Second, "the other webhook's second event", func() bool { return len(other.byID(marker2)) == 1 })
	if n := paused.count(); n != 0 {
		t.Fatalf("the paused webhook received %d requests", n)
	}
	for _, id := range queued {
		if d := h.deliveryOf(id, w.ID); d.State != webhook.StatePending || d.Attempts != 0 {
			t.Errorf("event %s for the paused webhook: %s after %d attempts, want pending and unsent", id, d.State, d.Attempts)
		}
	}

	if ok, err := h.m.Resume(context.Background(), w.ID); err != nil || !ok {
		t.Fatalf("Resume = %v, %v", ok, err)
	}
	eventually(t, 5*time.Second, "the queued events", func() bool { return paused.count() == len(queued) })
	for _, id := range queued {
		if len(paused.byID(id)) != 1 {
			t.Errorf("after resume event %s arrived %d times, want once", id, len(paused.byID(id)))
		}
	}
	if _, err := h.m.Resume(context.Background(), 9999); !errors.Is(err, webhook.ErrNotFound) {
		t.Errorf("Resume of no webhook: %v, want ErrNotFound", err)
	}
}

// Only an active webhook can be paused: the Manager refuses, and so does the database.
func TestPauseNeedsAnActiveWebhook(t *testing.T) {
	h := newHarness(t)
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, n int) { w.WriteHeader(http.StatusGone) })
	w, _ := h.create(rc.srv.URL, "*")
	if _, err := h.m.Pause(context.Background(), w.ID); err != nil {
		t.Fatal(err)
	}
	h.startDispatcher(Config{AllowPrivate: true, Schedule: fastSchedule(20 * time.Millisecond)})
	if _, err := h.m.Resume(context.Background(), w.ID); err != nil {
		t.Fatal(err)
	}
	h.enqueue(webhook.BookingCreated, map[string]any{"id": 1})
	eventually(t, 5*time.Second, "deactivation", func() bool { return h.webhook(w.ID).State == webhook.WebhookDeactivated })
	if _, err := h.m.Pause(context.Background(), w.ID); !errors.Is(err, webhook.ErrInvalidState) {
		t.Errorf("Pause of a deactivated webhook: %v, want ErrInvalidState", err)
	}
	if _, err := h.db.Write.Exec(`INSERT INTO webhook_pauses (webhook_id, paused_at) VALUES (?, 0)`, w.ID); err == nil {
		t.Error("the database took a pause of a deactivated webhook")
	}
}
