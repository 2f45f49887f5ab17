package importer

import (
	"cmp"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/catalog"
	"frontdesk/db"
)

// Classes in an import file (docs/import.md): weekly timetable entries and one-off sessions of
// class services, and bookings that are seats in those sessions. Everything the database would
// refuse is checked here first, so the error names the records: a class booking must start
// when one of the file's sessions does, sessions hold at most their capacity and each client
// once, and a provider's sessions overlap neither each other nor the provider's other bookings.

// maxRoom bounds a room's name (as app/booking does).
const maxRoom = 100

// fileSession is one session the file schedules: a timetable entry's occurrence on a date, or a
// one-off.
type fileSession struct {
	id                          string // "timetable[2] 2026-12-07" or "sessions[1]": unique, and what messages name
	location, service, provider int
	start, end                  time.Time
	blockStart, blockEnd        time.Time
	capacity                    int64
}

func (v *validator) timetableEntry(i int) {
	e := v.f.Timetable[i]
	path := at("timetable", i)
	loc, svc, prov, ok := v.classRefs(path, e.Location, e.Service, e.Provider)
	day, err := parseDay(e.Day)
	if err != nil {
		v.ps.add(at(path, "day"), "%v", err)
	}
	start, err := parseClock(e.Start, false)
	if err != nil {
		v.ps.add(at(path, "start"), "%v", err)
	}
	capacity, room := v.classSeats(path, e.Capacity, e.Room)
	if !ok {
		return
	}
	zone := v.p.locations[loc].zone
	today := booking.DateOf(v.now.In(zone))
	from := today
	if e.ValidFrom != "" {
		if from, err = resolveDate(e.ValidFrom, today); err != nil {
			v.ps.add(at(path, "valid_from"), "%v", err)
			return
		}
	}
	plan := timetablePlan{index: i, key: e.Key, location: loc, service: svc, provider: prov, day: day, start: start,
		capacity: capacity, room: room, validFrom: from}
	if e.ValidTo != nil {
		to, err := resolveDate(*e.ValidTo, today)
		switch {
		case err != nil:
			v.ps.add(at(path, "valid_to"), "%v", err)
			return
		case to.Before(from):
			v.ps.add(at(path, "valid_to"), "%s is before valid_from %s", to, from)
			return
		}
		plan.validTo = &to
	}
	for j, c := range e.Cancelled {
		p := at(at(path, "cancelled"), j)
		d, err := resolveDate(c, today)
		switch {
		case err != nil:
			v.ps.add(p, "%v", err)
			continue
		case int64(d.Weekday()) != day:
			v.ps.add(p, "%s is a %s; the entry is on %ss", d, d.Weekday(), e.Day)
			continue
		case d.Before(from) || plan.validTo != nil && d.After(*plan.validTo):
			v.ps.add(p, "%s is outside the entry's dates", d)
			continue
		}
		if _, ok := booking.WeeklyStart(zone, d, int(start)); !ok {
			v.ps.add(p, "there is no session on %s: %s does not exist that day (the clocks go forward)", d, e.Start)
			continue
		}
		plan.cancelled = append(plan.cancelled, d)
	}
	v.p.timetable = append(v.p.timetable, plan)
}

func (v *validator) classSession(i int) {
	s := v.f.Sessions[i]
	path := at("sessions", i)
	loc, svc, prov, ok := v.classRefs(path, s.Location, s.Service, s.Provider)
	capacity, room := v.classSeats(path, s.Capacity, s.Room)
	if !ok {
		return
	}
	start, ok := v.bookingTime(at(path, "start"), s.Start, v.p.locations[loc].zone)
	if !ok {
		return
	}
	v.p.sessions = append(v.p.sessions, sessionPlan{index: i, key: s.Key, location: loc, service: svc, provider: prov,
		start: start, capacity: capacity, room: room})
}

