package dispatch

import (
	"context"
	"slices"
	"testing"
	"time"

	"frontdesk/app/queue"
	"frontdesk/app/webhook"
)

// claimSetup registers a webhook (nothing listens: the tests only claim) with firsts fresh
// events and retries deliveries that failed once and are due again, and returns a claimer.
func claimSetup(t *testing.T, firsts, retries int) (*harness, *queue.Dispatcher[webhook.Payload, target, result], webhook.Webhook) {
	t.Helper()
	h := newHarness(t)
	w, _ := h.create("https://example.com/hook", "*")
	for i := range retries {
		id := h.enqueue(webhook.ClientUpdated, map[string]any{"retry": i})
		d := h.deliveryOf(id, w.ID)
		// What a failed first attempt leaves: one attempt made, the next one due a minute ago.
		if _, err := h.db.Write.Exec("UPDATE deliveries SET attempts = 1, next_attempt_at = ? WHERE id = ?",
			time.Now().Add(-time.Minute).UnixMilli(), d.ID); err != nil {
			t.Fatal(err)
		}
	}
	for i := range firsts {
		h.enqueue(webhook.ClientUpdated, map[string]any{"first": i})
	}
	// PerEndpoint 1 gives each webhook a lane of 16 (the prefetch depth); the cases below ask
	// with a room of 8 where they do not name one.
	d := New(h.db, Config{AllowPrivate: true, Workers: 8, PerEndpoint: 1}, discardLog(), nil, nil)
	return h, d.q, w
}

func TestClaimRound(t *testing.T) {
	tests := []struct {
		name            string
		firsts, retries int
		ask             func(webhookID int64) queue.Ask
		wantFirsts      int
		wantRetries     int
		wantFull        bool
	}{
		{
			name: "first attempts fill the room before any retry", firsts: 10, retries: 5,
			ask:        func(id int64) queue.Ask { return queue.Ask{AllRetries: true, Room: map[int64]int{id: 8}} },
			wantFirsts: 8, wantFull: true,
		},
		{
			name: "retries take the room left", firsts: 3, retries: 10,
			ask:        func(id int64) queue.Ask { return queue.Ask{AllRetries: true, Room: map[int64]int{id: 8}} },
			wantFirsts: 3, wantRetries: 5, wantFull: true,
		},
		{
			name: "retries are not looked at unless asked", firsts: 3, retries: 10,
			ask:        func(id int64) queue.Ask { return queue.Ask{Room: map[int64]int{id: 8}} },
			wantFirsts: 3,
		},
		{
			name: "a webhook cut short last time has its retries looked at", firsts: 0, retries: 3,
			ask:         func(id int64) queue.Ask { return queue.Ask{More: map[int64]bool{id: true}, Room: map[int64]int{id: 8}} },
			wantRetries: 3,
		},
		{
			name: "the room the loop reports bounds the claim", firsts: 5, retries: 0,
			ask:        func(id int64) queue.Ask { return queue.Ask{Room: map[int64]int{id: 2}} },
			wantFirsts: 2, wantFull: true,
		},
		{
			name: "a full queue claims nothing", firsts: 5, retries: 5,
			ask:      func(id int64) queue.Ask { return queue.Ask{AllRetries: true, Room: map[int64]int{id: 0}} },
			wantFull: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, c, w := claimSetup(t, tt.firsts, tt.retries)
			got := c.Round(tt.ask(w.ID), nil)
			if got.Err != nil {
				t.Fatal(got.Err)
			}
			var firsts, retries int
			for i, j := range got.Jobs {
				if got.First[j.ID] {
					firsts++
					if retries > 0 {
						t.Errorf("job %d is a first attempt after a retry; want every first attempt first", i)
					}
				} else {
					retries++
				}
				if d := h.deliveryOf(j.Payload.EventID, w.ID); !d.InFlight {
					t.Errorf("claimed delivery %d: %+v, want it in flight", j.ID, d)
				}
			}
			if firsts != tt.wantFirsts || retries != tt.wantRetries {
				t.Errorf("claimed %d first attempts and %d retries, want %d and %d", firsts, retries, tt.wantFirsts, tt.wantRetries)
			}
			if got.Full[w.ID] != tt.wantFull {
				t.Errorf("full = %v, want %v", got.Full[w.ID], tt.wantFull)
			}
			if _, ok := got.Targets[w.ID]; !ok {
				t.Errorf("targets %v lack webhook %d", got.Targets, w.ID)
			}
		})
	}
}

// A claimed job carries what the attempt needs, in due order, and the time it became due so
// that handing it back restores it.
func TestClaimedJobs(t *testing.T) {
	h, c, w := claimSetup(t, 3, 0)
	got := c.Round(queue.Ask{Room: map[int64]int{w.ID: 8}}, nil)
	if got.Err != nil || len(got.Jobs) != 3 {
		t.Fatalf("round: %d jobs, err %v; want 3", len(got.Jobs), got.Err)
	}
	ids := make([]int64, len(got.Jobs))
	for i, j := range got.Jobs {
		ids[i] = j.ID
		d := h.deliveryOf(j.Payload.EventID, w.ID)
		if j.Attempt != 1 || j.Series != 1 || !j.Due.Equal(d.CreatedAt) || !j.SeriesAt.Equal(d.CreatedAt) || len(j.Payload.Body) == 0 {
			t.Errorf("job %+v, want attempt 1 of series 1, due and series start at %v, with the body", j, d.CreatedAt)
		}
	}
	if !slices.IsSorted(ids) {
		t.Errorf("jobs in order %v, want due order", ids)
	}
	if err := c.HandBack(context.Background(), got.Jobs); err != nil {
		t.Fatal(err)
	}
	for _, j := range got.Jobs {
		if d := h.deliveryOf(j.Payload.EventID, w.ID); d.InFlight || !d.NextAttemptAt.Equal(j.Due) {
			t.Errorf("handed back: %+v, want due again at %v", d, j.Due)
		}
	}
	if again := c.Round(queue.Ask{Room: map[int64]int{w.ID: 8}}, nil); len(again.Jobs) != 3 {
		t.Errorf("after handing back, a round claimed %d jobs, want the 3 again", len(again.Jobs))
	}
}

// A round records the attempts it is given in the same transaction as it claims.
func TestRoundRecordsAndClaims(t *testing.T) {
	h, c, w := claimSetup(t, 2, 0)
	first := c.Round(queue.Ask{Room: map[int64]int{w.ID: 1}}, nil)
	if len(first.Jobs) != 1 {
		t.Fatalf("first round claimed %d jobs, want 1", len(first.Jobs))
	}
	done := result{job: jobOf(first.Jobs[0], target{}), startedAt: time.Now(), status: 204, decision: Decision{Verdict: Delivered}}
	second := c.Round(queue.Ask{Room: map[int64]int{w.ID: 8}}, []result{done})
	if second.Err != nil || len(second.Jobs) != 1 {
		t.Fatalf("second round: %d jobs, err %v; want the other delivery", len(second.Jobs), second.Err)
	}
	if d := h.deliveryOf(first.Jobs[0].Payload.EventID, w.ID); d.State != webhook.StateSucceeded || d.Attempts != 1 {
		t.Errorf("recorded delivery %+v, want succeeded after 1 attempt", d)
	}
}
