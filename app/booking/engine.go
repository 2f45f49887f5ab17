package booking

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// Slots returns every slot offered on local dates first through last
// (inclusive), sorted by Start and then ProviderID. now is the caller's clock;
// it only feeds MinNotice and MaxAdvance. An invalid schedule (see
// Schedule.Validate), an invalid date or an empty range yields no slots.
func Slots(s Schedule, first, last Date, now time.Time) []Slot {
	lo, hi := s.Policy.window(now)
	return slotsWithin(s, first, last, lo, hi)
}

// Offered is every slot of a schedule over some dates whatever the clock: what Slots returns
// before MinNotice and MaxAdvance cut it. The clock only ever cuts a contiguous run out of it
// (slots are ordered by start), so a caller may keep an Offered for as long as the schedule
// stays the same (ScheduleVersion) and cut it for each request's clock.
type Offered struct {
	Slots  []Slot
	policy Policy
}

// Offer returns the slots Slots(s, first, last, now) cuts for any now.
func Offer(s Schedule, first, last Date) Offered {
	return Offered{Slots: slotsWithin(s, first, last, math.MinInt64, math.MaxInt64), policy: s.Policy}
}

// Cut returns the run o.Slots[i:j] that is Slots(s, first, last, now).
func (o Offered) Cut(now time.Time) (i, j int) {
	lo, hi := o.policy.window(now)
	byStart := func(s Slot, t int64) int { return cmp.Compare(s.Start.Unix(), t) }
	i, _ = slices.BinarySearchFunc(o.Slots, lo, byStart) // the first at or after lo
	j = len(o.Slots)
	if hi < math.MaxInt64 {
		j, _ = slices.BinarySearchFunc(o.Slots, hi+1, byStart) // the first after hi
	}
	return i, max(i, j)
}

// slotsWithin is Slots for the starts in [lo, hi] (Unix seconds).
func slotsWithin(s Schedule, first, last Date, lo, hi int64) []Slot {
	if !first.IsValid() || !last.IsValid() || last.Before(first) || s.Validate() != nil {
		return nil
	}
	firstDay, lastDay := first.unixDay(), last.unixDay()
	q := newQuery(&s, firstDay, lastDay)

	order := make([]int, len(s.Providers))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(s.Providers[a].ID, s.Providers[b].ID) })

	runs := make([][]int64, len(order))
	var buf []int64
	resources := newResourceFull(&s)
	for rank, i := range order {
		p := &s.Providers[i]
		if !p.OffersService {
			continue
		}
		free := q.free(p)
		var starts []int64
		for day := firstDay; day <= lastDay; day++ {
			base, wd := day*secondsPerDay, weekdayOf(day)
			for _, sh := range p.Shifts {
				if sh.Weekday != wd {
					continue
				}
				for m := int64(sh.Open) * 60; m < int64(sh.Close)*60; m += q.step {
					buf = q.clock.appendInstants(buf[:0], base+m)
					for _, t := range buf {
						if t >= lo && t <= hi && contains(free, q.block(t)) && resources.free(q.block(t)) {
							starts = append(starts, t)
						}
					}
				}
			}
		}
		slices.Sort(starts) // overlapping shifts on one day interleave and may repeat
		runs[rank] = slices.Compact(starts)
	}
	return q.slots(runs, order)
}

// slots merges the providers' sorted starts (runs, in provider ID order) into
// slots ordered by Start and then ProviderID. A heap of run indices keyed by
// (next start, index) keeps this O(n log k) instead of sorting all n again.
func (q *query) slots(runs [][]int64, order []int) []Slot {
	n := 0
	var heap []int
	for i, r := range runs {
		n += len(r)
		if len(r) > 0 {
			heap = append(heap, i)
		}
	}
	less := func(a, b int) bool {
		return runs[a][0] < runs[b][0] || runs[a][0] == runs[b][0] && a < b
	}
	down := func(i int) {
		for {
			c := 2*i + 1
			if c >= len(heap) {
				return
			}
			if c+1 < len(heap) && less(heap[c+1], heap[c]) {
				c++
			}
			if !less(heap[c], heap[i]) {
				return
			}
			heap[i], heap[c] = heap[c], heap[i]
			i = c
		}
	}
	for i := len(heap)/2 - 1; i >= 0; i-- {
		down(i)
	}

	out := make([]Slot, 0, n)
	day, date := int64(math.MinInt64), Date{}
	for len(heap) > 0 {
		r := heap[0]
		t := runs[r][0]
		if runs[r] = runs[r][1:]; len(runs[r]) == 0 {
			heap[0] = heap[len(heap)-1]
			heap = heap[:len(heap)-1]
		}
		down(0)
		if d := floorDiv(q.clock.wall(t), secondsPerDay); d != day {
			day, date = d, dateFromUnixDay(d)
		}
		p := &q.s.Providers[order[r]]
		out = append(out, Slot{
			ProviderID:   p.ID,
			ProviderName: p.Name,
			Date:         date,
			Start:        time.Unix(t, 0).In(q.s.Zone),
			End:          time.Unix(t+q.dur, 0).In(q.s.Zone),
		})
	}
	return out
}

