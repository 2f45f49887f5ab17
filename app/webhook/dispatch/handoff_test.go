package dispatch

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"frontdesk/app/webhook"
	"frontdesk/db"
)

var errRollBack = errors.New("roll back")

// holdingReceiver is a receiver whose requests hang until release (or the test's end): every
// request if holdAll, else only the first.
func holdingReceiver(t *testing.T, holdAll bool) (*receiver, func()) {
	hold := make(chan struct{})
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if holdAll || n == 0 {
			<-hold
		}
		w.WriteHeader(http.StatusNoContent)
	})
	release := sync.OnceFunc(func() { close(hold) })
	t.Cleanup(release) // before the receiver closes: it waits for its handlers
	return rc, release
}

// handsOff reports whether a write now would hand webhook id's new deliveries to disp (the
// dispatcher is running and has room for it). It asks inside a write it rolls back.
func (h *harness) handsOff(disp *Dispatcher, id int64) bool {
	h.t.Helper()
	var ok bool
	h.db.InTx(context.Background(), func(q *db.Queries) error {
		_, ok = disp.q.Reserve(q, id)
		return errRollBack
	})
	return ok
}

// enqueueClaimed commits one event and reports whether its delivery to webhook id was
// inserted already claimed (handed off), as its own transaction saw it.
func (h *harness) enqueueClaimed(id int64, eventType string, data any) (string, bool) {
	h.t.Helper()
	var eventID string
	var claimed bool
	err := h.db.InTx(context.Background(), func(q *db.Queries) error {
		var err error
		if eventID, err = webhook.Enqueue(context.Background(), q, h.now(), eventType, data); err != nil {
			return err
		}
		ds, err := q.ListEventDeliveries(context.Background(), eventID)
		for _, d := range ds {
			if d.WebhookID == id {
				claimed = d.State == webhook.StatePending && !d.NextAttemptAt.Valid
			}
		}
		return err
	})
	if err != nil {
		h.t.Fatalf("Enqueue(%s): %v", eventType, err)
	}
	return eventID, claimed
}

// TestHandedOffDeliveriesAreSentOnce: with the dispatcher running, a new delivery is inserted
// claimed and reaches the dispatcher in memory; while it waits behind a hanging attempt, claim
// rounds (woken by other commits, and forced) never take it a second time; each event is sent
// and logged exactly once.
func TestHandedOffDeliveriesAreSentOnce(t *testing.T) {
	h := newHarness(t)
	rc, release := holdingReceiver(t, false) // the first attempt hangs: the rest wait in the lane
	w, _ := h.create(rc.srv.URL, "booking.*")
	disp := h.startDispatcher(Config{AllowPrivate: true, Workers: 1, PerEndpoint: 1})
	t.Cleanup(release) // before the dispatcher stops: it waits for the attempt in flight
	eventually(t, 5*time.Second, "the dispatcher to take hand-offs", func() bool { return h.handsOff(disp, w.ID) })

	var ids []string
	for i := range 12 { // a lane of one attempt at a time holds 16
		id, claimed := h.enqueueClaimed(w.ID, webhook.BookingCreated, map[string]any{"id": i})
		if !claimed {
			t.Fatalf("delivery %d was inserted due, want it inserted claimed and handed off", i)
		}
		ids = append(ids, id)
	}
	eventually(t, 5*time.Second, "the first attempt to hang", func() bool { return rc.count() == 1 })
	for range 5 { // claim rounds while the rest wait in memory, claimed
		disp.q.Kick()
		h.enqueue(webhook.ClientCreated, nil) // a commit that wakes the dispatcher, for no webhook
		time.Sleep(2 * time.Millisecond)      // spaces the rounds out; nothing to await
	}
	release()
	eventually(t, 10*time.Second, "every delivery to succeed", func() bool {
		for _, id := range ids {
			if h.deliveryOf(id, w.ID).State != webhook.StateSucceeded {
				return false
			}
		}
		return true
	})
	for _, id := range ids {
		if n := len(rc.byID(id)); n != 1 {
			t.Errorf("event %s reached the receiver %d times, want once", id, n)
		}
		d, err := h.m.Delivery(context.Background(), h.deliveryOf(id, w.ID).ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.AttemptLog) != 1 || d.Attempts != 1 {
			t.Errorf("event %s: %d attempts, %d logged; want exactly 1", id, d.Attempts, len(d.AttemptLog))
		}
	}
}

