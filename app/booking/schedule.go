package booking

import (
	"errors"
	"fmt"
	"time"
)

// Schedule is everything the engine needs about one service at one location.
// The caller loads it from storage; the engine never mutates it.
type Schedule struct {
	Zone      *time.Location // the location's IANA zone; all wall times are read in it
	Hours     []WeeklyHours  // location opening hours; several ranges per weekday allowed
	Closures  []Date         // whole local dates the location is closed (holidays)
	Service   Service
	Providers []Provider
	Policy    Policy
	// Sessions are the class sessions of the service at the location (only for a class: see
	// Service.Capacity), scheduled or cancelled, in start order.
	Sessions []Session
	// Resources are the rooms and equipment the service requires at the location, with their
	// holds (resources.go): a start is offered only when every one has a unit free over its block.
	Resources []Resource
}

// WeeklyHours is an opening range [Open, Close) in minutes after local
// midnight on every Weekday. Close may be 1440 (midnight at the end of the day).
type WeeklyHours struct {
	Weekday     time.Weekday
	Open, Close int
}

// Service is what is being booked. Buffers are provider time before and after
// the appointment (set-up, cleaning) that the customer does not see.
type Service struct {
	ID           int64
	Duration     time.Duration
	BufferBefore time.Duration
	BufferAfter  time.Duration
	// Capacity above 1 makes the service a class: it is offered in its Sessions (sessions.go),
	// not on the slot grid.
	Capacity int
}

// IsClass reports whether the service is given in sessions rather than on the slot grid.
func (s Service) IsClass() bool { return s.Capacity > 1 }

// Policy holds the business rules. Step 0 means "one slot per Duration";
// MaxAdvance 0 means no limit.
type Policy struct {
	Step       time.Duration // distance between candidate starts on the wall-clock grid
	MinNotice  time.Duration // earliest start is now + MinNotice
	MaxAdvance time.Duration // latest start is now + MaxAdvance
}

// Provider is one member of staff as seen from this location and service.
type Provider struct {
	ID            int64
	Name          string
	OffersService bool       // false: never offered (ReasonServiceNotOffered)
	Shifts        []Shift    // working hours at this location
	TimeOff       []Interval // absences and date exceptions
	Busy          []Interval // non-cancelled bookings at any location, widened by their own buffers
	Teaching      []Interval // scheduled class sessions at any location, widened by their buffers
	// Calendar is busy time from the provider's own calendar (app/calendar): events outside
	// frontdesk, which the whole block, buffers included, must avoid.
	Calendar []Interval
	// CalendarSummaries names Calendar's events where the provider allows it ("" where not),
	// indexed like Calendar; nil when none is named.
	CalendarSummaries []string
}

// Session is one class session: the provider holds [Start, End) (plus the class's buffers) for
// it whatever the number of attendees, and Capacity clients may book a seat.
type Session struct {
	ID         int64
	ProviderID int64
	Start, End time.Time
	Capacity   int
	Booked     int // live bookings (not cancelled)
	Waiting    int // clients on the waitlist
	Room       string
	Cancelled  bool
}

// SeatsLeft is how many more clients may book; never negative (a capacity lowered below the
// attendees leaves them booked and the session full).
func (s Session) SeatsLeft() int { return max(s.Capacity-s.Booked, 0) }

// Shift is a weekly working range [Open, Close) in minutes after local
// midnight at this location, with breaks in the same units on the same date.
// Work across midnight is two shifts: 22:00–24:00 and 00:00–02:00 next day.
type Shift struct {
	Weekday     time.Weekday
	Open, Close int
	Breaks      []Break
}

// Break is a pause [Start, End) in minutes after local midnight.
type Break struct {
	Start, End int
}

// Interval is a half-open span of real time [Start, End).
type Interval struct {
	Start, End time.Time
}

// Slot is one bookable start for one provider. Start and End are in the
// schedule's zone, so formatting them gives the right local time and offset.
type Slot struct {
	ProviderID   int64
	ProviderName string
	Date         Date // local date of Start
	Start, End   time.Time
}

// Validate reports every problem that would make the rules ambiguous. Slots
// returns nothing and Explain returns ReasonInvalidSchedule for a schedule
// that fails it, so bad data shows up as an explanation, not a wrong slot.
func (s Schedule) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if s.Zone == nil {
		bad("zone is missing")
	}
	if s.Service.Duration <= 0 || s.Service.Duration%time.Minute != 0 {
		bad("service duration %v: want a positive whole number of minutes", s.Service.Duration)
	}
	for _, d := range []struct {
		name string
		d    time.Duration
	}{{"buffer before", s.Service.BufferBefore}, {"buffer after", s.Service.BufferAfter}, {"step", s.Policy.Step}} {
		if d.d < 0 || d.d%time.Minute != 0 {
			bad("%s %v: want zero or a positive whole number of minutes", d.name, d.d)
		}
	}
	if s.Policy.MinNotice < 0 || s.Policy.MaxAdvance < 0 {
		bad("notice %v and advance %v must not be negative", s.Policy.MinNotice, s.Policy.MaxAdvance)
	}
	for _, h := range s.Hours {
		if !validWallRange(h.Weekday, h.Open, h.Close) {
			bad("opening hours %v %d–%d: want 0 ≤ open < close ≤ 1440", h.Weekday, h.Open, h.Close)
		}
	}
	for _, d := range s.Closures {
		if !d.IsValid() {
			bad("closure %v is not a date", d)
		}
	}
	seen := make(map[int64]bool, len(s.Providers))
	for _, p := range s.Providers {
		if seen[p.ID] {
			bad("provider %d appears twice", p.ID)
		}
		seen[p.ID] = true
		for _, sh := range p.Shifts {
			if !validWallRange(sh.Weekday, sh.Open, sh.Close) {
				bad("provider %d shift %v %d–%d: want 0 ≤ open < close ≤ 1440", p.ID, sh.Weekday, sh.Open, sh.Close)
			}
			for _, b := range sh.Breaks {
				if !validWallRange(time.Sunday, b.Start, b.End) {
					bad("provider %d break %d–%d: want 0 ≤ start < end ≤ 1440", p.ID, b.Start, b.End)
				}
			}
		}
		for _, ivs := range [4][]Interval{p.TimeOff, p.Busy, p.Teaching, p.Calendar} {
			for _, iv := range ivs {
				if iv.End.Before(iv.Start) {
					bad("provider %d interval %v ends before it starts", p.ID, iv.Start)
				}
			}
		}
	}
	for _, x := range s.Sessions {
		if !x.End.After(x.Start) || x.Capacity < 1 {
			bad("session %d: want an end after the start and a capacity of at least 1", x.ID)
		}
	}
	return errors.Join(errs...)
}

func validWallRange(wd time.Weekday, open, close int) bool {
	return wd >= time.Sunday && wd <= time.Saturday && open >= 0 && open < close && close <= 24*60
}

// step is the grid spacing in seconds.
func (s *Schedule) step() int64 {
	if s.Policy.Step == 0 {
		return seconds(s.Service.Duration)
	}
	return seconds(s.Policy.Step)
}

func seconds(d time.Duration) int64 { return int64(d / time.Second) }
