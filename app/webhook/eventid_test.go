package webhook

import (
	"regexp"
	"testing"
	"time"
)

// Event ids keep their published shape (docs/webhooks.md: "evt_" and 24 letters and digits),
// never repeat, and sort by the millisecond they were made in, which keeps the events' index
// appending instead of touching a random page per event.
func TestEventIDsSortByTime(t *testing.T) {
	shape := regexp.MustCompile(`^evt_[0-9A-Za-z]{24}$`)
	at := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	seen := map[string]bool{}
	prev := ""
	for i := range 2000 {
		id, err := NewEventID(at.Add(time.Duration(i/3) * time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		if !shape.MatchString(id) {
			t.Fatalf("id %q does not have the published shape", id)
		}
		if seen[id] {
			t.Fatalf("id %q made twice", id)
		}
		seen[id] = true
		if i%3 == 0 && id <= prev {
			t.Fatalf("id %q made a millisecond after %q sorts before it", id, prev)
		}
		prev = id
	}
	late, _ := NewEventID(time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC))
	if late <= prev {
		t.Fatalf("an id made in 2200 (%q) sorts before one of 2026 (%q)", late, prev)
	}
}
