package booking

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"frontdesk/app/fail"
	"frontdesk/db"
)

// ScheduleQuery says which schedule LoadSchedule reads.
type ScheduleQuery struct {
	LocationID int64
	ServiceID  int64 // 0: no particular service; a slot is then one slot step long
	ProviderID int64 // 0: every active provider who works at the location
	First      Date  // the local dates the caller will ask about; bookings and time off
	Last       Date  // are loaded with enough margin for blocks reaching past them
	// OnlineOnly is the customer flow (/v3): a service or provider whose online_booking is off
	// offers nothing. The owner (admin UI) sees everything.
	OnlineOnly bool
	// IgnoreBookingID leaves one booking out of Busy, so a booking being rescheduled does not
	// stand in its own way.
	IgnoreBookingID int64
}

// Loaded is a schedule together with the records it was built from, which callers need to
// describe the result (names, zone, prices, policies).
type Loaded struct {
	Schedule Schedule
	Location Location
	Service  *ServiceInfo           // nil when the query named no service
	Provider *db.BookingProviderRow // nil when the query named no provider
	Policy   db.SchedulePolicyRow

	cached  bool  // loaded through the catalog cache (LoadScheduleCached) …
	version int64 // … at this catalog version
	// staleBookings: the providers' bookings are from an earlier reading of their counter, or
	// left out (ScheduleVersion.load), so a start they show taken may be free by now, and
	// one they show free may not be.
	staleBookings bool
}

// Location is what the booking rules need to know about a location.
type Location struct {
	ID     int64
	Name   string
	Active bool
	Zone   *time.Location
}

// ServiceInfo is the stored service a schedule was loaded for.
type ServiceInfo = db.ScheduleServiceRow

// NotFoundError says a referenced record does not exist. Resource is the reference's name for
// it: "location", "service", "provider", "client" or "booking".
type NotFoundError struct{ Resource string }

func (e *NotFoundError) Error() string { return e.Resource + " not found" }

// Fail is the error as the shared vocabulary says it: not found, the resource as its reason.
func (e *NotFoundError) Fail() *fail.Error { return fail.NotFound(e.Resource) }

// blockLimit is the longest block the schema allows (a CHECK on bookings): it bounds every
// overlap search from below.
const blockLimit = 48 * time.Hour

// LoadSchedule reads everything the engine needs for one location, one service and the
// location's providers over sq.First…sq.Last, in a fixed handful of queries however many
// providers work there. Inactive providers are left out; an inactive location or service (or,
// with OnlineOnly, one not bookable online) yields a schedule without providers, so it offers
// nothing. Busy holds every non-cancelled booking of those providers at any location.
//
// q may be a transaction's; on the read pool LoadScheduleCached gives the same answer faster.
func LoadSchedule(ctx context.Context, q *db.Queries, sq ScheduleQuery) (Loaded, error) {
	countLoad(q)
	b, err := loadBase(ctx, q, sq)
	if err != nil {
		return Loaded{}, err
	}
	return b.schedule(ctx, q, nil, busyVersion{}, sq, false)
}

// LoadScheduleCached is LoadSchedule on d's read pool with the catalog part of the schedule
// (location, hours, closures, policy, service, providers and their shifts) kept in d's catalog
// cache, which the database invalidates itself on any write to those tables (db.CatalogCache),
// and the providers' time off and bookings kept until their counters move (busy.go). One
// statement instead of ten — the busy-time counters' read — and the catalog version unless ctx
// carries it (db.WithCatalogVersion).
//
// With a context joined to a write transaction (db.WithTx) it is LoadSchedule on that
// transaction: what the transaction wrote counts, and nothing read there is kept.
func LoadScheduleCached(ctx context.Context, d *db.DB, sq ScheduleQuery) (Loaded, error) {
	return loadScheduleCached(ctx, d, sq, false)
}

