package booking

import (
	"math"
	"time"
)

// clock translates between a zone's wall clock and real instants over a
// window of real time. It is built from the zone's offset changes
// (time.Time.ZoneBounds) rather than time.Date, because time.Date resolves a
// wall time in a gap or an overlap to one arbitrary instant, and the engine
// needs all of them (or none).
//
// Instants are Unix seconds; wall times are "local seconds": Unix seconds as
// if the zone were UTC, so local date n (a unixDay) starts at n*secondsPerDay.
type clock struct {
	segs []segment
}

// segment is a stretch of real time [from, to) during which the zone's UTC
// offset is off; its wall times run from from+off to to+off.
type segment struct{ from, to, off int64 }

// newClock covers real time [from, to); queries for wall times whose instants
// fall outside it are answered as if the window's edge offsets went on forever.
func newClock(zone *time.Location, from, to int64) clock {
	var c clock
	t := time.Unix(from, 0).In(zone)
	for {
		_, off := t.Zone()
		_, end := t.ZoneBounds()
		lo, hi := t.Unix(), int64(math.MaxInt64)
		if !end.IsZero() && end.Unix() > lo {
			hi = end.Unix()
		}
		if n := len(c.segs); n > 0 && c.segs[n-1].off == int64(off) {
			c.segs[n-1].to = hi // a name change (e.g. LMT→standard) without an offset change
		} else {
			c.segs = append(c.segs, segment{lo, hi, int64(off)})
		}
		if hi >= to {
			return c
		}
		t = time.Unix(hi, 0).In(zone)
	}
}

// reach returns the first instant at which the clock reads wall or later.
// It is how wall ranges become real intervals (see the package doc): inside a
// gap it answers the end of the gap; inside an overlap, the first occurrence.
func (c *clock) reach(wall int64) int64 {
	for _, s := range c.segs {
		if wall <= s.from+s.off {
			return s.from
		}
		if wall < s.to+s.off {
			return wall - s.off
		}
	}
	return c.segs[len(c.segs)-1].to
}

// appendInstants appends, in order, every instant at which the clock reads
// exactly wall: none in a gap, two in an overlap, one otherwise.
func (c *clock) appendInstants(dst []int64, wall int64) []int64 {
	for _, s := range c.segs {
		if t := wall - s.off; s.from <= t && t < s.to {
			dst = append(dst, t)
		}
	}
	return dst
}

// wall returns what the clock reads at instant t.
func (c *clock) wall(t int64) int64 {
	for _, s := range c.segs {
		if t < s.to {
			return t + s.off
		}
	}
	return t + c.segs[len(c.segs)-1].off
}

// Instants returns every instant at which the clocks in zone read minute
// (0–1439) on date d, in order: none when a spring-forward skips that wall
// time, two when a fall-back repeats it. Use it to turn a local date and time
// from a client into an instant without guessing.
func Instants(zone *time.Location, d Date, minute int) []time.Time {
	wall := d.unixDay()*secondsPerDay + int64(minute)*60
	c := newClock(zone, wall-2*secondsPerDay, wall+2*secondsPerDay)
	var out []time.Time
	for _, t := range c.appendInstants(nil, wall) {
		out = append(out, time.Unix(t, 0).In(zone))
	}
	return out
}
