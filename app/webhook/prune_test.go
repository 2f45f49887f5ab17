package webhook

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"frontdesk/db"
)

func TestPruneKeepsRecentAndPending(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	start := time.Now()
	h.now = func() time.Time { return start }
	w, _ := h.create("https://example.com/", "*") // never dispatched

	// finish records one attempt that settled a delivery, as the dispatcher would.
	finish := func(eventID string) {
		t.Helper()
		d := h.deliveryOf(eventID, w.ID)
		err := h.db.InTx(ctx, func(q *db.Queries) error {
			text, err := q.UpsertDeliveryText(ctx, db.UpsertDeliveryTextParams{Text: "x", At: db.Millis(start)})
			if err != nil {
				return err
			}
			if err := q.InsertDeliveryAttempt(ctx, db.InsertDeliveryAttemptParams{DeliveryID: d.ID, Attempt: 1, StartedAt: db.Millis(start),
				RequestHeadersID: text, ResponseHeadersID: text, ResponseBodyID: text}); err != nil {
				return err
			}
			_, err = q.RecordDeliveryAttempt(ctx, db.RecordDeliveryAttemptParams{ID: d.ID, Attempts: 1, At: sqlMillis(db.Millis(start)), NewState: StateSucceeded})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	old := h.enqueue(ClientCreated, map[string]any{"id": 1})
	finish(old)
	pending := h.enqueue(ClientUpdated, map[string]any{"id": 2}) // old, but still pending

	later := start.Add(31 * 24 * time.Hour)
	h.now = func() time.Time { return later }
	recent := h.enqueue(ClientCreated, map[string]any{"id": 3})

	p := NewPruner(h.db, 30*24*time.Hour, slog.New(slog.DiscardHandler), h.now)
	events, attempts, err := p.Prune(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if events != 1 || attempts != 0 {
		t.Errorf("pruned %d events and %d more attempts, want 1 event (its attempt goes with it) and 0", events, attempts)
	}
	if ds, _ := h.m.FindEvent(ctx, old); len(ds) != 0 {
		t.Errorf("old settled event still has deliveries %+v, want it pruned", ds)
	}
	if d := h.deliveryOf(pending, w.ID); d.State != StatePending {
		t.Errorf("old pending delivery: %s, want kept", d.State)
	}
	if ds, _ := h.m.FindEvent(ctx, recent); len(ds) != 1 {
		t.Errorf("recent event has %d deliveries, want it kept", len(ds))
	}
	var texts int
	if err := h.db.ReadDB().QueryRowContext(ctx, `SELECT count(*) FROM delivery_texts`).Scan(&texts); err != nil {
		t.Fatal(err)
	}
	if texts != 0 {
		t.Errorf("%d log texts left after their only attempt was pruned, want 0", texts)
	}
}
