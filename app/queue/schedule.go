package queue

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Schedule lists, for each attempt, how long to wait before making it: s[0] is counted from
// the moment the row is enqueued, every later s[i] from the end of attempt i. len(s) is the
// number of attempts.
type Schedule []time.Duration

// maxStep bounds one step of a configured schedule. A longer wait is almost certainly a typo
// ("240h" for "24h") and would outlive the logs' default 30-day retention before anyone
// noticed.
const maxStep = 7 * 24 * time.Hour

// ErrInvalidSchedule is wrapped by every ParseSchedule error.
var ErrInvalidSchedule = errors.New("invalid retry schedule")

// ParseSchedule parses a schedule flag: Go durations separated by commas, e.g. "0s,1s,2s" for
// tests. Spaces around entries are ignored. Each entry must be between 0 and 7 days.
func ParseSchedule(v string) (Schedule, error) {
	if strings.TrimSpace(v) == "" {
		return nil, fmt.Errorf("%w: empty; want comma-separated durations such as \"0s,5s,5m\"", ErrInvalidSchedule)
	}
	parts := strings.Split(v, ",")
	s := make(Schedule, len(parts))
	for i, p := range parts {
		p = strings.TrimSpace(p)
		d, err := time.ParseDuration(p)
		switch {
		case p == "":
			return nil, fmt.Errorf("%w: entry %d is empty", ErrInvalidSchedule, i+1)
		case err != nil:
			return nil, fmt.Errorf("%w: entry %d %q is not a duration such as 5s, 30m or 2h", ErrInvalidSchedule, i+1, p)
		case d < 0:
			return nil, fmt.Errorf("%w: entry %d %q is negative", ErrInvalidSchedule, i+1, p)
		case d > maxStep:
			return nil, fmt.Errorf("%w: entry %d %q is longer than %s", ErrInvalidSchedule, i+1, p, FormatStep(maxStep))
		}
		s[i] = d
	}
	return s, nil
}

// String formats s the way ParseSchedule reads it, so a flag's default reads
// "0s,5s,5m,30m,2h,…" in --help.
func (s Schedule) String() string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = FormatStep(d)
	}
	return strings.Join(parts, ",")
}

// Set makes *Schedule a flag.Value.
func (s *Schedule) Set(v string) error {
	parsed, err := ParseSchedule(v)
	if err != nil {
		return err
	}
	*s = parsed
	return nil
}

// Remaining is how long, at the schedule's nominal delays, a row whose attempt number attempt
// just failed would keep retrying before exhausting its schedule (a failing endpoint's
// countdown in the admin UI).
func (s Schedule) Remaining(attempt int) time.Duration {
	var total time.Duration
	for i := max(attempt, 1); i < len(s); i++ {
		total += s[i]
	}
	return total
}

// FormatStep writes a duration the way schedules are written: "0s", "5s", "30m", "2h".
func FormatStep(d time.Duration) string {
	switch {
	case d == 0:
		return "0s"
	case d%time.Hour == 0:
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	case d%time.Minute == 0:
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	case d%time.Second == 0:
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return d.String()
}

// Jitter spreads retries by ±20 % so that targets that failed together (one outage, thousands
// of rows) are not retried in one burst.
const Jitter = 0.2

// Exhausted reports whether attempt (1-based within its series) was the schedule's last.
func (s Schedule) Exhausted(attempt int) bool { return max(attempt, 1) >= len(s) }

// Delay is the jittered wait after attempt (1-based within its series) failed: s[attempt],
// between 0.8× (rnd=0) and 1.2× (rnd=1) of it. rnd supplies a value in [0, 1); nil means no
// jitter. It is pure. The caller checks Exhausted first.
func (s Schedule) Delay(attempt int, rnd func() float64) time.Duration {
	attempt = max(attempt, 1)
	if attempt >= len(s) {
		return 0
	}
	r := 0.5
	if rnd != nil {
		r = min(max(rnd(), 0), 1)
	}
	return time.Duration(math.Round(float64(s[attempt]) * (1 + Jitter*(2*r-1))))
}