// loadScheduleCached is LoadScheduleCached, with the providers' bookings as last kept when
// recent (ScheduleVersion.load), for placement's first look (place.go).
func loadScheduleCached(ctx context.Context, d *db.DB, sq ScheduleQuery, recent bool) (Loaded, error) {
	if d.Joined(ctx) {
		return LoadSchedule(ctx, d.Reader(ctx), sq)
	}
	loads.all.Add(1)
	v, err := CurrentSchedule(ctx, d, sq)
	if err != nil {
		return Loaded{}, err
	}
	return v.load(ctx, d, recent)
}

// loads counts schedule loads: all of them, and those inside a write transaction.
var loads struct{ all, inWriter atomic.Int64 }

func countLoad(q *db.Queries) {
	loads.all.Add(1)
	if q.Writer() != nil {
		loads.inWriter.Add(1)
	}
}

// ScheduleLoads counts the schedules loaded so far in this process (LoadSchedule and
// LoadScheduleCached): all of them, and those loaded inside a write transaction, where the slot
// engine that follows would hold the single writer while it runs. Tests hold a use case to a
// number of each (app/reserve: a customer booking loads none inside the writer).
func ScheduleLoads() (all, inWriter int64) { return loads.all.Load(), loads.inWriter.Load() }

// ScheduleVersion names the state of everything a schedule is built from: the catalog part
// at one catalog version and the providers' busy time at one reading of its counters, for one
// ScheduleQuery. Two equal versions load equal schedules, so a caller may keep what it derives
// from a schedule (the slots of a day, their JSON) under the version and use it for as long as
// CurrentSchedule returns an equal one: any write that changes the schedule changes the
// version, whatever process or connection made it. Versions are comparable (map keys); one
// from an earlier catalog version keeps that version's catalog part alive while it is kept.
type ScheduleVersion struct {
	base    *scheduleBase
	catalog int64
	busy    busyVersion
	holds   int64 // the counter of the required resources' holds
	sq      ScheduleQuery
}

// CurrentSchedule reads the version of the schedule sq asks about (on d's read pool, through
// the caches of LoadScheduleCached): the catalog version (unless ctx carries it) and one
// indexed read of the busy-time counters. Errors are LoadSchedule's (a missing location,
// service or provider is a *NotFoundError).
func CurrentSchedule(ctx context.Context, d *db.DB, sq ScheduleQuery) (ScheduleVersion, error) {
	v, err := d.CatalogVersion(ctx)
	if err != nil {
		return ScheduleVersion{}, fmt.Errorf("catalog version: %w", err)
	}
	key := baseKey{sq.LocationID, sq.ServiceID, sq.ProviderID, sq.OnlineOnly}
	b, err := cached(d.Catalog(), v, key, func() (*scheduleBase, error) { return loadBase(ctx, d.R, sq) })
	if err != nil {
		return ScheduleVersion{}, err
	}
	// Read after the catalog version and before the busy time it versions (busy.go).
	busy, err := db.Unchanged(d, busyVersionOf{b}, func() (busyVersion, error) { return b.busyVersion(ctx, d.R) })
	if err != nil {
		return ScheduleVersion{}, fmt.Errorf("busy version: %w", err)
	}
	// The resources' holds are versioned by their own counter (resources.go).
	holds, err := holdsVersion(ctx, d.R, b.loaded.Schedule.Resources)
	if err != nil {
		return ScheduleVersion{}, fmt.Errorf("resource holds version: %w", err)
	}
	return ScheduleVersion{base: b, catalog: v, busy: busy, holds: holds, sq: sq}, nil
}

// busyVersionOf names the busy-time counters of one schedule base's providers, for db.Unchanged.
type busyVersionOf struct{ base *scheduleBase }

// Class reports whether the schedule is of a class (its slots are sessions, with seats that
// the version does not cover: SessionSlots' answers are not to be kept under it).
func (v ScheduleVersion) Class() bool { return v.base.loaded.Schedule.Service.IsClass() }

