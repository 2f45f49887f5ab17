package webhook

import (
	"context"
	"testing"
)

// An endpoint's counts by state are kept by triggers; they must equal a count of its
// deliveries after every kind of change: enqueue, an attempt's outcome, missed and recovered,
// pruning, and another endpoint's deletion.
func TestDeliveryCountsFollowEveryChange(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	a, _ := h.create("https://a.example.com/hook", "booking.created")
	b, _ := h.create("https://b.example.com/hook", "booking.created")
	for range 6 {
		h.enqueue("booking.created", map[string]any{"id": 1})
	}
	check := func(step string) {
		t.Helper()
		for _, w := range []Webhook{a, b} {
			o, err := h.m.Get(ctx, w.ID)
			if err != nil {
				t.Fatalf("%s: Get(%d): %v", step, w.ID, err)
			}
			want := map[string]int{}
			rows, err := h.db.Write.Query(`SELECT state, count(*) FROM deliveries WHERE webhook_id = ? GROUP BY state`, w.ID)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var state string
				var n int
				if err := rows.Scan(&state, &n); err != nil {
					t.Fatal(err)
				}
				want[state] = n
			}
			rows.Close()
			got := map[string]int{StatePending: o.Health.Pending, StateSucceeded: o.Health.SucceededTotal,
				StateFailed: o.Health.Failed, StateMissed: o.Health.Missed}
			for _, s := range []string{StatePending, StateSucceeded, StateFailed, StateMissed} {
				if got[s] != want[s] {
					t.Errorf("%s: webhook %d %s = %d, the deliveries say %d", step, w.ID, s, got[s], want[s])
				}
			}
		}
	}
	check("enqueued")
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := h.db.Write.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`UPDATE deliveries SET state = 'succeeded', attempts = 1, last_attempt_at = 1 WHERE id IN (SELECT id FROM deliveries WHERE webhook_id = ? LIMIT 2)`, a.ID)
	exec(`UPDATE deliveries SET state = 'failed', attempts = 9, last_attempt_at = 2 WHERE id IN (SELECT id FROM deliveries WHERE webhook_id = ? AND state = 'pending' LIMIT 1)`, a.ID)
	exec(`UPDATE deliveries SET updated_at = updated_at + 1 WHERE webhook_id = ?`, a.ID) // no state change
	check("delivered and failed")
	exec(`UPDATE webhooks SET state = 'deactivated', deactivated_reason = 'test', deactivated_at = 1 WHERE id = ?`, b.ID)
	exec(`UPDATE deliveries SET state = 'missed', next_attempt_at = NULL WHERE webhook_id = ? AND state = 'pending'`, b.ID)
	check("missed")
	if _, err := h.m.Reactivate(ctx, b.ID, true); err != nil {
		t.Fatal(err)
	}
	check("replayed")
	exec(`DELETE FROM deliveries WHERE webhook_id = ? AND state = 'succeeded'`, a.ID)
	check("pruned")
	if err := h.m.Delete(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	{
		var n int
		if err := h.db.Write.QueryRow(`SELECT count(*) FROM webhook_delivery_counts WHERE webhook_id = ?`, b.ID).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("a deleted webhook keeps %d count rows", n)
		}
	}
	a2, err := h.m.Get(ctx, a.ID)
	if err != nil || a2.Health.Pending != 3 {
		t.Errorf("after deleting another webhook: pending = %d, %v; want 3", a2.Health.Pending, err)
	}
}
