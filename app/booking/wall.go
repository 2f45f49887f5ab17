package booking

import (
	"errors"
	"strings"
	"time"
)

// ErrSkippedWallTime says a wall-clock time does not exist in a zone: a spring-forward skips it.
var ErrSkippedWallTime = errors.New("the local time does not exist (the clocks skip it)")

// WallInstant reads t's date and time of day (t's own offset is ignored) as the wall clock of
// zone and returns that instant, in zone. A time that a daylight-saving jump skips is
// ErrSkippedWallTime; one that a fall-back repeats is its first occurrence, as everywhere a
// local time is turned into an instant without more to go on (import, the admin UI). This is
// how a time a client sent with "Z" but meant as the location's wall clock is read
// (docs/api.md, "Local times sent with Z").
func WallInstant(zone *time.Location, t time.Time) (time.Time, error) {
	minute := t.Hour()*60 + t.Minute()
	at := Instants(zone, DateOf(t), minute)
	if len(at) == 0 {
		return time.Time{}, ErrSkippedWallTime
	}
	sub := time.Duration(t.Second())*time.Second + time.Duration(t.Nanosecond())
	return at[0].Add(sub), nil
}

// resolveWall turns the wall-clock readings of a placement (StartWall, EndWall) into instants
// of zone, naming the field at fault when one does not exist.
func (p *placement) resolveWall(zone *time.Location) error {
	for _, f := range []struct {
		name string
		wall bool
		t    *time.Time
	}{{"start_time", p.StartWall, &p.Start}, {"end_time", p.EndWall, &p.End}} {
		if !f.wall || f.t.IsZero() {
			continue
		}
		at, err := WallInstant(zone, *f.t)
		if err != nil {
			return invalid(f.name, "%s in %s does not exist: the clocks skip it that day (a daylight-saving change)",
				f.t.Format("2006-01-02T15:04"), zone)
		}
		*f.t = at
	}
	p.StartWall, p.EndWall = false, false
	return nil
}

// ZeroOffset reports whether an RFC 3339 date-time writes its offset as zero: "Z", "+00:00" or
// "-00:00" (RFC 3339's "offset unknown"). These are the times a key with the z_means_local
// option sends as wall-clock readings.
func ZeroOffset(s string) bool {
	return strings.HasSuffix(s, "Z") || strings.HasSuffix(s, "z") ||
		strings.HasSuffix(s, "+00:00") || strings.HasSuffix(s, "-00:00")
}