// Load returns the schedule at version v: what LoadScheduleCached(ctx, d, sq) returned when it
// read v, with the busy time kept under v's counter reading (or read now, when no longer kept,
// which only happens once the counters have moved past v).
func (v ScheduleVersion) Load(ctx context.Context, d *db.DB) (Loaded, error) {
	return v.load(ctx, d, false)
}

// load is Load; with recent, the providers' bookings are the ones kept under any earlier
// reading of their counter, or none when none are kept (Loaded.staleBookings says so): under a
// stream of new bookings the counter moves with each, and reading a provider's bookings again
// for each placement would cost more than the placement. Only for a use whose outcome the
// write transaction checks against the bookings again (place.go).
func (v ScheduleVersion) load(ctx context.Context, d *db.DB, recent bool) (Loaded, error) {
	l, err := v.base.schedule(ctx, d.R, d.Counted(), v.busy, v.sq, recent)
	l.cached, l.version = true, v.catalog
	return l, err
}

// baseKey names the catalog part of a schedule: everything in ScheduleQuery but the dates and
// the booking to ignore.
type baseKey struct {
	location, service, provider int64
	onlineOnly                  bool
}

// scheduleBase is the catalog part of a schedule, the same for every date range: Loaded
// without closures, time off and bookings, which schedule adds for the dates asked about. It
// may be shared through the catalog cache, so it is never modified once built.
type scheduleBase struct {
	loaded   Loaded
	closures []string      // every closure date of the location, in order
	ids      []int64       // the ids of loaded.Schedule.Providers, in order
	pos      map[int64]int // each id's position in ids
}

func loadBase(ctx context.Context, q *db.Queries, sq ScheduleQuery) (*scheduleBase, error) {
	b := &scheduleBase{}
	out := &b.loaded
	loc, err := q.ScheduleLocation(ctx, sq.LocationID)
	if err != nil {
		return nil, notFoundAs(err, "location")
	}
	zone, err := LoadZone(loc.Timezone)
	if err != nil {
		return nil, fmt.Errorf("location %d: %w", loc.ID, err)
	}
	out.Location = Location{ID: loc.ID, Name: loc.Name, Active: loc.Active, Zone: zone}
	if out.Policy, err = q.SchedulePolicy(ctx); err != nil {
		return nil, fmt.Errorf("company policy: %w", err)
	}
	if sq.ServiceID != 0 {
		svc, err := q.ScheduleService(ctx, sq.ServiceID)
		if err != nil {
			return nil, notFoundAs(err, "service")
		}
		out.Service = &svc
	}
	if sq.ProviderID != 0 {
		prov, err := q.BookingProvider(ctx, sq.ProviderID)
		if err != nil {
			return nil, notFoundAs(err, "provider")
		}
		out.Provider = &prov
	}

	s := &out.Schedule
	s.Zone = zone
	p := out.Policy
	s.Policy = Policy{
		Step:       time.Duration(p.SlotStepMin) * time.Minute,
		MinNotice:  time.Duration(p.MinNoticeMin) * time.Minute,
		MaxAdvance: time.Duration(p.MaxAdvanceDays) * 24 * time.Hour,
	}
	s.Service = Service{Duration: s.Policy.Step}
	if svc := out.Service; svc != nil {
		s.Service = Service{
			ID:           svc.ID,
			Duration:     time.Duration(svc.DurationMin) * time.Minute,
			BufferBefore: time.Duration(svc.BufferBeforeMin) * time.Minute,
			BufferAfter:  time.Duration(svc.BufferAfterMin) * time.Minute,
			Capacity:     int(svc.Capacity),
		}
	}
	if err := b.loadHours(ctx, q, sq.LocationID); err != nil {
		return nil, err
	}
	if out.Service != nil && !s.Service.IsClass() {
		if s.Resources, err = loadResources(ctx, q, sq.LocationID, sq.ServiceID); err != nil {
			return nil, err
		}
	}
	bookable := loc.Active && (out.Service == nil || out.Service.Active && (out.Service.OnlineBooking || !sq.OnlineOnly))
	if !bookable {
		return b, nil
	}
	return b, b.loadProviders(ctx, q, sq)
}