// TestRolledBackWriteHandsNothingOff: a write that enqueues and then rolls back sends nothing,
// and gives back the room it reserved: after more rolled-back writes than a lane holds, a new
// event is still handed off.
func TestRolledBackWriteHandsNothingOff(t *testing.T) {
	h := newHarness(t)
	rc := newReceiver(t, nil)
	w, _ := h.create(rc.srv.URL, "*")
	disp := h.startDispatcher(Config{AllowPrivate: true, Workers: 1, PerEndpoint: 1})
	eventually(t, 5*time.Second, "the dispatcher to take hand-offs", func() bool { return h.handsOff(disp, w.ID) })

	var gone []string
	for i := range 600 { // a lane holds at most 32 × 16 (the largest bound, prefetchDepth)
		h.db.InTx(context.Background(), func(q *db.Queries) error {
			id, err := webhook.Enqueue(context.Background(), q, h.now(), webhook.BookingCreated, map[string]any{"id": i})
			if err != nil {
				t.Fatal(err)
			}
			gone = append(gone, id)
			return errRollBack
		})
	}
	id, claimed := h.enqueueClaimed(w.ID, webhook.BookingCreated, map[string]any{"id": "kept"})
	if !claimed {
		t.Error("after rolled-back writes, a new delivery was not handed off: their reserved room leaked")
	}
	// One attempt at a time, in arrival order: anything handed off by mistake was sent before it.
	eventually(t, 5*time.Second, "the committed event", func() bool { return len(rc.byID(id)) == 1 })
	if n := rc.count(); n != 1 {
		t.Errorf("receiver got %d requests, want only the committed event's", n)
	}
	for _, g := range gone[:3] {
		if len(rc.byID(g)) != 0 {
			t.Errorf("rolled-back event %s was sent", g)
		}
	}
}

// TestHandedOffDeliveryOutlivesACrash: the database as a SIGKILL leaves it while handed-off
// deliveries wait in memory (one in flight, the rest queued; all claimed) is copied and opened
// by a fresh process: its dispatcher sends every one of them.
func TestHandedOffDeliveryOutlivesACrash(t *testing.T) {
	h := newHarness(t)
	rc, release := holdingReceiver(t, true)
	w, _ := h.create(rc.srv.URL, "*")
	disp := h.startDispatcher(Config{AllowPrivate: true, Workers: 1, PerEndpoint: 1})
	t.Cleanup(release) // before the dispatcher stops: it waits for the attempt in flight
	eventually(t, 5*time.Second, "the dispatcher to take hand-offs", func() bool { return h.handsOff(disp, w.ID) })
	var ids []string
	for i := range 3 {
		id, claimed := h.enqueueClaimed(w.ID, webhook.BookingCreated, map[string]any{"id": i})
		if !claimed {
			t.Fatalf("delivery %d was not handed off", i)
		}
		ids = append(ids, id)
	}
	eventually(t, 5*time.Second, "an attempt in flight", func() bool { return rc.count() == 1 })

	// The committed state at this instant, as the file a killed process leaves.
	crashed := filepath.Join(t.TempDir(), db.FileName)
	if err := h.db.Backup(context.Background(), crashed); err != nil {
		t.Fatal(err)
	}
	reopened, err := db.Open(context.Background(), crashed)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reopened.Close() })
	after := &harness{t: t, db: reopened, now: time.Now, reg: prometheus.NewRegistry()}
	after.m = webhook.NewManager(after.db, webhook.ManagerOptions{})
	for _, id := range ids {
		if d := after.deliveryOf(id, w.ID); d.State != webhook.StatePending || !d.InFlight {
			t.Fatalf("at the crash, delivery %+v: want pending and claimed", d)
		}
	}
	rc2 := newReceiver(t, nil)
	if _, err := after.m.Update(context.Background(), w.ID, webhook.UpdateInput{URL: &rc2.srv.URL, AllowPrivate: true}); err != nil {
		t.Fatal(err)
	}
	after.startDispatcher(Config{AllowPrivate: true})
	eventually(t, 5*time.Second, "every handed-off delivery after the restart", func() bool {
		for _, id := range ids {
			if len(rc2.byID(id)) != 1 {
				return false
			}
		}
		return true
	})
}