// classRefs resolves a class's location, service and provider: the service is a class, and the
// provider works at the location and gives it.
func (v *validator) classRefs(path, location, service, provider string) (loc, svc, prov int, ok bool) {
	loc, okLoc := v.ref(at(path, "location"), location, v.locations, "locations")
	svc, okSvc := v.ref(at(path, "service"), service, v.services, "services")
	prov, okProv := v.ref(at(path, "provider"), provider, v.providers, "providers")
	if !okLoc || !okSvc || !okProv {
		return 0, 0, 0, false
	}
	p := v.p.providers[prov]
	switch {
	case v.p.services[svc].row.Capacity < 2:
		v.ps.add(at(path, "service"), "service %q is not a class (give it a capacity above 1)", service)
	case !slices.Contains(p.locations, loc):
		v.ps.add(at(path, "provider"), "provider %q does not work at location %q", provider, location)
	case !slices.Contains(p.services, svc):
		v.ps.add(at(path, "provider"), "provider %q does not give service %q", provider, service)
	default:
		return loc, svc, prov, true
	}
	return 0, 0, 0, false
}

func (v *validator) classSeats(path string, capacity *int64, room *string) (sql.NullInt64, sql.NullString) {
	if capacity != nil {
		v.between(at(path, "capacity"), *capacity, 1, catalog.MaxCapacity)
	}
	return nullInt(capacity), v.optText(at(path, "room"), room, maxRoom)
}

// sessionAt is the file's session of the class at location loc with provider prov that
// starts at start, if any; cancelled reports a timetable date the file cancels.
func (v *validator) sessionAt(loc, svc, prov int, start time.Time) (s fileSession, found, cancelled bool) {
	zone := v.p.locations[loc].zone
	date := booking.DateOf(start.In(zone))
	for i, e := range v.p.timetable {
		if e.location != loc || e.service != svc || e.provider != prov {
			continue
		}
		if x, ok := v.occurrence(i, date); ok && x.start.Equal(start) {
			return x, true, slices.Contains(e.cancelled, date)
		}
	}
	for i, o := range v.p.sessions {
		if o.location == loc && o.service == svc && o.provider == prov && o.start.Equal(start) {
			return v.oneOff(i), true, false
		}
	}
	return fileSession{}, false, false
}

// occurrence is timetable entry i's session on local date d, if it has one (cancelled or not).
func (v *validator) occurrence(i int, d booking.Date) (fileSession, bool) {
	e := v.p.timetable[i]
	if int64(d.Weekday()) != e.day || d.Before(e.validFrom) || e.validTo != nil && d.After(*e.validTo) {
		return fileSession{}, false
	}
	start, ok := booking.WeeklyStart(v.p.locations[e.location].zone, d, int(e.start))
	if !ok {
		return fileSession{}, false
	}
	return v.sessionBlock(fmt.Sprintf("%s %s", at("timetable", e.index), d), e.location, e.service, e.provider, start, e.capacity), true
}

func (v *validator) oneOff(i int) fileSession {
	o := v.p.sessions[i]
	return v.sessionBlock(at("sessions", o.index), o.location, o.service, o.provider, o.start, o.capacity)
}

func (v *validator) sessionBlock(id string, loc, svc, prov int, start time.Time, capacity sql.NullInt64) fileSession {
	row := v.p.services[svc].row
	end := start.Add(time.Duration(row.DurationMin) * time.Minute)
	c := row.Capacity
	if capacity.Valid {
		c = capacity.Int64
	}
	return fileSession{id: id, location: loc, service: svc, provider: prov, start: start, end: end,
		blockStart: start.Add(-time.Duration(row.BufferBeforeMin) * time.Minute),
		blockEnd:   end.Add(time.Duration(row.BufferAfterMin) * time.Minute), capacity: c}
}

