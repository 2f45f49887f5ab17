package webhook

import (
	"context"
	"slices"
	"testing"
	"time"
)

// claimSetup registers a webhook (nothing listens: the tests only claim) with firsts fresh
// events and retries deliveries that failed once and are due again, and returns a claimer.
func claimSetup(t *testing.T, firsts, retries int) (*harness, *claimer, Webhook) {
	t.Helper()
	h := newHarness(t)
	w, _ := h.create("https://example.com/hook", "*")
	for i := range retries {
		id := h.enqueue(ClientUpdated, map[string]any{"retry": i})
		d := h.deliveryOf(id, w.ID)
		// What a failed first attempt leaves: one attempt made, the next one due a minute ago.
		if _, err := h.db.Write.Exec("UPDATE deliveries SET attempts = 1, next_attempt_at = ? WHERE id = ?",
			time.Now().Add(-time.Minute).UnixMilli(), d.ID); err != nil {
			t.Fatal(err)
		}
	}
	for i := range firsts {
		h.enqueue(ClientUpdated, map[string]any{"first": i})
	}
	d := NewDispatcher(h.db, Config{AllowPrivate: true, Workers: 8}, discardLog(), nil, nil)
	t.Cleanup(d.prepared.close)
	return h, &claimer{d: d, depth: 8, keys: map[string][]byte{}}, w
}

func TestClaimRound(t *testing.T) {
	tests := []struct {
		name            string
		firsts, retries int
		ask             func(webhookID int64) claimAsk
		wantFirsts      int
		wantRetries     int
		wantFull        bool
	}{
		{
			name: "first attempts fill the room before any retry", firsts: 10, retries: 5,
			ask:        func(int64) claimAsk { return claimAsk{allRetries: true} },
			wantFirsts: 8, wantFull: true,
		},
		{
			name: "retries take the room left", firsts: 3, retries: 10,
			ask:        func(int64) claimAsk { return claimAsk{allRetries: true} },
			wantFirsts: 3, wantRetries: 5, wantFull: true,
		},
		{
			name: "retries are not looked at unless asked", firsts: 3, retries: 10,
			ask:        func(int64) claimAsk { return claimAsk{} },
			wantFirsts: 3,
		},
		{
			name: "a webhook cut short last time has its retries looked at", firsts: 0, retries: 3,
			ask:         func(id int64) claimAsk { return claimAsk{more: map[int64]bool{id: true}} },
			wantRetries: 3,
		},
		{
			name: "the room the loop reports bounds the claim", firsts: 5, retries: 0,
			ask:        func(id int64) claimAsk { return claimAsk{room: map[int64]int{id: 2}} },
			wantFirsts: 2, wantFull: true,
		},
		{
			name: "a full queue claims nothing", firsts: 5, retries: 5,
			ask:      func(id int64) claimAsk { return claimAsk{allRetries: true, room: map[int64]int{id: 0}} },
			wantFull: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, c, w := claimSetup(t, tt.firsts, tt.retries)
			got := c.round(tt.ask(w.ID), nil)
			if got.err != nil {
				t.Fatal(got.err)
			}
			var firsts, retries int
			for i, j := range got.jobs {
				if got.first[j.deliveryID] {
					firsts++
					if retries > 0 {
						t.Errorf("job %d is a first attempt after a retry; want every first attempt first", i)
					}
				} else {
					retries++
				}
				if d := h.deliveryOf(j.eventID, w.ID); !d.InFlight {
					t.Errorf("claimed delivery %d: %+v, want it in flight", j.deliveryID, d)
				}
			}
			if firsts != tt.wantFirsts || retries != tt.wantRetries {
				t.Errorf("claimed %d first attempts and %d retries, want %d and %d", firsts, retries, tt.wantFirsts, tt.wantRetries)
			}
			if got.full[w.ID] != tt.wantFull {
				t.Errorf("full = %v, want %v", got.full[w.ID], tt.wantFull)
			}
			if _, ok := got.targets[w.ID]; !ok {
				t.Errorf("targets %v lack webhook %d", got.targets, w.ID)
			}
		})
	}
}

