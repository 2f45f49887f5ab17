package booking

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"frontdesk/ui/i18n"
)

// ReasonCode says which rule removes a start. Explain checks the rules in the
// order of the constants below and reports the first that fails: facts about
// the calendar first (they hold whenever you ask), then conflicts, then the
// policies that move with the clock.
type ReasonCode string

const (
	ReasonInvalidSchedule   ReasonCode = "invalid_schedule"    // Schedule.Validate failed
	ReasonUnknownProvider   ReasonCode = "unknown_provider"    // no such provider in the schedule
	ReasonServiceNotOffered ReasonCode = "service_not_offered" // the provider does not do this service
	ReasonClosed            ReasonCode = "closed"              // the location is closed (holiday or no hours) on the start's local date
	ReasonOutsideHours      ReasonCode = "outside_hours"       // otherwise, the block leaves the location's opening hours
	ReasonNotWorking        ReasonCode = "not_working"         // the block leaves the provider's shifts
	ReasonBreak             ReasonCode = "break"               // the block touches a break
	ReasonOffGrid           ReasonCode = "off_grid"            // the start is not on the slot grid of a shift
	ReasonTimeOff           ReasonCode = "time_off"            // the block overlaps the provider's time off
	ReasonCalendar          ReasonCode = "calendar"            // the block overlaps an event in the provider's own calendar
	ReasonBooked            ReasonCode = "booked"              // the appointment itself overlaps a booking
	ReasonTeaching          ReasonCode = "class_session"       // the appointment itself overlaps a class session the provider gives
	ReasonBuffer            ReasonCode = "buffer"              // only this service's buffers overlap a booking or session
	ReasonResource          ReasonCode = "resource"            // a resource the service requires is held by as many bookings as it has over the block
	ReasonNotice            ReasonCode = "notice"              // the start is sooner than now + MinNotice
	ReasonBeyondAdvance     ReasonCode = "beyond_advance"      // the start is later than now + MaxAdvance
	ReasonOK                ReasonCode = "ok"                  // offered
)

// Reason is Explain's answer: a stable code for programs and a message for
// the owner, in the location's local time.
type Reason struct {
	Code    ReasonCode
	Message string
	// Msg is Message for the admin UI, translated there (docs/i18n.md); Message stays English
	// for the API.
	Msg i18n.Msg
}

// Explain tells why providerID is or is not offered a slot starting at start.
// It applies exactly the rules of Slots, so it returns ReasonOK if and only if
// Slots (over a range including start's local date) lists that start.
//
// For a class (Service.IsClass) it applies the rules of SessionSlots instead.
func Explain(s Schedule, providerID int64, start, now time.Time) Reason {
	return explainChecked(s, s.Validate(), providerID, start, now, nil, false)
}

// explainDay is what explaining starts on one local day over one schedule shares: the day's
// query, each provider's shift and working time (by position in the schedule) and where the
// resources are full. It depends on the schedule's zone, hours, closures, shifts, service
// length and buffers, step and resources, not on the start or the clock.
type explainDay struct {
	q         *query
	resources *resourceFull
	providers map[int]providerTime
}

// providerTime is a provider's shift time with and without its breaks.
type providerTime struct{ shifts, working []span }

func newExplainDay(s *Schedule, day int64) *explainDay {
	return &explainDay{q: newQuery(s, day, day), resources: newResourceFull(s), providers: map[int]providerTime{}}
}

// provider returns the times of s.Providers[i].
func (d *explainDay) provider(s *Schedule, i int) providerTime {
	t, ok := d.providers[i]
	if !ok {
		p := &s.Providers[i]
		t = providerTime{shifts: d.q.shiftTime(p, false), working: d.q.working(p)}
		d.providers[i] = t
	}
	return t
}

// explainDayOf is the local date explainChecked builds an explainDay for.
func explainDayOf(s *Schedule, start time.Time) int64 { return DateOf(start.In(s.Zone)).unixDay() }

