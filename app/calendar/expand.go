package calendar

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	ical "github.com/emersion/go-ical"
	"github.com/teambition/rrule-go"
)

// Limits that keep a hostile or broken calendar from stalling the worker. Each is far above
// what a person's calendar holds.
const (
	// MaxBlocks is the most busy blocks one connection stores; past it the earliest are kept
	// and the sync says the calendar was cut short.
	MaxBlocks = 20000
	// maxDepth is the deepest nesting of components read (VCALENDAR > VEVENT > VALARM is 3).
	maxDepth = 8
	// maxIterations is the most recurrence instances generated for one event, inside or outside
	// the horizon: a daily event that began a century ago is 37,000.
	maxIterations = 100000
	// maxSpan is the longest a stored block may be (calendar_busy's CHECK): longer events are cut
	// into pieces of that length, so a slot search reads blocks through one bounded index range.
	maxSpan = 48 * time.Hour
)

// ErrMalformed is wrapped by every error about the calendar's text itself.
var ErrMalformed = errors.New("malformed calendar")

// Options say what counts as busy when a calendar is read.
type Options struct {
	// From and Until bound the instances kept: only blocks overlapping [From, Until) are.
	From, Until time.Time
	// Zone is the zone of floating times and all-day dates (the provider's location's).
	Zone *time.Location
	// AllDay: all-day events are busy for their whole local days.
	AllDay bool
	// Summaries: keep each event's summary (the provider allows it to be shown).
	Summaries bool
	// Deadline, if not zero, stops the expansion with ErrTooComplex when passed.
	Deadline time.Time
	// Ours, if not empty, is the UID suffix of the events this installation writes
	// (ical.UID): the bookings pushed into the calendar are not busy time of their own.
	Ours string
}

// ErrTooComplex says the calendar's recurrences could not be expanded within the time allowed.
var ErrTooComplex = errors.New("calendar too complex to expand")

// Block is one busy span of a provider's calendar.
type Block struct {
	Start, End time.Time
	Summary    string
}

// Result is what one calendar (or several, merged) holds as busy time.
type Result struct {
	Blocks []Block
	// Truncated says more than MaxBlocks blocks were found; the earliest were kept.
	Truncated bool
}

// Parse reads iCalendar text (one VCALENDAR, or several one after another, as a CalDAV
// server's calendar objects are) and expands it into busy blocks under o.
func Parse(data []byte, o Options) (Result, error) {
	var x expander
	x.o = o
	if err := x.add(data); err != nil {
		return Result{}, err
	}
	return x.result()
}

// expander gathers events from one or more calendar objects, then expands them together, so an
// overridden instance (RECURRENCE-ID) may come in another object than its series.
type expander struct {
	o       Options
	masters []*ical.Component
	// overrides by UID, then by the overridden instant (Unix seconds)
	overrides map[string]map[int64]*ical.Component
}

func (x *expander) add(data []byte) error {
	if err := checkNesting(data); err != nil {
		return err
	}
	dec := ical.NewDecoder(bytes.NewReader(bytes.TrimSpace(data)))
	for {
		cal, err := decode(dec)
		if err != nil {
			if errors.Is(err, errEOF) {
				return nil
			}
			return fmt.Errorf("%w: %v", ErrMalformed, err)
		}
		for _, ev := range cal.Children {
			if ev.Name != ical.CompEvent {
				continue
			}
			if x.o.Ours != "" && strings.HasSuffix(propText(ev, ical.PropUID), x.o.Ours) {
				continue
			}
			if ev.Props.Get(ical.PropRecurrenceID) == nil {
				x.masters = append(x.masters, ev)
				continue
			}
			uid := propText(ev, ical.PropUID)
			at, err := x.recurrenceID(ev)
			if err != nil {
				return fmt.Errorf("%w: RECURRENCE-ID of %q: %v", ErrMalformed, uid, err)
			}
			if x.overrides == nil {
				x.overrides = map[string]map[int64]*ical.Component{}
			}
			if x.overrides[uid] == nil {
				x.overrides[uid] = map[int64]*ical.Component{}
			}
			x.overrides[uid][at] = ev
		}
	}
}

