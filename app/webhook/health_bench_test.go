package webhook

import (
	"context"
	"fmt"
	"testing"

	"frontdesk/db"
)

// seedBacklog gives a webhook `pending` waiting deliveries and `done` delivered ones (each with
// its attempt), written in bulk, as a slow endpoint behind a busy business has them.
func seedBacklog(tb testing.TB, h *harness, webhookID int64, pending, done int) {
	tb.Helper()
	now := db.Millis(h.now())
	tx, err := h.db.Write.Begin()
	if err != nil {
		tb.Fatal(err)
	}
	err = func() error {
		for i := range pending + done {
			id := fmt.Sprintf("evt_seed%07d", i)
			if _, err := tx.Exec(`INSERT INTO events (id, type, body, created_at) VALUES (?, 'booking.created', '{}', ?)`, id, now); err != nil {
				return err
			}
			state, attempts, status := "pending", 0, any(nil)
			if i >= pending {
				state, attempts, status = "succeeded", 1, 200
			}
			res, err := tx.Exec(`INSERT INTO deliveries (event_id, webhook_id, state, attempts, next_attempt_at, last_attempt_at, last_status, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, webhookID, state, attempts, now, now, status, now-int64(i), now)
			if err != nil {
				return err
			}
			if attempts > 0 {
				did, _ := res.LastInsertId()
				if _, err := tx.Exec(`INSERT INTO delivery_attempts (delivery_id, attempt, started_at, duration_ms, status_code) VALUES (?, 1, ?, 5, 200)`, did, now-int64(i)); err != nil {
					return err
				}
			}
		}
		return tx.Commit()
	}()
	if err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkWebhookListBacklog is what the admin's webhook page and `webhook list` pay for an
// endpoint with 200,000 deliveries waiting and 200,000 delivered.
func BenchmarkWebhookListBacklog(b *testing.B) {
	h := newHarness(b)
	w, _ := h.create("https://hooks.example.com/slow", "booking.created")
	seedBacklog(b, h, w.ID, 200_000, 200_000)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		list, err := h.m.List(ctx)
		if err != nil || len(list) != 1 || list[0].Health.Pending != 200_000 {
			b.Fatalf("List = %+v, %v", list, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/list")
}
