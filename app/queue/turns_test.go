package queue

import (
	"testing"
	"time"
)

// These are the mechanics app/webhook's tests checked before the queue was lifted out of it;
// the cases are unchanged.

func TestLanesTakeFairTurns(t *testing.T) {
	qs := newLanes[int]()
	add := func(hook int64, n int, first bool) {
		for i := range n {
			qs.add(Job[int]{Target: hook, ID: hook*100 + int64(i)}, first)
		}
	}
	add(1, 5, false) // retries for 1
	add(1, 5, true)  // a backlog of first attempts for 1
	add(2, 2, true)
	add(3, 1, false)

	var got []int64
	for {
		j, ok := qs.pick(2)
		if !ok {
			break
		}
		got = append(got, j.Target)
	}
	// First attempts go first, alternating between targets 1 and 2; target 1 stops at its cap
	// of 2 in flight; then retries: only target 3 has room.
	want := []int64{1, 2, 1, 2, 3}
	if !equalIDs(got, want) {
		t.Fatalf("picks %v, want %v", got, want)
	}
	if qs.finished(1, 32) {
		t.Errorf("finished reported a claim is due although nothing more was claimed for target 1")
	}
	if j, ok := qs.pick(2); !ok || j.Target != 1 || j.ID != 102 {
		t.Errorf("after a slot frees: %+v, %v; want target 1's next first attempt", j, ok)
	}
	if dropped := qs.drop(1); len(dropped) != 7 {
		t.Errorf("drop returned %d jobs, want the 7 still queued", len(dropped))
	}
}

func equalIDs(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Commits while every queue is well stocked wait; a hungry queue or a refill claims at once,
// and commits close together share one round.
func TestClaimWait(t *testing.T) {
	stocked := func(l *loop[int, struct{}, int], n int) {
		for i := range n {
			l.lanes.add(Job[int]{Target: 1, ID: int64(i)}, true)
		}
	}
	tests := []struct {
		name    string
		setup   func(l *loop[int, struct{}, int])
		want    time.Duration // -1: no round until something else happens
		wantMax time.Duration
	}{
		{name: "nothing to do", setup: func(l *loop[int, struct{}, int]) {}, want: -1},
		{name: "a commit on an idle dispatcher", setup: func(l *loop[int, struct{}, int]) { l.woken = true }, want: 0},
		{name: "a commit while every queue is stocked", setup: func(l *loop[int, struct{}, int]) { l.woken = true; stocked(l, 8) }, want: -1},
		{name: "a commit while a queue runs low", setup: func(l *loop[int, struct{}, int]) { l.woken = true; stocked(l, 3) }, want: 0},
		{name: "a commit right after a round", setup: func(l *loop[int, struct{}, int]) { l.woken = true; l.lastRound = time.Now() }, wantMax: coalesceWindow},
		{name: "retries may be due", setup: func(l *loop[int, struct{}, int]) { l.allRetries = true; stocked(l, 8) }, want: 0},
		{name: "a queue with more due work drained", setup: func(l *loop[int, struct{}, int]) { l.refill = true; l.lastRound = time.Now() }, want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := New[int, struct{}, int](nil, Config{Workers: 4, PerTarget: 1}, nil, nil, nil, nil)
			l := d.newLoop() // depth 16: a lane of 8 or more is stocked
			l.allRetries = false
			l.current = map[int64]struct{}{1: {}}
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