func (b *scheduleBase) loadHours(ctx context.Context, q *db.Queries, locationID int64) error {
	hours, err := q.ScheduleLocationHours(ctx, locationID)
	if err != nil {
		return fmt.Errorf("location hours: %w", err)
	}
	s := &b.loaded.Schedule
	for _, h := range hours {
		s.Hours = append(s.Hours, WeeklyHours{Weekday: time.Weekday(h.DayID), Open: int(h.OpenMin), Close: int(h.CloseMin)})
	}
	s.Hours = slices.Clip(s.Hours)
	if b.closures, err = q.ScheduleAllClosures(ctx, locationID); err != nil {
		return fmt.Errorf("location closures: %w", err)
	}
	return nil
}

func (b *scheduleBase) loadProviders(ctx context.Context, q *db.Queries, sq ScheduleQuery) error {
	s := &b.loaded.Schedule
	rows, err := q.ScheduleProviders(ctx, db.ScheduleProvidersParams{
		ServiceID: sq.ServiceID, LocationID: sq.LocationID, ProviderID: sq.ProviderID,
	})
	if err != nil {
		return fmt.Errorf("providers: %w", err)
	}
	index := make(map[int64]int, len(rows))
	b.pos = index
	for _, r := range rows {
		if sq.OnlineOnly && !r.OnlineBooking {
			continue
		}
		index[r.ID] = len(s.Providers)
		b.ids = append(b.ids, r.ID)
		s.Providers = append(s.Providers, Provider{ID: r.ID, Name: r.PublicName, OffersService: r.OffersService || sq.ServiceID == 0})
	}
	if len(b.ids) == 0 {
		return nil
	}

	shifts, err := q.ScheduleShifts(ctx, db.ScheduleShiftsParams{LocationID: sq.LocationID, ProviderIds: b.ids})
	if err != nil {
		return fmt.Errorf("shifts: %w", err)
	}
	setShifts(s.Providers, index, shifts)
	// Shared slices get no spare capacity, so an append by a user of the schedule copies.
	for i := range s.Providers {
		p := &s.Providers[i]
		for j := range p.Shifts {
			p.Shifts[j].Breaks = slices.Clip(p.Shifts[j].Breaks)
		}
		p.Shifts = slices.Clip(p.Shifts)
	}
	return nil
}

// setShifts gives providers (index: provider id → position) their shifts and breaks from
// ScheduleShifts rows, one row per break.
func setShifts(providers []Provider, index map[int64]int, rows []db.ScheduleShiftsRow) {
	shiftAt := make(map[int64]int, len(rows)) // provider_hours.id → index in its provider's Shifts
	for _, r := range rows {
		p := &providers[index[r.ProviderID]]
		i, ok := shiftAt[r.ID]
		if !ok {
			i = len(p.Shifts)
			shiftAt[r.ID] = i
			p.Shifts = append(p.Shifts, Shift{Weekday: time.Weekday(r.DayID), Open: int(r.OpenMin), Close: int(r.CloseMin)})
		}
		if r.BreakStart.Valid && r.BreakEnd.Valid {
			sh := &p.Shifts[i]
			sh.Breaks = append(sh.Breaks, Break{Start: int(r.BreakStart.Int64), End: int(r.BreakEnd.Int64)})
		}
	}
}

