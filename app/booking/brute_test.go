package booking

import (
	"cmp"
	"slices"
	"time"
)

// bruteSlots is the reference model the engine is tested against. It shares
// no code with the engine: it walks real time one minute at a time, reads the
// zone's clock with time.Time.In, and decides everything per minute. It
// assumes what the generated tests guarantee: zone transitions, interval
// ends, durations and steps all fall on whole minutes.
//
// It also returns every grid candidate (offered or not), for checking Explain.
func bruteSlots(s Schedule, first, last Date, now time.Time) (slots []Slot, candidates []Slot) {
	const day = 24 * time.Hour
	pad := 3 + int((s.Service.BufferBefore+s.Service.Duration+s.Service.BufferAfter)/day)
	begin := time.Date(first.Year, first.Month, first.Day-pad, 0, 0, 0, 0, time.UTC)
	end := time.Date(last.Year, last.Month, last.Day+pad+1, 0, 0, 0, 0, time.UTC)

	// The wall time of each real minute, and the highest wall time shown so
	// far ("high water"). Working hours are tested against the high water:
	// that is exactly "from the first instant the clock reads Open or later
	// to the first instant it reads Close or later".
	type minute struct {
		t              time.Time
		date, hwDate   Date
		wd, hwWeekday  time.Weekday
		wallMin, hwMin int
	}
	mins := make([]minute, 0, int(end.Sub(begin)/time.Minute))
	high := -1 << 62
	for t := begin; t.Before(end); t = t.Add(time.Minute) {
		lt := t.In(s.Zone)
		y, m, d := lt.Date()
		wall := civilDay(y, m, d)*1440 + lt.Hour()*60 + lt.Minute()
		high = max(high, wall)
		hwDay := time.Unix(int64(high/1440)*86400, 0).UTC()
		hy, hmo, hd := hwDay.Date()
		mins = append(mins, minute{lt, Date{y, m, d}, Date{hy, hmo, hd}, lt.Weekday(), hwDay.Weekday(), lt.Hour()*60 + lt.Minute(), high % 1440})
	}

	locationOpen := func(d Date, wd time.Weekday, m int) bool {
		if slices.Contains(s.Closures, d) {
			return false
		}
		for _, h := range s.Hours {
			if h.Weekday == wd && h.Open <= m && m < h.Close {
				return true
			}
		}
		return false
	}
	working := func(p Provider, wd time.Weekday, m int) bool {
		for _, sh := range p.Shifts {
			if sh.Weekday != wd || m < sh.Open || m >= sh.Close {
				continue
			}
			if !slices.ContainsFunc(sh.Breaks, func(b Break) bool { return b.Start <= m && m < b.End }) {
				return true
			}
		}
		return false
	}
	blocked := func(p Provider, t time.Time) bool {
		overlaps := func(iv Interval) bool { return iv.Start.Before(t.Add(time.Minute)) && t.Before(iv.End) }
		return slices.ContainsFunc(p.TimeOff, overlaps) || slices.ContainsFunc(p.Busy, overlaps)
	}

	providers := slices.Clone(s.Providers)
	slices.SortFunc(providers, func(a, b Provider) int { return cmp.Compare(a.ID, b.ID) })
	free := make([][]bool, len(providers))
	for i, p := range providers {
		free[i] = make([]bool, len(mins))
		for j, m := range mins {
			free[i][j] = locationOpen(m.hwDate, m.hwWeekday, m.hwMin) && working(p, m.hwWeekday, m.hwMin) && !blocked(p, m.t)
		}
	}

	step := int(s.Policy.Step / time.Minute)
	if step == 0 {
		step = int(s.Service.Duration / time.Minute)
	}
	before := int(s.Service.BufferBefore / time.Minute)
	length := int((s.Service.Duration + s.Service.BufferAfter) / time.Minute)
	for j, m := range mins {
		if m.date.Compare(first) < 0 || m.date.Compare(last) > 0 {
			continue
		}
		for i, p := range providers {
			onGrid := slices.ContainsFunc(p.Shifts, func(sh Shift) bool {
				return sh.Weekday == m.wd && sh.Open <= m.wallMin && m.wallMin < sh.Close && (m.wallMin-sh.Open)%step == 0
			})
			if !onGrid {
				continue
			}
			slot := Slot{ProviderID: p.ID, ProviderName: p.Name, Date: m.date, Start: m.t, End: m.t.Add(s.Service.Duration)}
			candidates = append(candidates, slot)
			if !p.OffersService || m.t.Before(now.Add(s.Policy.MinNotice)) {
				continue
			}
			if s.Policy.MaxAdvance > 0 && m.t.After(now.Add(s.Policy.MaxAdvance)) {
				continue
			}
			fits := true
			for k := j - before; k < j+length; k++ {
				fits = fits && free[i][k]
			}
			if fits {
				slots = append(slots, slot)
			}
		}
	}
	return slots, candidates
}

func civilDay(y int, m time.Month, d int) int {
	return int(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}
