package booking

import (
	"cmp"
	"slices"
	"time"
)

// span is a half-open interval [lo, hi) of Unix seconds. Whole seconds are
// exact for everything the engine creates (offsets and wall minutes are whole
// seconds); caller instants are rounded outward, which keeps overlap tests
// exact for whole-second candidates.
type span struct{ lo, hi int64 }

func spanOf(iv Interval) span { return span{floorSec(iv.Start), ceilSec(iv.End)} }

func floorSec(t time.Time) int64 { return t.Unix() }

func ceilSec(t time.Time) int64 {
	if t.Nanosecond() > 0 {
		return t.Unix() + 1
	}
	return t.Unix()
}

// normalize sorts s and merges overlapping or touching spans, dropping empty
// ones, reusing s's storage. Merging touching spans is what makes containment
// in a union a single lookup, and what joins 24:00 to the next day's 00:00.
func normalize(s []span) []span {
	s = slices.DeleteFunc(s, func(x span) bool { return x.hi <= x.lo })
	slices.SortFunc(s, func(a, b span) int { return cmp.Compare(a.lo, b.lo) })
	out := s[:0]
	for _, x := range s {
		if n := len(out); n > 0 && x.lo <= out[n-1].hi {
			out[n-1].hi = max(out[n-1].hi, x.hi)
			continue
		}
		out = append(out, x)
	}
	return out
}

// intersect returns a ∩ b for normalized a and b.
func intersect(a, b []span) []span {
	var out []span
	for i, j := 0, 0; i < len(a) && j < len(b); {
		if lo, hi := max(a[i].lo, b[j].lo), min(a[i].hi, b[j].hi); lo < hi {
			out = append(out, span{lo, hi})
		}
		if a[i].hi < b[j].hi {
			i++
		} else {
			j++
		}
	}
	return out
}

// subtract appends a − b to dst for normalized a and b.
func subtract(dst, a, b []span) []span {
	j := 0
	for _, x := range a {
		for j < len(b) && b[j].hi <= x.lo {
			j++
		}
		lo := x.lo
		for k := j; k < len(b) && b[k].lo < x.hi; k++ {
			if b[k].lo > lo {
				dst = append(dst, span{lo, b[k].lo})
			}
			lo = max(lo, b[k].hi)
		}
		if lo < x.hi {
			dst = append(dst, span{lo, x.hi})
		}
	}
	return dst
}

// find returns the index of the first span in normalized s that ends after t.
func find(s []span, t int64) int {
	i, _ := slices.BinarySearchFunc(s, t, func(x span, t int64) int {
		if x.hi <= t {
			return -1
		}
		return 1
	})
	return i
}

// contains reports whether x lies inside one span of normalized s.
func contains(s []span, x span) bool {
	i := find(s, x.lo)
	return i < len(s) && s[i].lo <= x.lo && x.hi <= s[i].hi
}

// overlapping returns the first span of normalized s that overlaps x.
func overlapping(s []span, x span) (span, bool) {
	if i := find(s, x.lo); i < len(s) && s[i].lo < x.hi {
		return s[i], true
	}
	return span{}, false
}
