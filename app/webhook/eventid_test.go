package webhook

import (
	"regexp"
	"testing"
	"time"
)

// TestEventIDsFollowTime: event ids keep their published format (evt_ and 24 base62
// characters), differ even when made in the same millisecond, and sort as their creation times
// do, so a new event's id lands at the end of the indexes keyed by it (docs/webhooks.md, "How a
// first attempt reaches the dispatcher").
func TestEventIDsFollowTime(t *testing.T) {
	format := regexp.MustCompile(`^evt_[0-9A-Za-z]{24}$`)
	at := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	seen := map[string]bool{}
	prev := ""
	for i := range 2000 {
		now := at.Add(time.Duration(i/4) * time.Millisecond) // four ids per millisecond
		id, err := newEventID(now)
		if err != nil {
			t.Fatal(err)
		}
		if !format.MatchString(id) {
			t.Fatalf("id %q, want evt_ and 24 base62 characters", id)
		}
		if seen[id] {
			t.Fatalf("id %q made twice", id)
		}
		seen[id] = true
		if i%4 == 0 && prev != "" && id <= prev {
			t.Fatalf("id %q of a later millisecond sorts before %q", id, prev)
		}
		prev = id
	}
	// Far ends: the epoch and the year 8000 still fit the 8 time characters in order.
	lo, _ := newEventID(time.UnixMilli(0))
	hi, _ := newEventID(time.Date(8000, 1, 1, 0, 0, 0, 0, time.UTC))
	if !format.MatchString(lo) || !format.MatchString(hi) || lo[:12] >= hi[:12] {
		t.Errorf("ids at the epoch %q and in 8000 %q: want both well formed, in order", lo, hi)
	}
}
