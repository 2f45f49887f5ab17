package booking

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// A class (Service.IsClass) is not offered on the slot grid: clients book a seat in one of its
// sessions, which the owner schedules (timetable.go). The rules below decide which sessions the
// customer flow offers; SessionSlots lists them and Explain gives the first rule that removes a
// start, so the two never disagree.
//
// A session is offered when
//   - its provider works at the location, is active, bookable online and gives the class (the
//     loaded Providers), and the session is not cancelled;
//   - the location is not closed on the session's local date (a closure is a holiday for
//     classes too) and the provider has no time off during its block (an absent teacher);
//   - it starts no sooner than now + MinNotice and no later than now + MaxAdvance;
//   - a seat is left.
//
// Location opening hours and the provider's shifts do not apply: the timetable is the owner's
// own statement of when the class runs (docs/classes.md).

// SessionSlot is a session offered to clients, with its seats.
type SessionSlot struct {
	Slot
	SessionID int64
	Capacity  int
	SeatsLeft int
	Waiting   int
	Room      string
}

// SessionSlots returns the sessions of a class offered on local dates first through last, in
// start order (then provider id). With full set, sessions without a seat left are listed too
// (with SeatsLeft 0), so a client can join their waitlist; otherwise a full session is left out.
// A schedule that is not a class, an invalid one or an empty range yields nothing.
func SessionSlots(s Schedule, first, last Date, now time.Time, full bool) []SessionSlot {
	if !s.Service.IsClass() || !first.IsValid() || !last.IsValid() || last.Before(first) || s.Validate() != nil {
		return nil
	}
	var out []SessionSlot
	for i := range s.Sessions {
		x := &s.Sessions[i]
		p := sessionProvider(&s, x.ProviderID)
		if p == nil {
			continue
		}
		start := x.Start.In(s.Zone)
		date := DateOf(start)
		if date.Before(first) || date.After(last) {
			continue
		}
		if r := sessionRule(&s, p, x, now); r.Code != ReasonOK && (r.Code != ReasonClassFull || !full) {
			continue
		}
		out = append(out, SessionSlot{
			Slot: Slot{
				ProviderID: p.ID, ProviderName: p.Name, Date: date, Start: start, End: x.End.In(s.Zone),
			},
			SessionID: x.ID, Capacity: x.Capacity, SeatsLeft: x.SeatsLeft(), Waiting: x.Waiting, Room: x.Room,
		})
	}
	slices.SortStableFunc(out, func(a, b SessionSlot) int {
		if c := a.Start.Compare(b.Start); c != 0 {
			return c
		}
		return cmp.Compare(a.ProviderID, b.ProviderID)
	})
	return out
}

// Reasons that only classes give.
const (
	ReasonNotSessionTime   ReasonCode = "not_session_time"  // no session of the class starts then with that provider
	ReasonSessionCancelled ReasonCode = "session_cancelled" // the session was cancelled
	ReasonClassFull        ReasonCode = "class_full"        // every seat is taken
)

// explainSession is Explain for a class: the session that starts at start with provider p, and
// the first rule that keeps it from being offered.
func explainSession(s *Schedule, p *Provider, start, now time.Time) Reason {
	i := slices.IndexFunc(s.Sessions, func(x Session) bool { return x.ProviderID == p.ID && x.Start.Equal(start) })
	if i < 0 {
		return Reason{ReasonNotSessionTime, notSessionTimeText(s, p, start), notSessionTimeMsg(s, p, start)}
	}
	x := &s.Sessions[i]
	if x.Cancelled {
		return Reason{ReasonSessionCancelled, fmt.Sprintf("the session at %s was cancelled", stamp(floorSec(x.Start), s.Zone)),
			i18n.M("explain.msg.session_cancelled_at", "time", x.Start.In(s.Zone))}
	}
	return sessionRule(s, p, x, now)
}

