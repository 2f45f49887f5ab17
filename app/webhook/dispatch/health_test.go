package dispatch

import (
	"net/http"
	"testing"
	"time"

	"frontdesk/app/webhook"
)

// The countdown of a failing endpoint is the time its oldest failing delivery exhausts.
func TestCountdownUntilDeactivation(t *testing.T) {
	h := newHarness(t)
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, n int) { w.WriteHeader(http.StatusBadRequest) })
	schedule := fastSchedule(time.Hour, 2*time.Hour)
	h.m = webhook.NewManager(h.db, webhook.ManagerOptions{Schedule: schedule})
	w, _ := h.create(rc.srv.URL, "*")
	if h.webhook(w.ID).Health.Failing() {
		t.Fatalf("a fresh webhook is failing, want not")
	}
	h.startDispatcher(Config{AllowPrivate: true, Schedule: schedule})
	id := h.enqueue(webhook.ClientCreated, map[string]any{"id": 1})
	eventually(t, 5*time.Second, "the first attempt", func() bool { return h.deliveryOf(id, w.ID).Attempts == 1 })

	d := h.deliveryOf(id, w.ID)
	o := h.webhook(w.ID)
	if want := d.LastAttemptAt.Add(3 * time.Hour); !o.Health.DeactivatesAt.Equal(want) {
		t.Errorf("DeactivatesAt = %v, want %v (last attempt + the rest of the schedule)", o.Health.DeactivatesAt, want)
	}
	if o.Health.Pending != 1 || o.Health.Sample != 1 || o.Health.SuccessRate != 0 {
		t.Errorf("health %+v, want 1 pending and a 0 success rate over 1", o.Health)
	}
	if o.Health.LastDelivery == nil || o.Health.LastDelivery.LastStatus != http.StatusBadRequest {
		t.Errorf("last delivery %+v, want status 400", o.Health.LastDelivery)
	}
}
