package ical_test

import (
	"testing"

	"frontdesk/app/ical"
)

// A booking keeps its UID; bookings and installations never share one; the sequence rises with
// each reschedule and with the cancel.
func TestUIDAndSequence(t *testing.T) {
	if ical.UID(7, "abc") != ical.UID(7, "abc") || ical.UID(7, "abc") == ical.UID(8, "abc") || ical.UID(7, "abc") == ical.UID(7, "xyz") {
		t.Error("UID must be stable per booking and installation and differ otherwise")
	}
	prev := -1
	for _, step := range []struct {
		changes   int64
		cancelled bool
	}{{0, false}, {1, false}, {2, false}, {2, true}} {
		n := ical.Sequence(step.changes, step.cancelled)
		if n <= prev {
			t.Errorf("sequence %d after %d, want it to rise", n, prev)
		}
		prev = n
	}
}