// TestStopHandsBackHandedOff: deliveries handed off while the dispatcher runs, still queued when
// it stops, go back to the outbox due (not left claimed until the next start).
func TestStopHandsBackHandedOff(t *testing.T) {
	h := newHarness(t)
	rc, release := holdingReceiver(t, true)
	w, _ := h.create(rc.srv.URL, "*")
	disp := New(h.db, Config{AllowPrivate: true, Workers: 1, PerEndpoint: 1, Handoff: h.handoff}, discardLog(), nil, nil)
	h.db.AfterCommit(disp.Wake)
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error, 1)
	go func() { stopped <- disp.Run(ctx) }()
	eventually(t, 5*time.Second, "the dispatcher to take hand-offs", func() bool { return h.handsOff(disp, w.ID) })
	var ids []string
	for i := range 4 {
		id, claimed := h.enqueueClaimed(w.ID, webhook.BookingCreated, map[string]any{"id": i})
		if !claimed {
			t.Fatalf("delivery %d was not handed off", i)
		}
		ids = append(ids, id)
	}
	eventually(t, 5*time.Second, "an attempt in flight", func() bool { return rc.count() == 1 })
	cancel()
	release()
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	var sent, due int
	for _, id := range ids {
		switch d := h.deliveryOf(id, w.ID); {
		case d.State == webhook.StateSucceeded:
			sent++
		case d.State == webhook.StatePending && !d.InFlight:
			due++
		default:
			t.Errorf("after the stop, delivery %+v: want sent, or pending and due", d)
		}
	}
	if sent != 1 || due != 3 {
		t.Errorf("after the stop: %d sent, %d due; want 1 and 3", sent, due)
	}
	if h.handsOff(disp, w.ID) {
		t.Error("a stopped dispatcher still takes hand-offs")
	}
}

// TestHandoffIsTheOneTheDatabaseWasGiven: Enqueue finds a running dispatcher only through the
// hand-off the wiring set on the database (webhook.NewHandoff; app/server.go gives the same one
// to the dispatcher). A dispatcher serving another hand-off takes no deliveries in memory:
// they are inserted due and reach it through a claim round, once each.
func TestHandoffIsTheOneTheDatabaseWasGiven(t *testing.T) {
	h := newHarness(t)
	rc := newReceiver(t, nil)
	w, _ := h.create(rc.srv.URL, "*")
	disp := h.startDispatcher(Config{AllowPrivate: true, Handoff: &webhook.Handoff{}})
	eventually(t, 5*time.Second, "the dispatcher to have room for hand-offs", func() bool { return h.handsOff(disp, w.ID) })

	id, claimed := h.enqueueClaimed(w.ID, webhook.BookingCreated, map[string]any{"id": 1})
	if claimed {
		t.Fatal("the delivery was inserted claimed, want it due: the database's hand-off is not the one the dispatcher serves")
	}
	eventually(t, 5*time.Second, "the delivery to succeed", func() bool { return h.deliveryOf(id, w.ID).State == webhook.StateSucceeded })
	if n := len(rc.byID(id)); n != 1 {
		t.Errorf("the event reached the receiver %d times, want once", n)
	}
}