var errEOF = errors.New("end of calendar")

// decode reads one calendar, turning the decoder's panic on a broken file into an error.
func decode(dec *ical.Decoder) (cal *ical.Calendar, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("unreadable calendar: %v", r)
		}
	}()
	cal, err = dec.Decode()
	if errors.Is(err, io.EOF) {
		return nil, errEOF
	}
	return cal, err
}

// checkNesting refuses components nested deeper than maxDepth before the decoder, which
// descends recursively, reads them, and a text that is not one or more whole calendars (a
// response cut short must not pass for a calendar with fewer events).
func checkNesting(data []byte) error {
	depth, calendars := 0, 0
	for line := range bytes.Lines(data) {
		switch {
		case hasPrefixFold(line, "BEGIN:"):
			depth++
			if depth == 1 {
				calendars++
			}
			if depth > maxDepth {
				return fmt.Errorf("%w: components nested more than %d deep", ErrMalformed, maxDepth)
			}
		case hasPrefixFold(line, "END:"):
			depth--
			if depth < 0 {
				return fmt.Errorf("%w: END without BEGIN", ErrMalformed)
			}
		}
	}
	if depth != 0 || calendars == 0 {
		return fmt.Errorf("%w: not a whole calendar", ErrMalformed)
	}
	return nil
}

func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && strings.EqualFold(string(b[:len(prefix)]), prefix)
}

func (x *expander) result() (Result, error) {
	var out []Block
	for _, ev := range x.masters {
		if err := x.deadline(); err != nil {
			return Result{}, err
		}
		bs, err := x.series(ev)
		if err != nil {
			return Result{}, err
		}
		out = append(out, bs...)
	}
	// Overridden instances whose series is not in the calendar stand on their own.
	for _, byAt := range x.overrides {
		for _, ev := range byAt {
			bs, err := x.single(ev)
			if err != nil {
				return Result{}, err
			}
			out = append(out, bs...)
		}
	}
	slices.SortFunc(out, func(a, b Block) int {
		if c := a.Start.Compare(b.Start); c != 0 {
			return c
		}
		return a.End.Compare(b.End)
	})
	out = slices.CompactFunc(out, func(a, b Block) bool { return a == b })
	r := Result{Blocks: out}
	if len(out) > MaxBlocks {
		r.Blocks, r.Truncated = out[:MaxBlocks:MaxBlocks], true
	}
	return r, nil
}

func (x *expander) deadline() error {
	if !x.o.Deadline.IsZero() && time.Now().After(x.o.Deadline) {
		return ErrTooComplex
	}
	return nil
}

// free reports whether an event takes no time: transparent or cancelled.
func free(ev *ical.Component) bool {
	if p := ev.Props.Get(ical.PropTransparency); p != nil && strings.EqualFold(p.Value, "TRANSPARENT") {
		return true
	}
	if p := ev.Props.Get(ical.PropStatus); p != nil && strings.EqualFold(p.Value, "CANCELLED") {
		return true
	}
	return false
}

func propText(ev *ical.Component, name string) string {
	p := ev.Props.Get(name)
	if p == nil {
		return ""
	}
	s, err := p.Text()
	if err != nil {
		return p.Value
	}
	return s
}

// start is an event's DTSTART, its zone, and whether it is a date (an all-day event).
type start struct {
	t      time.Time
	allDay bool
}