// A claimed job carries what the attempt needs, in due order, and the time it became due so
// that handing it back restores it.
func TestClaimedJobs(t *testing.T) {
	h, c, w := claimSetup(t, 3, 0)
	got := c.round(claimAsk{}, nil)
	if got.err != nil || len(got.jobs) != 3 {
		t.Fatalf("round: %d jobs, err %v; want 3", len(got.jobs), got.err)
	}
	ids := make([]int64, len(got.jobs))
	for i, j := range got.jobs {
		ids[i] = j.deliveryID
		d := h.deliveryOf(j.eventID, w.ID)
		if j.attempt != 1 || j.series != 1 || !j.due.Equal(d.CreatedAt) || !j.seriesAt.Equal(d.CreatedAt) || len(j.body) == 0 {
			t.Errorf("job %+v, want attempt 1 of series 1, due and series start at %v, with the body", j, d.CreatedAt)
		}
	}
	if !slices.IsSorted(ids) {
		t.Errorf("jobs in order %v, want due order", ids)
	}
	if err := c.d.handBack(context.Background(), got.jobs); err != nil {
		t.Fatal(err)
	}
	for _, j := range got.jobs {
		if d := h.deliveryOf(j.eventID, w.ID); d.InFlight || !d.NextAttemptAt.Equal(j.due) {
			t.Errorf("handed back: %+v, want due again at %v", d, j.due)
		}
	}
	if again := c.round(claimAsk{}, nil); len(again.jobs) != 3 {
		t.Errorf("after handing back, a round claimed %d jobs, want the 3 again", len(again.jobs))
	}
}

// A round records the attempts it is given in the same transaction as it claims.
func TestRoundRecordsAndClaims(t *testing.T) {
	h, c, w := claimSetup(t, 2, 0)
	first := c.round(claimAsk{room: map[int64]int{w.ID: 1}}, nil)
	if len(first.jobs) != 1 {
		t.Fatalf("first round claimed %d jobs, want 1", len(first.jobs))
	}
	done := result{job: first.jobs[0], startedAt: time.Now(), status: 204, decision: Decision{Verdict: Delivered}}
	second := c.round(claimAsk{}, []result{done})
	if second.err != nil || len(second.jobs) != 1 {
		t.Fatalf("second round: %d jobs, err %v; want the other delivery", len(second.jobs), second.err)
	}
	if d := h.deliveryOf(first.jobs[0].eventID, w.ID); d.State != StateSucceeded || d.Attempts != 1 {
		t.Errorf("recorded delivery %+v, want succeeded after 1 attempt", d)
	}
}

// Commits while every queue is well stocked wait; a hungry queue or a refill claims at once,
// and commits close together share one round.
func TestClaimWait(t *testing.T) {
	stocked := func(l *loop, n int) {
		for i := range n {
			l.queues.add(job{webhookID: 1, deliveryID: int64(i)}, true)
		}
	}
	tests := []struct {
		name    string
		setup   func(l *loop)
		want    time.Duration // -1: no round until something else happens
		wantMax time.Duration
	}{
		{name: "nothing to do", setup: func(l *loop) {}, want: -1},
		{name: "a commit on an idle dispatcher", setup: func(l *loop) { l.woken = true }, want: 0},
		{name: "a commit while every queue is stocked", setup: func(l *loop) { l.woken = true; stocked(l, 8) }, want: -1},
		{name: "a commit while a queue runs low", setup: func(l *loop) { l.woken = true; stocked(l, 3) }, want: 0},
		{name: "a commit right after a round", setup: func(l *loop) { l.woken = true; l.lastRound = time.Now() }, wantMax: coalesceWindow},
		{name: "retries may be due", setup: func(l *loop) { l.allRetries = true; stocked(l, 8) }, want: 0},
		{name: "a queue with more due work drained", setup: func(l *loop) { l.refill = true; l.lastRound = time.Now() }, want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			d := NewDispatcher(h.db, Config{Workers: 4, PerEndpoint: 1}, discardLog(), nil, nil)
			l := newLoop(d) // depth 16: a queue of 8 or more is stocked
			l.allRetries = false
			l.current = map[int64]target{1: {}}
			tt.setup(l)
			got := l.claimWait()
			if tt.wantMax > 0 {
				if got <= 0 || got > tt.wantMax {
					t.Errorf("claimWait() = %v, want a wait of at most %v", got, tt.wantMax)
				}
				return
			}
			if got != tt.want {
				t.Errorf("claimWait() = %v, want %v", got, tt.want)
			}
		})
	}
}
