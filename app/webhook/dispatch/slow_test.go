package dispatch

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"frontdesk/app/webhook"
)

// slowReceiver answers every request after delay and remembers the most requests it held at
// once.
type slowReceiver struct {
	*receiver
	mu             sync.Mutex
	inflight, peak int
}

func newSlowReceiver(t *testing.T, delay time.Duration) *slowReceiver {
	s := &slowReceiver{}
	s.receiver = newReceiver(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		s.mu.Lock()
		s.inflight++
		s.peak = max(s.peak, s.inflight)
		s.mu.Unlock()
		time.Sleep(delay) // the endpoint's own slowness, not a wait in the test
		s.mu.Lock()
		s.inflight--
		s.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})
	return s
}

func (s *slowReceiver) peakInFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peak
}

// TestSlowEndpointDrainsPastItsShare: an endpoint that takes 100 ms per answer gets more
// deliveries at once than its share of the pool (the old cap), up to its own bound, while a
// fast endpoint sharing the dispatcher is never held up behind it.
func TestSlowEndpointDrainsPastItsShare(t *testing.T) {
	const events, share, bound = 240, 2, 12
	h := newHarness(t)
	slow := newSlowReceiver(t, 100*time.Millisecond)
	fast := newReceiver(t, nil)
	slowHook, _ := h.create(slow.srv.URL, "*")
	h.create(fast.srv.URL, "*")
	n := bound
	if _, err := h.m.Update(context.Background(), slowHook.ID, webhook.UpdateInput{MaxConcurrency: &n}); err != nil {
		t.Fatal(err)
	}
	if got := h.webhook(slowHook.ID).MaxConcurrency; got != bound {
		t.Fatalf("MaxConcurrency %d after the update, want %d", got, bound)
	}
	for i := range events {
		h.enqueue("client.created", map[string]int{"n": i})
	}
	h.startDispatcher(Config{AllowPrivate: true, Workers: 4, PerEndpoint: share, Schedule: fastSchedule(time.Millisecond)})

	eventually(t, 30*time.Second, "every delivery to the fast endpoint", func() bool { return fast.count() >= events })
	if got := slow.count(); got >= events {
		t.Fatalf("the slow endpoint had all %d deliveries before the fast one finished: the test shows nothing", got)
	}
	eventually(t, 60*time.Second, "every delivery to the slow endpoint", func() bool { return slow.count() >= events })
	peak := slow.peakInFlight()
	if peak <= share || peak > bound {
		t.Fatalf("the slow endpoint held at most %d deliveries at once, want more than the share of %d and no more than its bound of %d", peak, share, bound)
	}
	if got := slow.count(); got != events {
		t.Fatalf("the slow endpoint got %d requests, want %d (one per event)", got, events)
	}
}

// TestConcurrencyBoundBelowShare: an owner's bound below the share is the cap.
func TestConcurrencyBoundBelowShare(t *testing.T) {
	h := newHarness(t)
	slow := newSlowReceiver(t, 20*time.Millisecond)
	w, _, err := h.m.Create(context.Background(), webhook.CreateInput{URL: slow.srv.URL, Events: []string{"*"}, AllowPrivate: true, MaxConcurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	if w.MaxConcurrency != 1 {
		t.Fatalf("MaxConcurrency %d, want 1", w.MaxConcurrency)
	}
	for i := range 30 {
		h.enqueue("client.created", map[string]int{"n": i})
	}
	h.startDispatcher(Config{AllowPrivate: true, Workers: 8, PerEndpoint: 4})
	eventually(t, 30*time.Second, "every delivery", func() bool { return slow.count() >= 30 })
	if peak := slow.peakInFlight(); peak != 1 {
		t.Fatalf("held %d deliveries at once, want 1", peak)
	}
}

func TestMaxConcurrencyValidation(t *testing.T) {
	h := newHarness(t)
	for _, n := range []int{-1, 257, 1000} {
		if _, _, err := h.m.Create(context.Background(), webhook.CreateInput{URL: "https://example.com/hook", Events: []string{"*"}, MaxConcurrency: n}); err == nil {
			t.Errorf("MaxConcurrency %d accepted", n)
		}
	}
	w, _ := h.create("https://example.com/hook", "*")
	if w.MaxConcurrency != webhook.DefaultConcurrency {
		t.Fatalf("default MaxConcurrency %d, want %d", w.MaxConcurrency, webhook.DefaultConcurrency)
	}
	bad := 0
	if _, err := h.m.Update(context.Background(), w.ID, webhook.UpdateInput{MaxConcurrency: &bad}); err == nil {
		t.Fatal("MaxConcurrency 0 accepted on update")
	}
}