// explainChecked is Explain for a schedule whose Validate gave invalid (nil: valid), for a
// caller that explains many starts over one schedule and validates it once (visits). days,
// when not nil, is that caller's explainDay for the schedule on explainDayOf(start), kept
// across its calls; nil builds one. With codeOnly the caller reads only the reason's code (a
// visit's slot search, which drops the starts refused): the most frequent reasons then come
// without their messages.
func explainChecked(s Schedule, invalid error, providerID int64, start, now time.Time, days *explainDay, codeOnly bool) Reason {
	if err := invalid; err != nil {
		return Reason{ReasonInvalidSchedule, err.Error(), i18n.M("explain.msg.invalid_schedule", "detail", err.Error())}
	}
	i := slices.IndexFunc(s.Providers, func(p Provider) bool { return p.ID == providerID })
	if i < 0 {
		return Reason{ReasonUnknownProvider, fmt.Sprintf("provider %d does not work at this location", providerID), i18n.M("explain.msg.unknown_provider")}
	}
	p := &s.Providers[i]
	if !p.OffersService {
		return Reason{ReasonServiceNotOffered, fmt.Sprintf("%s does not offer this service", p.Name), i18n.M("explain.msg.service_not_offered", "provider", p.Name)}
	}
	if s.Service.IsClass() {
		return explainSession(&s, p, start, now)
	}
	local := start.In(s.Zone)
	date := DateOf(local)
	day := date.unixDay()
	if days == nil {
		own := s // kept by the query; a copy, so s itself stays off the heap when days is given
		days = newExplainDay(&own, day)
	}
	q := days.q
	t := floorSec(start)
	block := q.block(t)
	// The block's wording, printed only for a refusal that names it.
	words := func() (blockRange, blockText string, from, to i18n.Clock, blockMsg i18n.Msg) {
		wall := func(t int64) string { return time.Unix(t, 0).In(s.Zone).Format("15:04") }
		blockRange = wall(block.lo) + "–" + wall(block.hi)
		blockText = blockRange
		from, to = i18n.Clock(time.Unix(block.lo, 0).In(s.Zone)), i18n.Clock(time.Unix(block.hi, 0).In(s.Zone))
		blockMsg = i18n.M("explain.block", "from", from, "to", to)
		if q.before+q.after > 0 {
			blockText += " (buffers included)"
			blockMsg = i18n.M("explain.block_buffers", "from", from, "to", to)
		}
		return
	}

	if !contains(q.open, block) {
		if q.closed[day] || !slices.ContainsFunc(s.Hours, func(h WeeklyHours) bool { return h.Weekday == date.Weekday() }) {
			return Reason{ReasonClosed, fmt.Sprintf("the location is closed on %s %s", date.Weekday(), date), i18n.M("explain.msg.closed", "date", i18n.Day(local))}
		}
		_, blockText, _, _, blockMsg := words()
		return Reason{ReasonOutsideHours, fmt.Sprintf("%s is outside the location's opening hours", blockText), i18n.M("explain.msg.outside_hours", "block", blockMsg)}
	}
	pt := days.provider(&s, i)
	if !contains(pt.shifts, block) {
		if codeOnly {
			return Reason{Code: ReasonNotWorking}
		}
		_, blockText, _, _, blockMsg := words()
		return Reason{ReasonNotWorking, fmt.Sprintf("%s is not working all of %s", p.Name, blockText), i18n.M("explain.msg.not_working", "provider", p.Name, "block", blockMsg)}
	}
	if !contains(pt.working, block) {
		if codeOnly {
			return Reason{Code: ReasonBreak}
		}
		_, blockText, _, _, blockMsg := words()
		return Reason{ReasonBreak, fmt.Sprintf("%s has a break during %s", p.Name, blockText), i18n.M("explain.msg.break", "provider", p.Name, "block", blockMsg)}
	}
	if !onGrid(p, local, q.step) {
		return Reason{ReasonOffGrid, fmt.Sprintf("%s is not on the %d-minute slot grid of %s's shifts", local.Format("15:04:05.999999999"), q.step/60, p.Name),
			i18n.M("explain.msg.off_grid", "time", i18n.Clock(local), "step", int(q.step/60), "provider", p.Name)}
	}
	if x, ok := overlapping(taken(block, p.TimeOff), block); ok {
		return Reason{ReasonTimeOff, fmt.Sprintf("%s is off from %s to %s", p.Name, stamp(x.lo, s.Zone), stamp(x.hi, s.Zone)),
			i18n.M("explain.msg.time_off", "provider", p.Name, "from", instant(x.lo, s.Zone), "to", instant(x.hi, s.Zone))}
	}
	if x, ok := overlapping(taken(block, p.Calendar), block); ok {
		return explainCalendar(p, x, block, s.Zone)
	}
	busy, teaching := taken(block, p.Busy), taken(block, p.Teaching)
	if x, ok := overlapping(busy, span{t, t + q.dur}); ok {
		if codeOnly {
			return Reason{Code: ReasonBooked}
		}
		return Reason{ReasonBooked, fmt.Sprintf("%s is booked from %s to %s", p.Name, stamp(x.lo, s.Zone), stamp(x.hi, s.Zone)),
			i18n.M("explain.msg.booked", "provider", p.Name, "from", instant(x.lo, s.Zone), "to", instant(x.hi, s.Zone))}
	}
	if x, ok := overlapping(teaching, span{t, t + q.dur}); ok {
		return Reason{ReasonTeaching, fmt.Sprintf("%s gives a class from %s to %s", p.Name, stamp(x.lo, s.Zone), stamp(x.hi, s.Zone)),
			i18n.M("explain.msg.teaching", "provider", p.Name, "from", instant(x.lo, s.Zone), "to", instant(x.hi, s.Zone))}
	}
	busy = normalize(append(busy, teaching...))
	if x, ok := overlapping(busy, block); ok {
		if codeOnly {
			return Reason{Code: ReasonBuffer}
		}
		blockRange, _, from, to, _ := words()
		return Reason{ReasonBuffer, fmt.Sprintf("with its buffers the appointment needs %s from %s, who is booked from %s to %s", blockRange, p.Name, stamp(x.lo, s.Zone), stamp(x.hi, s.Zone)),
			i18n.M("explain.msg.buffer", "provider", p.Name, "block", i18n.M("explain.block", "from", from, "to", to),
				"from", instant(x.lo, s.Zone), "to", instant(x.hi, s.Zone))}
	}
	if i, x, ok := days.resources.taken(block); ok {
		r := &s.Resources[i]
		return Reason{ReasonResource, fmt.Sprintf("%s (%d) is taken from %s to %s", r.Name, r.Quantity, stamp(x.lo, s.Zone), stamp(x.hi, s.Zone)),
			i18n.M("explain.msg.resource", "resource", r.Name, "quantity", r.Quantity, "from", instant(x.lo, s.Zone), "to", instant(x.hi, s.Zone))}
	}
	lo, hi := s.Policy.window(now)
	if t < lo && s.Policy.MinNotice == 0 {
		return Reason{ReasonNotice, fmt.Sprintf("%s has already passed", stamp(t, s.Zone)), i18n.M("explain.msg.passed", "time", instant(t, s.Zone))}
	}
	if t < lo {
		return Reason{ReasonNotice, fmt.Sprintf("bookings need %s notice; the earliest start now is %s", human(s.Policy.MinNotice), stamp(lo, s.Zone)),
			i18n.M("explain.msg.notice", "notice", s.Policy.MinNotice, "earliest", instant(lo, s.Zone))}
	}
	if t > hi {
		return Reason{ReasonBeyondAdvance, fmt.Sprintf("bookings open %s ahead; the latest start now is %s", human(s.Policy.MaxAdvance), stamp(hi, s.Zone)),
			i18n.M("explain.msg.beyond_advance", "advance", s.Policy.MaxAdvance, "latest", instant(hi, s.Zone))}
	}
	if codeOnly {
		return Reason{Code: ReasonOK}
	}
	return Reason{ReasonOK, fmt.Sprintf("offered: %s at %s", p.Name, local.Format("2006-01-02 15:04 -07:00")), i18n.M("explain.msg.ok", "provider", p.Name, "time", local)}
}