// schedule completes the base for sq's dates: its own copy of the records, the closures in
// range, and the providers' time off and bookings (through kept under counter reading v, if
// kept is not nil, or under an earlier reading with recent: busy.go).
func (b *scheduleBase) schedule(ctx context.Context, q *db.Queries, kept *db.CountedCache, v busyVersion, sq ScheduleQuery, recent bool) (Loaded, error) {
	out := b.loaded
	if out.Service != nil {
		svc := *out.Service
		out.Service = &svc
	}
	if out.Provider != nil {
		prov := *out.Provider
		out.Provider = &prov
	}
	s := &out.Schedule
	first, last := sq.First.AddDays(-2).String(), sq.Last.AddDays(2).String()
	for _, c := range b.closures {
		if c < first || c > last {
			continue
		}
		d, err := ParseDate(c)
		if err != nil {
			return Loaded{}, fmt.Errorf("location %d closure: %w", sq.LocationID, err)
		}
		s.Closures = append(s.Closures, d)
	}
	if len(b.ids) == 0 {
		return out, nil
	}
	s.Providers = slices.Clone(s.Providers)

	// Every candidate block lies in [start of First − buffer before, end of Last + duration +
	// buffer after); that is all the time off and bookings the engine can ever look at.
	since := db.Millis(DayStart(s.Zone, sq.First).Add(-s.Service.BufferBefore))
	until := db.Millis(DayStart(s.Zone, sq.Last.AddDays(1)).Add(s.Service.Duration + s.Service.BufferAfter))
	busy, t, stale, err := b.busyTimes(ctx, q, kept, v, since, until, sq.IgnoreBookingID, recent)
	if err != nil {
		return Loaded{}, err
	}
	out.staleBookings = stale
	for i := range s.Providers {
		p := &s.Providers[i]
		p.Busy, p.TimeOff, p.Teaching = busy[i], t.timeOff[i], t.teaching[i]
		p.Calendar, p.CalendarSummaries = t.calendar[i], t.summaries[i]
	}
	if len(s.Resources) > 0 { // read each time: other locations' and providers' bookings hold them
		s.Resources = slices.Clone(s.Resources)
		if err := loadHolds(ctx, q, s.Resources, since, until, sq.IgnoreBookingID); err != nil {
			return Loaded{}, err
		}
	}
	if s.Service.IsClass() {
		if err := loadSessions(ctx, q, &out, sq); err != nil {
			return Loaded{}, err
		}
	}
	return out, nil
}

// loadSessions adds the class's sessions at the location starting on the local dates sq asks
// about (and a day either side, as for bookings), with their seats.
func loadSessions(ctx context.Context, q *db.Queries, l *Loaded, sq ScheduleQuery) error {
	s := &l.Schedule
	rows, err := q.ScheduleSessions(ctx, db.ScheduleSessionsParams{
		LocationID: sq.LocationID, ServiceID: sq.ServiceID, ProviderID: sq.ProviderID,
		Since: db.Millis(DayStart(s.Zone, sq.First.AddDays(-1))), Until: db.Millis(DayStart(s.Zone, sq.Last.AddDays(2))),
	})
	if err != nil {
		return fmt.Errorf("class sessions: %w", err)
	}
	s.Sessions = make([]Session, len(rows))
	for i, r := range rows {
		s.Sessions[i] = Session{
			ID: r.ID, ProviderID: r.ProviderID, Start: db.Time(r.StartAt).In(s.Zone), End: db.Time(r.EndAt).In(s.Zone),
			Capacity: int(r.Capacity), Booked: int(r.Booked), Waiting: int(r.Waiting), Room: r.Room,
			Cancelled: r.Status == SessionCancelled,
		}
	}
	return nil
}

// notFoundAs turns "no rows" into a NotFoundError for resource and wraps anything else.
func notFoundAs(err error, resource string) error {
	if db.IsNotFound(err) {
		return &NotFoundError{Resource: resource}
	}
	return fmt.Errorf("load %s: %w", resource, err)
}

// zones caches loaded time zones: time.LoadLocation reads and parses zone data on every call,
// and every slot query and booking response needs its location's zone.
var zones sync.Map // name → *time.Location

// LoadZone returns the IANA zone name, cached.
func LoadZone(name string) (*time.Location, error) {
	if z, ok := zones.Load(name); ok {
		return z.(*time.Location), nil
	}
	z, err := time.LoadLocation(name)
	if err != nil || name == "" || name == "Local" {
		return nil, fmt.Errorf("time zone %q: not an IANA zone name", name)
	}
	zones.Store(name, z)
	return z, nil
}
