package booking

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// TestOfferCutMatchesSlots: the clock-free slots of a schedule, cut for a clock, are exactly
// what Slots answers for that clock — for clocks before, inside and after the dates, with and
// without minimum notice and maximum advance — so an Offered kept under a ScheduleVersion
// answers every later request as a fresh computation would.
func TestOfferCutMatchesSlots(t *testing.T) {
	rng := rand.New(rand.NewPCG(*seed, 2))
	gen := newGenerator(t, rng)
	n := 200
	if testing.Short() {
		n = 40
	}
	var cut int
	for i := range n {
		s, first, last, now := gen.schedule()
		switch i % 4 {
		case 1:
			s.Policy.MinNotice, s.Policy.MaxAdvance = 0, 0
		case 2:
			s.Policy.MinNotice, s.Policy.MaxAdvance = 90*time.Minute, 36*time.Hour
		case 3:
			s.Policy.MaxAdvance = time.Duration(rng.Int64N(int64(72 * time.Hour)))
		}
		o := Offer(s, first, last)
		from := time.Date(first.Year, first.Month, first.Day, 0, 0, 0, 0, s.Zone)
		clocks := []time.Time{now, from.AddDate(0, 0, -30), from.AddDate(0, 0, 30)}
		for range 8 {
			clocks = append(clocks, from.Add(time.Duration(rng.Int64N(int64(96*time.Hour)))-24*time.Hour))
		}
		for _, c := range clocks {
			want := Slots(s, first, last, c)
			lo, hi := o.Cut(c)
			got := o.Slots[lo:hi]
			if len(want) == 0 && len(got) == 0 {
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d, schedule %d, clock %s: Offer cut [%d:%d] of %d gives\n%v\nwant Slots'\n%v",
					*seed, i, c.Format(time.RFC3339Nano), lo, hi, len(o.Slots), slotKeys(got), slotKeys(want))
			}
			if len(want) < len(o.Slots) {
				cut++
			}
		}
	}
	// Clocks that never cut anything would prove nothing about Cut.
	if cut < n/4 {
		t.Errorf("seed %d: got %d clocks that cut the slots, want at least %d", *seed, cut, n/4)
	}
}