// query is the state one call shares across providers: the zone's clock and
// the location's open time over the queried days plus enough padding for
// blocks that reach into neighbouring days (overnight work, long buffers).
type query struct {
	s                        *Schedule
	clock                    clock
	from, to                 int64 // unix days whose working time is built
	closed                   map[int64]bool
	before, dur, after, step int64 // seconds
	open                     []span
}

func newQuery(s *Schedule, firstDay, lastDay int64) *query {
	q := &query{
		s:      s,
		before: seconds(s.Service.BufferBefore),
		dur:    seconds(s.Service.Duration),
		after:  seconds(s.Service.BufferAfter),
		step:   s.step(),
	}
	q.from = firstDay - q.before/secondsPerDay - 2
	q.to = lastDay + (q.dur+q.after)/secondsPerDay + 2
	// Offsets stay within a day of UTC, so two days of slack on each side
	// cover every instant of every local day in range.
	q.clock = newClock(s.Zone, (q.from-2)*secondsPerDay, (q.to+3)*secondsPerDay)
	if len(s.Closures) > 0 {
		q.closed = make(map[int64]bool, len(s.Closures))
		for _, d := range s.Closures {
			q.closed[d.unixDay()] = true
		}
	}
	for day := q.from; day <= q.to; day++ {
		if q.closed[day] {
			continue
		}
		for _, h := range s.Hours {
			if h.Weekday == weekdayOf(day) {
				q.open = append(q.open, q.wallSpan(day, h.Open, h.Close))
			}
		}
	}
	q.open = normalize(q.open)
	return q
}

// wallSpan turns the wall range [open, close) minutes on a day into real time.
func (q *query) wallSpan(day int64, open, close int) span {
	base := day * secondsPerDay
	return span{q.clock.reach(base + int64(open)*60), q.clock.reach(base + int64(close)*60)}
}

// block is the provider time a booking starting at t occupies.
func (q *query) block(t int64) span { return span{t - q.before, t + q.dur + q.after} }

// window returns the earliest and latest allowed start in whole seconds.
func (p Policy) window(now time.Time) (lo, hi int64) {
	lo, hi = ceilSec(now.Add(p.MinNotice)), math.MaxInt64
	if p.MaxAdvance > 0 {
		hi = floorSec(now.Add(p.MaxAdvance))
	}
	return lo, hi
}

// shiftTime is the provider's shifts in real time, without their breaks when
// withBreaks is set. Each break only cuts its own shift, so an overlapping
// shift can cover it.
func (q *query) shiftTime(p *Provider, withBreaks bool) []span {
	var out, breaks []span
	for day := q.from; day <= q.to; day++ {
		for _, sh := range p.Shifts {
			if sh.Weekday != weekdayOf(day) {
				continue
			}
			x := q.wallSpan(day, sh.Open, sh.Close)
			if !withBreaks || len(sh.Breaks) == 0 {
				out = append(out, x)
				continue
			}
			breaks = breaks[:0]
			for _, b := range sh.Breaks {
				breaks = append(breaks, q.wallSpan(day, b.Start, b.End))
			}
			out = subtract(out, []span{x}, normalize(breaks))
		}
	}
	return normalize(out)
}

// working is where a block may lie before time off and bookings are removed.
func (q *query) working(p *Provider) []span { return intersect(q.open, q.shiftTime(p, true)) }

// free is working time minus time off and bookings.
func (q *query) free(p *Provider) []span {
	work := q.working(p)
	if len(work) == 0 {
		return nil
	}
	hull := span{work[0].lo, work[len(work)-1].hi}
	return subtract(nil, work, taken(hull, p.TimeOff, p.Calendar, p.Busy, p.Teaching))
}

// taken merges the intervals that overlap within into normalized spans.
// Skipping the rest keeps a one-day query from sorting a month of bookings.
func taken(within span, lists ...[]Interval) []span {
	var out []span
	for _, ivs := range lists {
		for _, iv := range ivs {
			if x := spanOf(iv); x.lo < within.hi && within.lo < x.hi {
				out = append(out, x)
			}
		}
	}
	return normalize(out)
}
