package dispatch

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"frontdesk/app/webhook"
)

// A receiver that answers 500 until it is fixed gets every event once it recovers.
func TestRecoveringReceiverGetsEveryEvent(t *testing.T) {
	h := newHarness(t)
	var fixed atomic.Bool
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if !fixed.Load() {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
	w, _ := h.create(rc.srv.URL, "*")
	step := 30 * time.Millisecond
	h.startDispatcher(Config{AllowPrivate: true, Schedule: fastSchedule(step, step, step, step, step, step, step, step, step, step, step, step)})

	var ids []string
	for i := range 5 {
		ids = append(ids, h.enqueue(webhook.ClientCreated, map[string]any{"id": i}))
	}
	eventually(t, 5*time.Second, "every event to fail at least twice", func() bool {
		for _, id := range ids {
			if h.deliveryOf(id, w.ID).Attempts < 2 {
				return false
			}
		}
		return true
	})
	if o := h.webhook(w.ID); !o.Health.Failing() || o.Health.SuccessRate != 0 {
		t.Errorf("while failing: countdown %v, success rate %v; want a countdown and rate 0", o.Health.DeactivatesAt, o.Health.SuccessRate)
	}
	fixed.Store(true)
	eventually(t, 5*time.Second, "every delivery to succeed", func() bool {
		for _, id := range ids {
			if h.deliveryOf(id, w.ID).State != webhook.StateSucceeded {
				return false
			}
		}
		return true
	})
	for _, id := range ids {
		got := rc.byID(id)
		if last := got[len(got)-1]; len(got) < 3 || last.header.Get(webhook.HeaderID) != id {
			t.Errorf("event %s: %d requests, want ≥ 3 (two failures, then success)", id, len(got))
		}
	}
	if o := h.webhook(w.ID); o.State != webhook.WebhookActive || o.Health.Failing() {
		t.Errorf("after recovery: state %s, failing %v; want active and not failing", o.State, o.Health.Failing())
	}
}

// One that never recovers is deactivated; what happens meanwhile is missed and arrives after
// reactivation with replay; the exhausted delivery comes back with Recover.
func TestDeadReceiverIsDeactivatedAndReplayed(t *testing.T) {
	h := newHarness(t)
	var fixed atomic.Bool
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if !fixed.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	w, _ := h.create(rc.srv.URL, "*")
	// One attempt at a time, so the replay's order is observable.
	h.startDispatcher(Config{AllowPrivate: true, Workers: 4, PerEndpoint: 1, Schedule: fastSchedule(20*time.Millisecond, 20*time.Millisecond)})

	first := h.enqueue(webhook.BookingCreated, map[string]any{"id": 1})
	eventually(t, 5*time.Second, "deactivation", func() bool { return h.webhook(w.ID).State == webhook.WebhookDeactivated })
	o := h.webhook(w.ID)
	if !strings.Contains(o.DeactivatedReason, "failed 3 times") || !strings.Contains(o.DeactivatedReason, "no successful delivery") {
		t.Errorf("reason %q, want it to say the schedule was exhausted with no success", o.DeactivatedReason)
	}
	if d := h.deliveryOf(first, w.ID); d.State != webhook.StateFailed || d.Attempts != 3 {
		t.Errorf("exhausted delivery: %s after %d attempts, want failed after 3", d.State, d.Attempts)
	}

	var missed []string
	for i := range 3 {
		missed = append(missed, h.enqueue(webhook.BookingUpdated, map[string]any{"id": i}))
	}
	for _, id := range missed {
		if d := h.deliveryOf(id, w.ID); d.State != webhook.StateMissed {
			t.Errorf("event during deactivation: %s, want missed", d.State)
		}
	}
	if _, err := h.m.SendTest(context.Background(), w.ID); !errors.Is(err, webhook.ErrInvalidState) {
		t.Errorf("SendTest to a deactivated webhook: %v, want ErrInvalidState", err)
	}
	before := rc.count()

	fixed.Store(true)
	res, err := h.m.Reactivate(context.Background(), w.ID, true)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Reactivated || res.Replayed != len(missed) {
		t.Errorf("Reactivate = %+v, want reactivated with %d replayed", res, len(missed))
	}
	eventually(t, 5*time.Second, "the missed events", func() bool {
		for _, id := range missed {
			if len(rc.byID(id)) == 0 {
				return false
			}
		}
		return true
	})
	if n := len(rc.byID(first)); n != 3 {
		t.Errorf("the exhausted event was sent %d times before Recover, want 3", n)
	}
	got := rc.requests()[before:]
	for i, id := range missed {
		if got[i].header.Get(webhook.HeaderID) != id {
			t.Errorf("replay order: request %d is %s, want %s (events in their original order)", i, got[i].header.Get(webhook.HeaderID), id)
		}
	}

	n, err := h.m.Recover(context.Background(), w.ID, time.Now().Add(-time.Hour), time.Now().Add(time.Minute))
	if err != nil || n != 1 {
		t.Fatalf("Recover = %d, %v; want 1 failed delivery queued", n, err)
	}
	eventually(t, 5*time.Second, "the recovered delivery", func() bool { return h.deliveryOf(first, w.ID).State == webhook.StateSucceeded })
	if d := h.deliveryOf(first, w.ID); d.Attempts != 4 || d.SeriesAttempts != 1 {
		t.Errorf("recovered delivery: %d attempts, %d in this series; want 4 and 1", d.Attempts, d.SeriesAttempts)
	}
	if n, err := h.m.Recover(context.Background(), w.ID, time.Now().Add(-time.Hour), time.Now().Add(time.Minute)); err != nil || n != 0 {
		t.Errorf("second Recover = %d, %v; want 0 (nothing failed any more)", n, err)
	}
}

// A success to the endpoint after a delivery began means the endpoint works: exhausting that
// delivery fails it without deactivating the endpoint (docs/webhooks.md).
func TestExhaustionAfterSuccessKeepsEndpointActive(t *testing.T) {
	h := newHarness(t)
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, n int) {
		var env struct{ Data struct{ OK bool } }
		if decodeBody(r, &env); env.Data.OK {
			w.WriteHeader(http.StatusOK)
			return
		}
		w.WriteHeader(http.StatusUnprocessableEntity)
	})
	w, _ := h.create(rc.srv.URL, "*")
	h.startDispatcher(Config{AllowPrivate: true, Schedule: fastSchedule(150*time.Millisecond, 150*time.Millisecond)})

	bad := h.enqueue(webhook.ClientCreated, map[string]any{"ok": false})
	good := h.enqueue(webhook.ClientCreated, map[string]any{"ok": true})
	eventually(t, 5*time.Second, "the bad event to exhaust", func() bool { return h.deliveryOf(bad, w.ID).State == webhook.StateFailed })
	if d := h.deliveryOf(good, w.ID); d.State != webhook.StateSucceeded {
		t.Errorf("good event: %s, want succeeded", d.State)
	}
	if o := h.webhook(w.ID); o.State != webhook.WebhookActive {
		t.Errorf("endpoint %s (%s), want active: it accepted another event meanwhile", o.State, o.DeactivatedReason)
	}
}

