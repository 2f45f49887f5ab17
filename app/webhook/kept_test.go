package webhook

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"testing"

	"frontdesk/db"
)

// The writer keeps the parsed webhook list under a change counter (enqueueHooks, migration
// 00381). Every write that changes the list — through the Manager or behind its back in plain
// SQL, as another process or a restore would — must shape the very next event's deliveries, and
// a write that rolls back must leave nothing behind.
func TestKeptHooksFollowWebhookWrites(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	exec := func(query string, args ...any) int64 {
		t.Helper()
		res, err := h.db.Write.Exec(query, args...)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		id, _ := res.LastInsertId()
		return id
	}
	// check enqueues eventType twice through the real committer (the second from the kept
	// list) and wants exactly the deliveries want, by webhook id.
	check := func(what, eventType string, want map[int64]string) {
		t.Helper()
		for round := range 2 {
			got := map[int64]string{}
			for _, d := range h.deliveriesOf(h.enqueue(eventType, map[string]any{"id": 1})) {
				got[d.WebhookID] = d.State
			}
			if !maps.Equal(got, want) {
				t.Errorf("%s (round %d): %s delivered %v, want %v", what, round, eventType, got, want)
			}
		}
	}
	check("no webhooks", ClientUpdated, map[int64]string{})

	a, _ := h.create("https://a.example/hook", "client.*")
	check("a created", ClientUpdated, map[int64]string{a.ID: StatePending})
	check("a created", BookingCreated, map[int64]string{})

	b := exec(`INSERT INTO webhooks (url, events_json, created_at, updated_at) VALUES ('https://b.example/hook', '["booking.*"]', 0, 0)`)
	check("b inserted in SQL", BookingCreated, map[int64]string{b: StatePending})

	if _, err := h.m.Update(ctx, a.ID, UpdateInput{Events: []string{"booking.created"}}); err != nil {
		t.Fatal(err)
	}
	check("a's events changed", BookingCreated, map[int64]string{a.ID: StatePending, b: StatePending})
	check("a's events changed", ClientUpdated, map[int64]string{})

	exec(`UPDATE webhooks SET events_json = '["booking.updated"]' WHERE id = ?`, b)
	check("b's events changed in SQL", BookingCreated, map[int64]string{a.ID: StatePending})

	exec(`UPDATE webhooks SET state = 'deactivated', deactivated_reason = 'gone', deactivated_at = 0 WHERE id = ?`, a.ID)
	check("a deactivated", BookingCreated, map[int64]string{a.ID: StateMissed})

	exec(`UPDATE webhooks SET state = 'active', deactivated_reason = NULL, deactivated_at = NULL WHERE id = ?`, a.ID)
	check("a reactivated", BookingCreated, map[int64]string{a.ID: StatePending})

	if err := h.m.Delete(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	check("a deleted", BookingCreated, map[int64]string{})
	check("a deleted", BookingUpdated, map[int64]string{b: StatePending})

	exec(`DELETE FROM webhooks WHERE id = ?`, b)
	check("b deleted in SQL", BookingUpdated, map[int64]string{})

	// A write that adds a webhook, fans an event out to it and then rolls back raises the
	// counter only inside itself: the next write to the table raises it to the same reading,
	// over a different list (here even the same rowid), which must be read afresh.
	rollback := errors.New("roll back")
	err := h.db.InTx(ctx, func(q *db.Queries) error {
		if _, err := q.CreateWebhook(ctx, db.CreateWebhookParams{URL: "https://c.example/hook", EventsJSON: `["client.*"]`, KeyMode: KeyModeStandard}); err != nil {
			return err
		}
		if _, err := Enqueue(ctx, q, h.now(), ClientUpdated, nil); err != nil {
			return err
		}
		return rollback
	})
	if !errors.Is(err, rollback) {
		t.Fatalf("the rolled-back write: %v", err)
	}
	d := exec(`INSERT INTO webhooks (url, events_json, created_at, updated_at) VALUES ('https://d.example/hook', '["booking.*"]', 0, 0)`)
	check("c rolled back, d inserted", ClientUpdated, map[int64]string{})
	check("c rolled back, d inserted", BookingCreated, map[int64]string{d: StatePending})

	// A webhook whose events_json does not parse fails every event as before, kept or not,
	// until it is fixed.
	exec(`UPDATE webhooks SET events_json = 'not json' WHERE id = ?`, d)
	for range 2 {
		err := h.db.InTx(ctx, func(q *db.Queries) error {
			_, err := Enqueue(ctx, q, h.now(), BookingCreated, nil)
			return err
		})
		if want := fmt.Sprintf("webhook %d patterns:", d); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("an event with an unparsable webhook: %v, want an error with %q", err, want)
		}
		if _, err := Subscribed(ctx, h.db.R, BookingCreated); err == nil {
			t.Error("Subscribed with an unparsable webhook: no error")
		}
	}
	exec(`UPDATE webhooks SET events_json = '["booking.created"]' WHERE id = ?`, d)
	check("d fixed", BookingCreated, map[int64]string{d: StatePending})
}

// Subscribed reads the same kept list on the read pool: it follows writes there too.
func TestSubscribedFollowsWebhookWrites(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	subscribed := func(what string, want bool) {
		t.Helper()
		for round := range 2 {
			got, err := Subscribed(ctx, h.db.R, ClientUpdated)
			if err != nil || got != want {
				t.Errorf("%s (round %d): Subscribed = %v, %v; want %v", what, round, got, err, want)
			}
		}
	}
	subscribed("no webhooks", false)
	a, _ := h.create("https://a.example/hook", "client.updated")
	subscribed("a created", true)
	if _, err := h.db.Write.Exec(`UPDATE webhooks SET state = 'deactivated' WHERE id = ?`, a.ID); err != nil {
		t.Fatal(err)
	}
	subscribed("a deactivated", false)
	if _, err := h.db.Write.Exec(`UPDATE webhooks SET state = 'active' WHERE id = ?`, a.ID); err != nil {
		t.Fatal(err)
	}
	subscribed("a reactivated", true)
	if _, err := h.m.Update(ctx, a.ID, UpdateInput{Events: []string{"booking.*"}}); err != nil {
		t.Fatal(err)
	}
	subscribed("a's events changed", false)
}

// deliveriesOf returns every delivery of an event.
func (h *harness) deliveriesOf(eventID string) []Delivery {
	h.t.Helper()
	ds, err := h.m.FindEvent(context.Background(), eventID)
	if err != nil {
		h.t.Fatalf("FindEvent(%s): %v", eventID, err)
	}
	return ds
}