// zoneOf is the zone a property's TZID names, through the zone data the binary embeds; a TZID
// no zone has that name (some programs write their own) and a floating time use the default.
// A TZID with a path before the zone name ("/mozilla.org/…/America/New_York") is read by its
// last two parts.
func (x *expander) zoneOf(p *ical.Prop) *time.Location {
	tzid := p.Params.Get(ical.PropTimezoneID)
	if tzid == "" {
		return x.o.Zone
	}
	if loc, err := time.LoadLocation(tzid); err == nil {
		return loc
	}
	if parts := strings.Split(strings.Trim(tzid, "/"), "/"); len(parts) >= 2 {
		if loc, err := time.LoadLocation(strings.Join(parts[len(parts)-2:], "/")); err == nil {
			return loc
		}
	}
	if loc, ok := windowsZones[tzid]; ok {
		if l, err := time.LoadLocation(loc); err == nil {
			return l
		}
	}
	return x.o.Zone
}

// windowsZones maps the zone names Microsoft's calendars write to IANA zones, for the zones
// most businesses are in.
var windowsZones = map[string]string{
	"Pacific Standard Time": "America/Los_Angeles", "Mountain Standard Time": "America/Denver",
	"Central Standard Time": "America/Chicago", "Eastern Standard Time": "America/New_York",
	"Pacific SA Standard Time": "America/Santiago", "SA Pacific Standard Time": "America/Bogota",
	"Argentina Standard Time": "America/Argentina/Buenos_Aires", "E. South America Standard Time": "America/Sao_Paulo",
	"Central Standard Time (Mexico)": "America/Mexico_City", "GMT Standard Time": "Europe/London",
	"W. Europe Standard Time": "Europe/Berlin", "Romance Standard Time": "Europe/Paris",
	"Central European Standard Time": "Europe/Warsaw", "UTC": "UTC", "AUS Eastern Standard Time": "Australia/Sydney",
}

// parseTime reads one date or date-time value of property p (which may hold several, comma
// separated: EXDATE, RDATE).
func (x *expander) parseTime(p *ical.Prop, value string, zone *time.Location) (start, error) {
	q := *p
	q.Value = value
	if i := strings.IndexByte(value, '/'); i > 0 { // an RDATE period: its start
		q.Value = value[:i]
	}
	allDay := len(q.Value) == len("20060102")
	if allDay {
		t, err := time.ParseInLocation("20060102", q.Value, x.o.Zone)
		return start{t, true}, err
	}
	if strings.HasSuffix(q.Value, "Z") {
		t, err := time.ParseInLocation("20060102T150405Z", q.Value, time.UTC)
		return start{t, false}, err
	}
	t, err := time.ParseInLocation("20060102T150405", q.Value, zone)
	return start{t, false}, err
}

func (x *expander) dtstart(ev *ical.Component) (start, *time.Location, error) {
	p := ev.Props.Get(ical.PropDateTimeStart)
	if p == nil {
		return start{}, nil, errors.New("no DTSTART")
	}
	zone := x.zoneOf(p)
	s, err := x.parseTime(p, p.Value, zone)
	return s, zone, err
}

func (x *expander) recurrenceID(ev *ical.Component) (int64, error) {
	p := ev.Props.Get(ical.PropRecurrenceID)
	s, err := x.parseTime(p, p.Value, x.zoneOf(p))
	return s.t.Unix(), err
}

// length is how long each instance of ev lasts: DTEND − DTSTART, or DURATION (whole days of
// it in wall days), or a day for a date and nothing for a date-time without either.
type length struct {
	d    time.Duration
	days int // wall days added before d
}

func (l length) end(t time.Time) time.Time { return t.AddDate(0, 0, l.days).Add(l.d) }

func (x *expander) length(ev *ical.Component, s start) (length, error) {
	if p := ev.Props.Get(ical.PropDateTimeEnd); p != nil {
		e, err := x.parseTime(p, p.Value, x.zoneOf(p))
		if err != nil {
			return length{}, fmt.Errorf("DTEND: %v", err)
		}
		if s.allDay && e.allDay {
			days := int(e.t.Sub(s.t).Round(24*time.Hour) / (24 * time.Hour))
			return length{days: max(days, 0)}, nil
		}
		return length{d: max(e.t.Sub(s.t), 0)}, nil
	}
	if p := ev.Props.Get(ical.PropDuration); p != nil {
		d, err := p.Duration()
		if err != nil {
			return length{}, fmt.Errorf("DURATION: %v", err)
		}
		if d < 0 {
			return length{}, nil
		}
		days := int(d / (24 * time.Hour))
		return length{d: d - time.Duration(days)*24*time.Hour, days: days}, nil
	}
	if s.allDay {
		return length{days: 1}, nil
	}
	return length{}, nil
}