// explainCalendar names what in the provider's own calendar takes span x, which the block
// overlaps: for the team (Msg, the admin's explainer) the event's summary where the provider
// allows it to be shown, else "busy in their own calendar". Message, which API clients and
// booking refusals carry, never names the event.
func explainCalendar(p *Provider, x, block span, zone *time.Location) Reason {
	summary := ""
	for i, iv := range p.Calendar {
		if i < len(p.CalendarSummaries) && p.CalendarSummaries[i] != "" {
			if y := spanOf(iv); y.lo < block.hi && block.lo < y.hi {
				summary = p.CalendarSummaries[i]
				break
			}
		}
	}
	from, to := instant(x.lo, zone), instant(x.hi, zone)
	if summary == "" {
		return Reason{ReasonCalendar, fmt.Sprintf("%s is busy in their calendar from %s to %s", p.Name, stamp(x.lo, zone), stamp(x.hi, zone)),
			i18n.M("explain.msg.calendar", "provider", p.Name, "from", from, "to", to)}
	}
	return Reason{ReasonCalendar, fmt.Sprintf("%s is busy in their calendar from %s to %s", p.Name, stamp(x.lo, zone), stamp(x.hi, zone)),
		i18n.M("explain.msg.calendar_event", "provider", p.Name, "from", from, "to", to, "event", summary)}
}

// onGrid reports whether local's wall time is a grid point of one of the
// provider's shifts on that date, which is what makes it a candidate in Slots.
func onGrid(p *Provider, local time.Time, step int64) bool {
	if local.Nanosecond() != 0 {
		return false
	}
	sec := int64(local.Hour()*3600 + local.Minute()*60 + local.Second())
	return slices.ContainsFunc(p.Shifts, func(sh Shift) bool {
		open, close := int64(sh.Open)*60, int64(sh.Close)*60
		return sh.Weekday == local.Weekday() && open <= sec && sec < close && (sec-open)%step == 0
	})
}

// human prints 2h instead of 2h0m0s for the owner.
func human(d time.Duration) string {
	s := strings.TrimSuffix(d.String(), "0s")
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// instant is a message argument for an instant, printed as date and time in zone.
func instant(t int64, zone *time.Location) time.Time { return time.Unix(t, 0).In(zone) }

func stamp(t int64, zone *time.Location) string {
	return time.Unix(t, 0).In(zone).Format("2006-01-02 15:04 -07:00")
}
