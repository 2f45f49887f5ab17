package bench

import (
	"fmt"
	"time"
)

// grid hands out booking times so that a scenario and its raw SQLite baseline do the same
// work. In free mode request k gets a (provider, start) no other request gets, so every booking
// should succeed; in race mode `racers` consecutive requests share one group of overlapping
// times on one provider, so exactly one of them can win.
//
// Times are on the company's slot grid (step minutes from local midnight) in a zone without
// daylight saving time, starting at firstDay, for days days; the providers work all day.
type grid struct {
	providers []int64
	zone      *time.Location
	firstDay  time.Time // local midnight
	days      int
	step      int // minutes
}

// free returns request k's slot: a start on the grid, lasting one step. Requests go round the
// providers, then round the days, and only then to the next time of day, so each provider's
// day fills up gradually as a real calendar does (the overlap check reads the provider's
// bookings of the two days before, so a calendar packed end to end would cost it more than
// real use does).
func (g grid) free(k int64) (provider int64, start time.Time, err error) {
	p := int64(len(g.providers))
	slot := k / p
	day, index := slot%int64(g.days), slot/int64(g.days)
	if index >= int64(1440/g.step) {
		return 0, time.Time{}, fmt.Errorf("request %d: the %d-day booking window is full", k, g.days)
	}
	return g.providers[k%p], g.at(day, index*int64(g.step)), nil
}

// raceDuration is how long a race booking lasts: three steps, so the three start variants of a
// group overlap pairwise ([0,3), [1,4), [2,5) in steps).
func (g grid) raceDuration() time.Duration { return time.Duration(3*g.step) * time.Minute }

// race returns request k's slot: racers consecutive requests form a group on one provider, and
// start at 0, 1 or 2 steps into the group's window, so they all overlap. Groups are six steps
// apart and never overlap each other; like free, they go round providers, then days.
func (g grid) race(k int64, racers int) (provider int64, start time.Time, group int64, err error) {
	group = k / int64(racers)
	variant := (k % int64(racers)) % 3
	p := int64(len(g.providers))
	slot := group / p
	day, index := slot%int64(g.days), slot/int64(g.days)
	if index >= int64(1440/(6*g.step)) {
		return 0, time.Time{}, 0, fmt.Errorf("request %d: the %d-day race window is full", k, g.days)
	}
	minute := index*int64(6*g.step) + variant*int64(g.step)
	return g.providers[group%p], g.at(day, minute), group, nil
}

// half is the first request of the grid's second half: create_booking books the first half,
// day_in_the_life the second (gridSizes). A grid sized for twice the run's demand has at least
// that demand in each half; one capped at maxGridSize providers, for a run of many minutes,
// still has millions of times in each — far more than a run's HTTP creates can take.
func (g grid) half() int64 {
	return int64(len(g.providers)) * int64(g.days) * int64(1440/g.step) / 2
}

func (g grid) at(day, minute int64) time.Time {
	return time.Date(g.firstDay.Year(), g.firstDay.Month(), g.firstDay.Day()+int(day), 0, int(minute), 0, 0, g.zone)
}

// block is one booking's busy time on one provider, in Unix ms.
type block struct {
	provider   int64
	start, end int64
}

// countOverlaps counts the blocks that overlap an earlier block of the same provider. blocks
// must be sorted by provider, then start. It is a plain sweep, independent of the SQL that
// enforces the rule, so it can catch that SQL being wrong.
func countOverlaps(blocks []block) int {
	n := 0
	var reach int64 // the latest end so far of the current provider
	for i, b := range blocks {
		if i > 0 && b.provider == blocks[i-1].provider && b.start < reach {
			n++
		}
		if i == 0 || b.provider != blocks[i-1].provider || b.end > reach {
			reach = b.end
		}
	}
	return n
}