// classBooking checks a booking of a class (called from booking): it must start when one of the
// file's sessions does, last as long, and fit in its seats.
func (v *validator) classBooking(i int, bp *bookingPlan, explicitEnd bool) {
	b := v.f.Bookings[i]
	path := at("bookings", i)
	start := db.Time(bp.row.StartAt)
	s, found, cancelled := v.sessionAt(bp.location, bp.service, bp.provider, start)
	zone := v.p.locations[bp.location].zone
	switch {
	case !found:
		v.ps.add(at(path, "start"), "%s is not a session of class %q with provider %q (see timetable and sessions)", stamp(start, zone), b.Service, b.Provider)
		return
	case cancelled && bp.row.StatusID != statusCancelled:
		v.ps.add(at(path, "start"), "the session at %s is cancelled (%s)", stamp(start, zone), s.id)
		return
	case explicitEnd && db.Millis(s.end) != bp.row.EndAt:
		v.ps.add(at(path, "end"), "a seat lasts as long as its session, until %s; leave end out", stamp(s.end, zone))
		return
	}
	bp.class = true
	bp.row.BlockStartAt, bp.row.BlockEndAt = db.Millis(s.blockStart), db.Millis(s.blockEnd)
	if bp.row.StatusID == statusCancelled {
		return
	}
	if v.seats == nil {
		v.seats, v.seated = map[string]int64{}, map[string]int{}
	}
	if prev, ok := v.seated[s.id+" "+b.Client]; ok {
		v.ps.add(at(path, "client"), "client %q already has a seat in this session (%s)", b.Client, at("bookings", prev))
		return
	}
	v.seated[s.id+" "+b.Client] = i
	if v.seats[s.id]++; v.seats[s.id] > s.capacity {
		v.ps.add(path, "the session at %s (%s) has %d seats, and this is booking %d in it", stamp(start, zone), s.id, s.capacity, v.seats[s.id])
	}
}

// sessionOverlaps applies the rule that a session holds its provider: a provider's sessions
// overlap neither each other nor the provider's other live bookings (overlaps checks bookings
// against bookings). Sessions are looked at on the days around the provider's bookings and
// one-offs, and over each entry's first two weeks, where two weekly entries meet if they ever
// do.
func (v *validator) sessionOverlaps() {
	type block struct {
		lo, hi  time.Time
		what    string // what a message names: "bookings[3]", "timetable[0] 2026-12-07", "sessions[1]"
		path    string // where a problem with it is reported
		booking bool
	}
	byProvider := map[int][]block{}
	days := map[int]map[booking.Date]bool{}
	addDays := func(prov int, d booking.Date, n int) {
		if days[prov] == nil {
			days[prov] = map[booking.Date]bool{}
		}
		for k := -1; k < n; k++ {
			days[prov][d.AddDays(k)] = true
		}
	}
	for _, b := range v.p.bookings {
		if b.class || b.row.StatusID == statusCancelled {
			continue
		}
		p := at("bookings", b.index)
		byProvider[b.provider] = append(byProvider[b.provider], block{db.Time(b.row.BlockStartAt), db.Time(b.row.BlockEndAt), p, p, true})
		addDays(b.provider, booking.DateOf(db.Time(b.row.StartAt).In(v.p.locations[b.location].zone)), 2)
	}
	for i, o := range v.p.sessions {
		s := v.oneOff(i)
		byProvider[o.provider] = append(byProvider[o.provider], block{s.blockStart, s.blockEnd, s.id, s.id, false})
		addDays(o.provider, booking.DateOf(o.start.In(v.p.locations[o.location].zone)), 2)
	}
	for _, e := range v.p.timetable {
		addDays(e.provider, e.validFrom, 15)
	}
	for i, e := range v.p.timetable {
		for d := range days[e.provider] {
			if s, ok := v.occurrence(i, d); ok && !slices.Contains(e.cancelled, d) {
				byProvider[e.provider] = append(byProvider[e.provider], block{s.blockStart, s.blockEnd, s.id, at("timetable", e.index), false})
			}
		}
	}
	provs := make([]int, 0, len(byProvider))
	for prov := range byProvider {
		provs = append(provs, prov)
	}
	slices.Sort(provs)
	for _, prov := range provs {
		list := byProvider[prov]
		slices.SortFunc(list, func(a, b block) int { return cmp.Or(a.lo.Compare(b.lo), cmp.Compare(a.what, b.what)) })
		for k := range list {
			for j := range k {
				a, b := list[j], list[k]
				if !a.hi.After(b.lo) || a.booking && b.booking {
					continue
				}
				if a.booking { // report at the booking
					a, b = b, a
				}
				v.ps.add(b.path, "provider %q is taken then: %s overlaps %s", v.p.providers[prov].key, b.what, a.what)
			}
		}
	}
}