// single is the busy block of an event that does not repeat (or one overridden instance).
func (x *expander) single(ev *ical.Component) ([]Block, error) {
	if free(ev) {
		return nil, nil
	}
	s, _, err := x.dtstart(ev)
	if err != nil {
		return nil, fmt.Errorf("%w: event %q: %v", ErrMalformed, propText(ev, ical.PropUID), err)
	}
	if s.allDay && !x.o.AllDay {
		return nil, nil
	}
	l, err := x.length(ev, s)
	if err != nil {
		return nil, fmt.Errorf("%w: event %q: %v", ErrMalformed, propText(ev, ical.PropUID), err)
	}
	return x.block(nil, s.t, l.end(s.t), x.summary(ev)), nil
}

func (x *expander) summary(ev *ical.Component) string {
	if !x.o.Summaries {
		return ""
	}
	s := strings.TrimSpace(propText(ev, ical.PropSummary))
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200])
	}
	return s
}

// block appends [from, to) to out when it overlaps the horizon, cut into pieces of at most
// maxSpan.
func (x *expander) block(out []Block, from, to time.Time, summary string) []Block {
	if !to.After(from) || !from.Before(x.o.Until) || !to.After(x.o.From) {
		return out
	}
	for from.Before(to) {
		end := to
		if end.Sub(from) > maxSpan {
			end = from.Add(maxSpan)
		}
		out = append(out, Block{Start: from.UTC(), End: end.UTC(), Summary: summary})
		from = end
	}
	return out
}

// series expands a master event: DTSTART, its RRULE and RDATEs, less its EXDATEs and the
// instances overridden by events with its UID and a RECURRENCE-ID (which are expanded as
// themselves). Wall times repeat in the event's own zone, so a 10:00 weekly event stays at
// 10:00 across that zone's DST changes.
func (x *expander) series(ev *ical.Component) ([]Block, error) {
	uid := propText(ev, ical.PropUID)
	overrides := x.overrides[uid]
	delete(x.overrides, uid)
	var out []Block
	for _, o := range overrides {
		bs, err := x.single(o)
		if err != nil {
			return nil, err
		}
		out = append(out, bs...)
	}
	bad := func(err error) error { return fmt.Errorf("%w: event %q: %v", ErrMalformed, uid, err) }
	if free(ev) {
		return out, nil
	}
	s, zone, err := x.dtstart(ev)
	if err != nil {
		return nil, bad(err)
	}
	if s.allDay && !x.o.AllDay {
		return out, nil
	}
	l, err := x.length(ev, s)
	if err != nil {
		return nil, bad(err)
	}
	if s.allDay {
		zone = x.o.Zone
	}
	summary := x.summary(ev)
	excluded := map[int64]bool{}
	for _, p := range ev.Props.Values(ical.PropExceptionDates) {
		for v := range strings.SplitSeq(p.Value, ",") {
			e, err := x.parseTime(&p, v, x.zoneOf(&p))
			if err != nil {
				return nil, bad(fmt.Errorf("EXDATE: %v", err))
			}
			excluded[e.t.Unix()] = true
		}
	}
	for at := range overrides {
		excluded[at] = true
	}
	seen := map[int64]bool{}
	emit := func(t time.Time) {
		u := t.Unix()
		if excluded[u] || seen[u] {
			return
		}
		seen[u] = true
		out = x.block(out, t, l.end(t), summary)
	}
	emit(s.t) // DTSTART is always the first instance
	for _, p := range ev.Props.Values(ical.PropRecurrenceDates) {
		for v := range strings.SplitSeq(p.Value, ",") {
			r, err := x.parseTime(&p, v, x.zoneOf(&p))
			if err != nil {
				return nil, bad(fmt.Errorf("RDATE: %v", err))
			}
			emit(r.t.In(zone))
		}
	}
	rules := ev.Props.Values(ical.PropRecurrenceRule)
	if len(rules) == 0 {
		return out, nil
	}
	if len(rules) > 4 {
		return nil, bad(errors.New("more than four RRULEs"))
	}
	// The horizon's end, plus the longest an instance lasts, bounds every rule: instances
	// after it are never generated.
	limit := x.o.Until.Add(24 * time.Hour)
	for _, p := range rules {
		opt, err := rrule.StrToROptionInLocation(p.Value, zone)
		if err != nil {
			return nil, bad(fmt.Errorf("RRULE: %v", err))
		}
		if err := bounded(opt); err != nil {
			return nil, bad(err)
		}
		opt.Dtstart = s.t.In(zone)
		if !opt.Until.IsZero() && s.allDay {
			// UNTIL of an all-day series is a date: its whole day counts.
			u := opt.Until.In(zone)
			opt.Until = time.Date(u.Year(), u.Month(), u.Day(), 23, 59, 59, 0, zone)
		}
		if opt.Until.IsZero() || opt.Until.After(limit) {
			opt.Until = limit
		}
		skipAhead(opt, x.o.From.Add(-l.end(time.Time{}).Sub(time.Time{})-24*time.Hour))
		r, err := rrule.NewRRule(*opt)
		if err != nil {
			return nil, bad(fmt.Errorf("RRULE: %v", err))
		}
		next := r.Iterator()
		for i := 0; i < maxIterations; i++ {
			t, ok := next()
			if !ok {
				break
			}
			emit(t)
			if i%4096 == 4095 {
				if err := x.deadline(); err != nil {
					return nil, err
				}
			}
		}
	}
	return out, nil
}

