package booking

import (
	"context"
	"fmt"
	"sync"
	"time"

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

// blockLimit is the longest block the schema allows (a CHECK on bookings): it bounds every
// overlap search from below.
const blockLimit = 48 * time.Hour

// LoadSchedule reads everything the engine needs for one location, one service and the
// location's providers over sq.First…sq.Last, in a fixed handful of queries however many
// providers work there. Inactive providers are left out; an inactive location or service (or,
// with OnlineOnly, one not bookable online) yields a schedule without providers, so it offers
// nothing. Busy holds every non-cancelled booking of those providers at any location.
func LoadSchedule(ctx context.Context, q *db.Queries, sq ScheduleQuery) (Loaded, error) {
	var out Loaded
	loc, err := q.ScheduleLocation(ctx, sq.LocationID)
	if err != nil {
		return out, notFoundAs(err, "location")
	}
	zone, err := LoadZone(loc.Timezone)
	if err != nil {
		return out, fmt.Errorf("location %d: %w", loc.ID, err)
	}
	out.Location = Location{ID: loc.ID, Name: loc.Name, Active: loc.Active, Zone: zone}
	if out.Policy, err = q.SchedulePolicy(ctx); err != nil {
		return out, fmt.Errorf("company policy: %w", err)
	}
	if sq.ServiceID != 0 {
		svc, err := q.ScheduleService(ctx, sq.ServiceID)
		if err != nil {
			return out, notFoundAs(err, "service")
		}
		out.Service = &svc
	}
	if sq.ProviderID != 0 {
		prov, err := q.BookingProvider(ctx, sq.ProviderID)
		if err != nil {
			return out, notFoundAs(err, "provider")
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
		}
	}
	if err := loadHours(ctx, q, sq, s); err != nil {
		return out, err
	}
	bookable := loc.Active && (out.Service == nil || out.Service.Active && (out.Service.OnlineBooking || !sq.OnlineOnly))
	if !bookable {
		return out, nil
	}
	return out, loadProviders(ctx, q, sq, s)
}

func loadHours(ctx context.Context, q *db.Queries, sq ScheduleQuery, s *Schedule) error {
	hours, err := q.ScheduleLocationHours(ctx, sq.LocationID)
	if err != nil {
		return fmt.Errorf("location hours: %w", err)
	}
	for _, h := range hours {
		s.Hours = append(s.Hours, WeeklyHours{Weekday: time.Weekday(h.DayID), Open: int(h.OpenMin), Close: int(h.CloseMin)})
	}
	closures, err := q.ScheduleClosures(ctx, db.ScheduleClosuresParams{
		LocationID: sq.LocationID, First: sq.First.AddDays(-2).String(), Last: sq.Last.AddDays(2).String(),
	})
	if err != nil {
		return fmt.Errorf("location closures: %w", err)
	}
	for _, c := range closures {
		d, err := ParseDate(c)
		if err != nil {
			return fmt.Errorf("location %d closure: %w", sq.LocationID, err)
		}
		s.Closures = append(s.Closures, d)
	}
	return nil
}

func loadProviders(ctx context.Context, q *db.Queries, sq ScheduleQuery, s *Schedule) error {
	rows, err := q.ScheduleProviders(ctx, db.ScheduleProvidersParams{
		ServiceID: sq.ServiceID, LocationID: sq.LocationID, ProviderID: sq.ProviderID,
	})
	if err != nil {
		return fmt.Errorf("providers: %w", err)
	}
	index := make(map[int64]int, len(rows))
	ids := make([]int64, 0, len(rows))
	for _, r := range rows {
		if sq.OnlineOnly && !r.OnlineBooking {
			continue
		}
		index[r.ID] = len(s.Providers)
		ids = append(ids, r.ID)
		s.Providers = append(s.Providers, Provider{ID: r.ID, Name: r.PublicName, OffersService: r.OffersService || sq.ServiceID == 0})
	}
	if len(ids) == 0 {
		return nil
	}

	shifts, err := q.ScheduleShifts(ctx, db.ScheduleShiftsParams{LocationID: sq.LocationID, ProviderIds: ids})
	if err != nil {
		return fmt.Errorf("shifts: %w", err)
	}
	shiftAt := make(map[int64]int, len(shifts)) // provider_hours.id → index in its provider's Shifts
	for _, r := range shifts {
		p := &s.Providers[index[r.ProviderID]]
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

	// Every candidate block lies in [start of First − buffer before, end of Last + duration +
	// buffer after); that is all the time off and bookings the engine can ever look at.
	since := db.Millis(DayStart(s.Zone, sq.First).Add(-s.Service.BufferBefore))
	until := db.Millis(DayStart(s.Zone, sq.Last.AddDays(1)).Add(s.Service.Duration + s.Service.BufferAfter))
	off, err := q.ScheduleTimeOff(ctx, db.ScheduleTimeOffParams{Until: until, Since: since, ProviderIds: ids})
	if err != nil {
		return fmt.Errorf("time off: %w", err)
	}
	for _, r := range off {
		p := &s.Providers[index[r.ProviderID]]
		p.TimeOff = append(p.TimeOff, Interval{Start: db.Time(r.StartsAt), End: db.Time(r.EndsAt)})
	}
	busy, err := q.ScheduleBusy(ctx, db.ScheduleBusyParams{
		Floor: since - blockLimit.Milliseconds(), Until: until, Since: since,
		IgnoreBookingID: sq.IgnoreBookingID, ProviderIds: ids,
	})
	if err != nil {
		return fmt.Errorf("bookings: %w", err)
	}
	for _, r := range busy {
		p := &s.Providers[index[r.ProviderID]]
		p.Busy = append(p.Busy, Interval{Start: db.Time(r.BlockStartAt), End: db.Time(r.BlockEndAt)})
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
