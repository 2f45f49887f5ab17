package catalog

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Weekly hours are typed one weekday per field, as text: a location's opening hours as
// "09:00-13:00, 14:00-19:00", a provider's shifts with their breaks in parentheses as
// "09:00-18:00 (13:00-14:00), 19:00-21:00". One line per day holds any number of ranges and
// breaks, fits a phone and needs no JavaScript to add a row; an empty field is a day off.

// Weekdays are the day names by the schema's day_id (0 = Sunday).
var Weekdays = [7]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}

// WeekOrder lists day_ids Monday first, the order the forms show them in.
var WeekOrder = [7]int{1, 2, 3, 4, 5, 6, 0}

// Span is a wall-clock range [Open, Close) in minutes since local midnight; Close may be 1440
// (24:00).
type Span struct{ Open, Close int64 }

func (s Span) String() string { return clock(s.Open) + "-" + clock(s.Close) }

// Shift is an opening range, or a provider's working range with its breaks.
type Shift struct {
	Span
	Breaks []Span
}

func clock(min int64) string { return fmt.Sprintf("%02d:%02d", min/60, min%60) }

// parseDay reads one weekday's ranges; breaks in parentheses only when allowBreaks. Ranges come
// back in order; it returns a message when the text is not valid hours.
func parseDay(s string, allowBreaks bool) ([]Shift, string) {
	var out []Shift
	for _, part := range splitTop(s) {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		rng, breaks, hasBreaks := strings.Cut(part, "(")
		if hasBreaks && !allowBreaks {
			return nil, "Write the opening ranges only, like 09:00-13:00, 14:00-19:00."
		}
		span, msg := parseSpan(rng)
		if msg != "" {
			return nil, msg
		}
		sh := Shift{Span: span}
		if hasBreaks {
			inner, ok := strings.CutSuffix(strings.TrimSpace(breaks), ")")
			if !ok || strings.ContainsAny(inner, "()") {
				return nil, "Put the breaks of a shift in one pair of parentheses, like 09:00-18:00 (13:00-14:00)."
			}
			for b := range strings.SplitSeq(inner, ",") {
				br, msg := parseSpan(b)
				if msg != "" {
					return nil, msg
				}
				if br.Open < span.Open || br.Close > span.Close {
					return nil, fmt.Sprintf("The break %s is not inside its shift %s.", br, span)
				}
				sh.Breaks = append(sh.Breaks, br)
			}
			if msg := overlapping(sh.Breaks, "break"); msg != "" {
				return nil, msg
			}
		}
		out = append(out, sh)
	}
	spans := make([]Span, len(out))
	for i, sh := range out {
		spans[i] = sh.Span
	}
	if msg := overlapping(spans, "range"); msg != "" {
		return nil, msg
	}
	slices.SortFunc(out, func(a, b Shift) int { return cmp.Compare(a.Open, b.Open) })
	return out, ""
}

// splitTop splits at the commas outside parentheses.
func splitTop(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

// parseSpan reads "09:00-13:00" (an en dash or "to" also separate; 24:00 only ends a range).
func parseSpan(s string) (Span, string) {
	s = strings.NewReplacer("–", "-", "—", "-", " to ", "-").Replace(strings.TrimSpace(s))
	from, to, ok := strings.Cut(s, "-")
	bad := fmt.Sprintf("“%s” is not a time range; write it like 09:00-13:00.", clip(strings.TrimSpace(s)))
	if !ok {
		return Span{}, bad
	}
	open, okOpen := parseClock(strings.TrimSpace(from))
	close, okClose := parseClock(strings.TrimSpace(to))
	switch {
	case !okOpen || !okClose:
		return Span{}, bad
	case open == 1440:
		return Span{}, "24:00 can only end a range."
	case open >= close:
		return Span{}, fmt.Sprintf("The range %s ends before it starts.", Span{open, close})
	}
	return Span{open, close}, ""
}

// parseClock reads "9:30", "09:30" or "24:00" into minutes since midnight.
func parseClock(s string) (int64, bool) {
	h, m, ok := strings.Cut(s, ":")
	if !ok || len(h) < 1 || len(h) > 2 || len(m) != 2 || !digits(h) || !digits(m) {
		return 0, false
	}
	hh, _ := strconv.ParseInt(h, 10, 64)
	mm, _ := strconv.ParseInt(m, 10, 64)
	if mm > 59 || hh > 24 || (hh == 24 && mm != 0) {
		return 0, false
	}
	return hh*60 + mm, true
}

func digits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// overlapping returns a message when two spans overlap (touching is fine).
func overlapping(spans []Span, what string) string {
	sorted := slices.Clone(spans)
	slices.SortFunc(sorted, func(a, b Span) int { return cmp.Compare(a.Open, b.Open) })
	for i := 1; i < len(sorted); i++ {
		if sorted[i].Open < sorted[i-1].Close {
			return fmt.Sprintf("The %ss %s and %s overlap.", what, sorted[i-1], sorted[i])
		}
	}
	return ""
}

// formatDay writes one weekday's shifts in the syntax parseDay reads.
func formatDay(shifts []Shift) string {
	parts := make([]string, 0, len(shifts))
	for _, sh := range shifts {
		s := sh.Span.String()
		if len(sh.Breaks) > 0 {
			bs := make([]string, len(sh.Breaks))
			for i, b := range sh.Breaks {
				bs[i] = b.String()
			}
			s += " (" + strings.Join(bs, ", ") + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}
