package catalog

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"frontdesk/ui/i18n"
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

// Clock writes a time of day (minutes after midnight, 1440 ending a day) as a form shows it:
// the admin passes one on the business's clock ("9:00 AM"); nil writes "09:00".
type Clock func(minute int64) string

// format writes minute by c, or as 24-hour "HH:MM" when c is nil.
func (c Clock) format(minute int64) string {
	if c == nil {
		return clock(minute)
	}
	return c(minute)
}

func (c Clock) span(s Span) string {
	if c == nil {
		return s.String()
	}
	return c(s.Open) + "-" + c(s.Close)
}

// parseDay reads one weekday's ranges; breaks in parentheses only when allowBreaks. Times are
// read as i18n.ParseClock reads them on the business's clock (clock12: a 12-hour one, where
// 1:00 to 12:59 need am or pm). Ranges come back in order; it returns a message when the text is
// not valid hours.
func parseDay(s string, allowBreaks, clock12 bool) ([]Shift, string) {
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
		span, msg := parseSpan(rng, clock12)
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
				br, msg := parseSpan(b, clock12)
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
func parseSpan(s string, clock12 bool) (Span, string) {
	s = strings.NewReplacer("–", "-", "—", "-", " to ", "-").Replace(strings.TrimSpace(s))
	from, to, ok := strings.Cut(s, "-")
	bad := fmt.Sprintf("“%s” is not a time range; write it like 09:00-13:00.", clip(strings.TrimSpace(s)))
	if !ok {
		return Span{}, bad
	}
	open, errOpen := parseClock(strings.TrimSpace(from), clock12)
	close, errClose := parseClock(strings.TrimSpace(to), clock12)
	switch {
	case errors.Is(errOpen, i18n.ErrClockAmPm) || errors.Is(errClose, i18n.ErrClockAmPm):
		return Span{}, fmt.Sprintf("“%s” could be morning or evening: add am or pm, like 9:00 am-1:00 pm.", clip(strings.TrimSpace(s)))
	case errOpen != nil || errClose != nil:
		return Span{}, bad
	case open == 1440:
		return Span{}, "24:00 can only end a range."
	case open >= close:
		return Span{}, fmt.Sprintf("The range %s ends before it starts.", Span{open, close})
	}
	return Span{open, close}, ""
}

// parseClock reads "9:30", "09:30", "9:30 pm" or "24:00" into minutes since midnight.
func parseClock(s string, clock12 bool) (int64, error) {
	if s == "24:00" {
		return 24 * 60, nil
	}
	h, m, err := i18n.ParseClock(s, !clock12)
	return int64(h*60 + m), err
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

// formatDay writes one weekday's shifts in the syntax parseDay reads, its times by clock.
func formatDay(shifts []Shift, clock Clock) string {
	parts := make([]string, 0, len(shifts))
	for _, sh := range shifts {
		s := clock.span(sh.Span)
		if len(sh.Breaks) > 0 {
			bs := make([]string, len(sh.Breaks))
			for i, b := range sh.Breaks {
				bs[i] = clock.span(b)
			}
			s += " (" + strings.Join(bs, ", ") + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}