func TestResendStartsANewSeries(t *testing.T) {
	h := newHarness(t)
	rc := newReceiver(t, nil)
	w, _ := h.create(rc.srv.URL, "*")
	h.startDispatcher(Config{AllowPrivate: true})

	id := h.enqueue(webhook.ServiceUpdated, map[string]any{"id": 3})
	eventually(t, 5*time.Second, "the first delivery", func() bool { return h.deliveryOf(id, w.ID).State == webhook.StateSucceeded })
	d, err := h.m.Resend(context.Background(), h.deliveryOf(id, w.ID).ID)
	if err != nil {
		t.Fatal(err)
	}
	if d.State != webhook.StatePending {
		t.Errorf("Resend returned state %s, want pending", d.State)
	}
	eventually(t, 5*time.Second, "the resent delivery", func() bool { return len(rc.byID(id)) == 2 })
	reqs := rc.byID(id)
	if string(reqs[0].body) != string(reqs[1].body) {
		t.Errorf("resent body differs: %s vs %s", reqs[0].body, reqs[1].body)
	}
	eventually(t, 5*time.Second, "the resend to be recorded", func() bool { return h.deliveryOf(id, w.ID).State == webhook.StateSucceeded })
	detail, _ := h.m.Delivery(context.Background(), d.ID)
	if len(detail.AttemptLog) != 2 || detail.AttemptLog[1].Number != 2 {
		t.Errorf("attempt log %+v, want attempts 1 and 2", detail.AttemptLog)
	}
}

func TestSendTestReachesOnlyThatWebhook(t *testing.T) {
	h := newHarness(t)
	target := newReceiver(t, nil)
	bystander := newReceiver(t, nil)
	w, secret := h.create(target.srv.URL, "payment_request.paid") // patterns that a test event does not match
	h.create(bystander.srv.URL, "*")
	h.startDispatcher(Config{AllowPrivate: true})

	id, err := h.m.SendTest(context.Background(), w.ID)
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, 5*time.Second, "the test event", func() bool { return len(target.byID(id)) == 1 })
	req := target.byID(id)[0]
	if !strings.Contains(string(req.body), `"type":"webhook.test"`) || !strings.Contains(string(req.body), `"webhook_id":`) {
		t.Errorf("test event body %s, want type webhook.test with the webhook id", req.body)
	}
	verifyWith(t, secret, req)
	time.Sleep(50 * time.Millisecond)
	if n := bystander.count(); n != 0 {
		t.Errorf("another webhook subscribed to * got %d requests, want 0", n)
	}
}

// A webhook subscribed to webhook.test alone — what a developer does while building a receiver
// — gets the test events sent to it and no other event: an event of any other type creates no
// delivery for it.
func TestSubscribedToTheTestEventOnly(t *testing.T) {
	h := newHarness(t)
	rc := newReceiver(t, nil)
	w, secret := h.create(rc.srv.URL, webhook.TestEvent)
	h.startDispatcher(Config{AllowPrivate: true})
	for _, typ := range webhook.EventTypes() {
		id := h.enqueue(typ, map[string]any{"id": 1})
		ds, err := h.m.FindEvent(context.Background(), id)
		if err != nil {
			t.Fatalf("FindEvent(%s): %v", id, err)
		}
		for _, d := range ds {
			if d.WebhookID == w.ID {
				t.Errorf("a %s event was queued for a webhook subscribed only to %s", typ, webhook.TestEvent)
			}
		}
	}
	id, err := h.m.SendTest(context.Background(), w.ID)
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, 5*time.Second, "the test event", func() bool { return len(rc.byID(id)) == 1 })
	verifyWith(t, secret, rc.byID(id)[0])
	eventually(t, 5*time.Second, "the delivery to be recorded", func() bool { return h.deliveryOf(id, w.ID).State == webhook.StateSucceeded })
	if n := rc.count(); n != 1 {
		t.Errorf("the receiver got %d requests, want only the test event", n)
	}
}
