package webhook

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// harness is a real SQLite file with a Manager over it: the writer's side, with no dispatcher
// (the dispatcher's tests, in app/webhook/dispatch, have their own harness that runs one).
type harness struct {
	t   testing.TB
	db  *db.DB
	m   *Manager
	now func() time.Time
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	d := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName))
	h := &harness{t: t, db: d, now: time.Now}
	h.m = NewManager(d, ManagerOptions{Now: func() time.Time { return h.now() }})
	return h
}

// create registers a webhook (private targets allowed, as the dispatcher's tests need).
func (h *harness) create(url string, events ...string) (Webhook, string) {
	h.t.Helper()
	w, secret, err := h.m.Create(context.Background(), CreateInput{URL: url, Events: events, AllowPrivate: true})
	if err != nil {
		h.t.Fatalf("Create(%s, %v): %v", url, events, err)
	}
	return w, secret
}

// enqueue commits one event the way every emitting change does, and returns its id.
func (h *harness) enqueue(eventType string, data any) string {
	h.t.Helper()
	var id string
	err := h.db.InTx(context.Background(), func(q *db.Queries) error {
		var err error
		id, err = Enqueue(context.Background(), q, h.now(), eventType, data)
		return err
	})
	if err != nil {
		h.t.Fatalf("Enqueue(%s): %v", eventType, err)
	}
	return id
}

// deliveryOf returns the delivery of an event to a webhook.
func (h *harness) deliveryOf(eventID string, webhookID int64) Delivery {
	h.t.Helper()
	ds, err := h.m.FindEvent(context.Background(), eventID)
	if err != nil {
		h.t.Fatalf("FindEvent(%s): %v", eventID, err)
	}
	for _, d := range ds {
		if d.WebhookID == webhookID {
			return d
		}
	}
	h.t.Fatalf("event %s has no delivery to webhook %d (deliveries: %+v)", eventID, webhookID, ds)
	return Delivery{}
}