// sessionRule checks a scheduled session of provider p against the offer rules above, in the
// order of the reason codes: calendar facts, then seats, then the policies that move with the
// clock.
func sessionRule(s *Schedule, p *Provider, x *Session, now time.Time) Reason {
	if x.Cancelled {
		return Reason{ReasonSessionCancelled, "the session was cancelled", i18n.M("explain.msg.session_cancelled")}
	}
	local := x.Start.In(s.Zone)
	date := DateOf(local)
	if slices.Contains(s.Closures, date) {
		return Reason{ReasonClosed, fmt.Sprintf("the location is closed on %s %s", date.Weekday(), date), i18n.M("explain.msg.closed", "date", i18n.Day(local))}
	}
	block := span{floorSec(x.Start.Add(-s.Service.BufferBefore)), ceilSec(x.End.Add(s.Service.BufferAfter))}
	if y, ok := overlapping(taken(block, p.TimeOff), block); ok {
		return Reason{ReasonTimeOff, fmt.Sprintf("%s is off from %s to %s", p.Name, stamp(y.lo, s.Zone), stamp(y.hi, s.Zone)),
			i18n.M("explain.msg.time_off", "provider", p.Name, "from", instant(y.lo, s.Zone), "to", instant(y.hi, s.Zone))}
	}
	if x.SeatsLeft() == 0 {
		msg := fmt.Sprintf("all %d seats of the session at %s are taken", x.Capacity, local.Format("2006-01-02 15:04 -07:00"))
		if x.Waiting > 0 {
			msg += fmt.Sprintf("; %d waiting", x.Waiting)
		}
		return Reason{ReasonClassFull, msg, i18n.M("explain.msg.class_full", "count", int64(x.Capacity), "time", local, "waiting", int64(x.Waiting))}
	}
	t := floorSec(x.Start)
	q := query{s: s}
	lo, hi := q.s.Policy.window(now)
	switch {
	case t < lo && s.Policy.MinNotice == 0:
		return Reason{ReasonNotice, fmt.Sprintf("%s has already passed", stamp(t, s.Zone)), i18n.M("explain.msg.passed", "time", instant(t, s.Zone))}
	case t < lo:
		return Reason{ReasonNotice, fmt.Sprintf("bookings need %s notice; the earliest start now is %s", human(s.Policy.MinNotice), stamp(lo, s.Zone)),
			i18n.M("explain.msg.notice", "notice", s.Policy.MinNotice, "earliest", instant(lo, s.Zone))}
	case t > hi:
		return Reason{ReasonBeyondAdvance, fmt.Sprintf("bookings open %s ahead; the latest start now is %s", human(s.Policy.MaxAdvance), stamp(hi, s.Zone)),
			i18n.M("explain.msg.beyond_advance", "advance", s.Policy.MaxAdvance, "latest", instant(hi, s.Zone))}
	}
	return Reason{ReasonOK, fmt.Sprintf("offered: %s at %s, %d of %d seats left", p.Name, local.Format("2006-01-02 15:04 -07:00"), x.SeatsLeft(), x.Capacity),
		i18n.M("explain.msg.ok_seats", "provider", p.Name, "time", local, "left", int64(x.SeatsLeft()), "count", int64(x.Capacity))}
}

// notSessionTimeText names the provider's sessions of the class on start's local date, so the
// owner sees which times would do.
func notSessionTimeText(s *Schedule, p *Provider, start time.Time) string {
	local := start.In(s.Zone)
	date := DateOf(local)
	var times []string
	for _, x := range s.Sessions {
		if l := x.Start.In(s.Zone); x.ProviderID == p.ID && !x.Cancelled && DateOf(l) == date {
			times = append(times, l.Format("15:04"))
		}
	}
	msg := fmt.Sprintf("%s is not a session time of this class with %s", local.Format("2006-01-02 15:04 -07:00"), p.Name)
	if len(times) == 0 {
		return msg + fmt.Sprintf("; %s has no session of it on %s", p.Name, date)
	}
	return msg + "; that day: " + strings.Join(times, ", ")
}

func sessionProvider(s *Schedule, id int64) *Provider {
	i := slices.IndexFunc(s.Providers, func(p Provider) bool { return p.ID == id })
	if i < 0 || !s.Providers[i].OffersService {
		return nil
	}
	return &s.Providers[i]
}

// Session statuses, mirrored by the CHECK on class_sessions.status.
const (
	SessionScheduled = "scheduled"
	SessionCancelled = "cancelled"
)

// SessionQuery asks for the sessions of a class at a location over local dates First…Last.
type SessionQuery struct {
	LocationID, ServiceID, ProviderID int64 // ProviderID 0: every provider
	First, Last                       Date
	// IncludeFull lists full sessions too (SeatsLeft 0), whose waitlist a client may join.
	IncludeFull bool
}

// SessionsWithSeats is what a customer-facing page shows for a class: the sessions a client can
// book over the dates, each with its seats left ("3 seats left"), under exactly the rules of
// GET /v3/available_slots (the customer flow: online booking, notice, advance window, …). With
// IncludeFull the full ones come too, for JoinWaitlist. The Loaded schedule names the location
// (and its zone), the class and its providers. A service that is not a class has no sessions.
func SessionsWithSeats(ctx context.Context, d *db.DB, now time.Time, sq SessionQuery) ([]SessionSlot, Loaded, error) {
	l, err := LoadScheduleCached(ctx, d, ScheduleQuery{
		LocationID: sq.LocationID, ServiceID: sq.ServiceID, ProviderID: sq.ProviderID,
		First: sq.First, Last: sq.Last, OnlineOnly: true,
	})
	if err != nil {
		return nil, l, err
	}
	return SessionSlots(l.Schedule, sq.First, sq.Last, now, sq.IncludeFull), l, nil
}

// notSessionTimeMsg is notSessionTimeText for the owner, with the day's session times on the
// reader's clock.
func notSessionTimeMsg(s *Schedule, p *Provider, start time.Time) i18n.Msg {
	local := start.In(s.Zone)
	date := DateOf(local)
	var times []any
	for _, x := range s.Sessions {
		if l := x.Start.In(s.Zone); x.ProviderID == p.ID && !x.Cancelled && DateOf(l) == date {
			times = append(times, i18n.Clock(l))
		}
	}
	if len(times) == 0 {
		return i18n.M("explain.msg.no_session_that_day", "time", local, "provider", p.Name, "date", i18n.Day(local))
	}
	return i18n.M("explain.msg.not_session_time", "time", local, "provider", p.Name, "times", i18n.List(times))
}