// bounded refuses recurrence rules whose expansion could run for long without giving an
// instance: every second, or more often than daily with a filter on dates that may never
// match (BYMONTH=2;BYMONTHDAY=30 is checked day by day until the year 9999).
func bounded(opt *rrule.ROption) error {
	switch opt.Freq {
	case rrule.SECONDLY:
		return errors.New("RRULE: FREQ=SECONDLY is not read")
	case rrule.MINUTELY, rrule.HOURLY:
		if len(opt.Bymonth)+len(opt.Bymonthday)+len(opt.Byyearday)+len(opt.Byweekno)+len(opt.Bysetpos)+len(opt.Byeaster) > 0 {
			return errors.New("RRULE: a rule more often than daily may only filter by day of the week, hour, minute and second")
		}
	}
	return nil
}

// skipAhead moves the start of a daily or weekly rule without a COUNT forward by whole
// periods to just before from: the instances skipped all end before the horizon, and a series
// that began decades ago is not walked from its first day. Wall time and weekday are kept.
func skipAhead(opt *rrule.ROption, from time.Time) {
	if opt.Count != 0 || len(opt.Bysetpos) > 0 {
		return
	}
	var days int
	switch opt.Freq {
	case rrule.DAILY:
		days = max(opt.Interval, 1)
	case rrule.WEEKLY:
		days = 7 * max(opt.Interval, 1)
	default:
		return
	}
	if !opt.Dtstart.Before(from) {
		return
	}
	periods := int(from.Sub(opt.Dtstart)/(24*time.Hour)) / days
	if periods > 1 {
		// Whole periods in wall days: the new start is the instance the rule would reach.
		opt.Dtstart = opt.Dtstart.AddDate(0, 0, (periods-1)*days)
	}
}

// ParseObjects reads the calendar objects of one or more CalDAV calendars together (an
// overridden instance may be its own object) and expands them under o.
func ParseObjects(objects [][]byte, o Options) (Result, error) {
	var x expander
	x.o = o
	for _, data := range objects {
		if err := x.add(data); err != nil {
			return Result{}, err
		}
	}
	return x.result()
}
