package webhook

import (
	"time"

	"frontdesk/app/queue"
)

// Schedule lists, for each attempt of a delivery, how long to wait before making it: s[0] is
// counted from the moment the event is enqueued, every later s[i] from the end of attempt i
// (app/queue owns the type, shared with customer messages).
type Schedule = queue.Schedule

// DefaultSchedule is the default of docs/webhooks.md: immediately, 5 s, 5 min, 30 min, 2 h, 5 h,
// 10 h, 14 h, 20 h, 24 h — ten attempts over about three days, so an
// endpoint that is down over a weekend still gets its events.
func DefaultSchedule() Schedule {
	return Schedule{0, 5 * time.Second, 5 * time.Minute, 30 * time.Minute,
		2 * time.Hour, 5 * time.Hour, 10 * time.Hour, 14 * time.Hour, 20 * time.Hour, 24 * time.Hour}
}

// ErrInvalidSchedule is wrapped by every ParseSchedule error.
var ErrInvalidSchedule = queue.ErrInvalidSchedule

// ParseSchedule parses the --webhook-retry-schedule flag: Go durations
// separated by commas, e.g. "0s,1s,2s" for tests. Spaces around entries are
// ignored. Each entry must be between 0 and 7 days.
func ParseSchedule(v string) (Schedule, error) { return queue.ParseSchedule(v) }

func formatStep(d time.Duration) string { return queue.FormatStep(d) }
