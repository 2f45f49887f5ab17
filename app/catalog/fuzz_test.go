package catalog

import (
	"strings"
	"testing"
)

// FuzzParseDay: weekly hours as typed ("09:00-18:00 (13:00-14:00), 19:00-22:00") never panic;
// accepted hours are ordered, non-overlapping ranges within the day, each break inside its
// shift, and they print back to text that parses to the same hours.
func FuzzParseDay(f *testing.F) {
	for _, s := range []string{"09:00-18:00 (13:00-14:00)", "09:00-13:00, 14:00-19:00", "10:00-24:00", "24:00-24:00 ((", "9:30 to 12:00", "19:00-09:00", "", "09:00–18:00 (12:00-12:30, 15:00-15:15)"} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, breaks bool) {
		shifts, msg := parseDay(s, breaks, false)
		if msg != "" {
			return
		}
		var text []string
		last := int64(-1)
		for _, sh := range shifts {
			if sh.Open < 0 || sh.Close > 1440 || sh.Open >= sh.Close || sh.Open < last {
				t.Fatalf("parseDay(%q): bad shift %+v", s, sh)
			}
			last = sh.Close
			part := clock(sh.Open) + "-" + clock(sh.Close)
			var bs []string
			for _, b := range sh.Breaks {
				if !breaks || b.Open < sh.Open || b.Close > sh.Close || b.Open >= b.Close {
					t.Fatalf("parseDay(%q): bad break %+v in %+v", s, b, sh)
				}
				bs = append(bs, clock(b.Open)+"-"+clock(b.Close))
			}
			if len(bs) > 0 {
				part += " (" + strings.Join(bs, ", ") + ")"
			}
			text = append(text, part)
		}
		again, msg := parseDay(strings.Join(text, ", "), breaks, false)
		if msg != "" || len(again) != len(shifts) {
			t.Fatalf("parseDay(%q) = %+v, printed %q, which parses to %+v (%s)", s, shifts, strings.Join(text, ", "), again, msg)
		}
	})
}

// FuzzParseKeywords: keywords never panic, come back trimmed, distinct ignoring case, without
// commas or control characters.
func FuzzParseKeywords(f *testing.F) {
	for _, s := range []string{"hair, cut", "Cut,cut, CUT", " , ,", "a\x00b", strings.Repeat("k,", 30)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, msg := ParseKeywords(s)
		seen := map[string]bool{}
		for _, w := range words {
			if w == "" || w != strings.TrimSpace(w) || strings.Contains(w, ",") || seen[strings.ToLower(w)] {
				t.Fatalf("ParseKeywords(%q) = %q", s, words)
			}
			if msg == "" && strings.ContainsFunc(w, isControl) {
				t.Fatalf("ParseKeywords(%q) accepted control characters in %q", s, w)
			}
			seen[strings.ToLower(w)] = true
		}
	})
}
