package booking

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"frontdesk/db"
)

// placement is where and when a booking would take a provider. A zero End means Start plus the
// service's duration.
type placement struct {
	LocationID, ServiceID, ProviderID int64
	Start, End                        time.Time
	// StartWall and EndWall say that Start or End is a wall-clock reading of the location, to be
	// read in its zone (NewBooking.StartWall).
	StartWall, EndWall bool
}

// placed is a placement that passed the rules: the block of provider time to reserve and the
// schedule it was checked against.
type placed struct {
	loaded               Loaded
	start, end           time.Time
	blockStart, blockEnd time.Time
	// session is the class session the booking takes a seat in, as read before the write
	// transaction (nil: not a class, or a session takeSeat makes from the timetable).
	session *Session
}

// maxLength bounds one booking. With buffers of at most four hours on each side it keeps every
// block inside the schema's two-day limit, which the overlap searches rely on.
const maxLength = 24 * time.Hour

// place checks that p may be booked by source: the location, service and provider exist and are
// active, the provider works at the location and offers the service, and — for the customer flow
// — the engine offers that time (working time, no break, no time off, no other booking, notice
// and advance window), except that the start need not lie on the slot grid: the API books any
// whole minute at which the provider is free. ignoreID is the booking being rescheduled.
//
// This runs on the read pool before the write transaction, so most losers of a race are turned
// away without queueing for the writer; the transaction checks overlap again (and the database
// trigger a third time), which is what makes double booking impossible. So a placement that
// is written at once (recent: Create) looks first at a named provider's bookings as last kept,
// however old, or without them when none are (ScheduleVersion.load): under a stream of
// new bookings spread over many days, reading a day's bookings for every placement would cost
// more than the placement. A time they show taken is looked at again with the current ones, so
// a stale look never turns a booking away; a time taken that it missed is refused inside the
// transaction, as a race lost. A placement that only answers a question (a series' check)
// reads the current ones. Joined to a caller's write transaction (db.WithTx), it reads through
// that transaction instead (LoadScheduleCached), whose own writes count: a payment request
// that releases its earlier bookings books the same times again.
func place(ctx context.Context, d *db.DB, now time.Time, p placement, source string, ignoreID int64, recent bool) (placed, error) {
	if err := validStart(p.Start); err != nil {
		return placed{}, err
	}
	out, err := placeWith(ctx, d, now, p, source, ignoreID, recent && p.ProviderID != 0)
	if errors.Is(err, errLookAgain) {
		return placeWith(ctx, d, now, p, source, ignoreID, false)
	}
	return out, err
}

// errLookAgain: a placement on the bookings as last kept (or none) found the time taken, or is
// a class's (whose seats are checked on the current ones); the current bookings decide.
var errLookAgain = errors.New("look again at the current bookings")

// placeWith is place, on the provider's kept bookings when recent (ScheduleVersion.load).
func placeWith(ctx context.Context, d *db.DB, now time.Time, p placement, source string, ignoreID int64, recent bool) (placed, error) {
	// The start's local date is within a day of its UTC date; two days after it also cover a
	// booking of the longest length, whatever the zone.
	day := DateOf(p.Start.UTC())
	sq := ScheduleQuery{
		LocationID: p.LocationID, ServiceID: p.ServiceID, ProviderID: p.ProviderID,
		First: day.AddDays(-1), Last: day.AddDays(2),
		OnlineOnly: customerFlow(source), IgnoreBookingID: ignoreID,
	}
	l, err := loadScheduleCached(ctx, d, sq, recent)
	if err != nil {
		return placed{}, err
	}
	if err := bookable(l, source); err != nil {
		return placed{}, err
	}
	if err := p.resolveWall(l.Location.Zone); err != nil {
		return placed{}, err
	}
	if err := validStart(p.Start); err != nil { // again: a wall reading moved it
		return placed{}, err
	}
	if l.Schedule.Service.IsClass() {
		if l.staleBookings {
			return placed{}, errLookAgain
		}
		return placeSession(l, p, now, source)
	}
	if p.End.IsZero() {
		p.End = p.Start.Add(l.Schedule.Service.Duration)
	}
	if err := validEnd(p.Start, p.End); err != nil {
		return placed{}, err
	}
	out := placed{
		loaded:     l,
		start:      p.Start,
		end:        p.End,
		blockStart: p.Start.Add(-l.Schedule.Service.BufferBefore),
		blockEnd:   p.End.Add(l.Schedule.Service.BufferAfter),
	}
	if !customerFlow(source) {
		return out, nil
	}
	s := l.Schedule
	s.Service.Duration = p.End.Sub(p.Start)
	s.Policy.Step = time.Minute
	switch r := Explain(s, p.ProviderID, p.Start, now); r.Code {
	case ReasonOK:
		return out, nil
	case ReasonBooked, ReasonTeaching, ReasonBuffer:
		if l.staleBookings {
			return placed{}, errLookAgain
		}
		return placed{}, ErrSlotUnavailable
	case ReasonResource:
		return placed{}, resourceTaken(s, p.Start)
	case ReasonInvalidSchedule:
		return placed{}, fmt.Errorf("location %d: stored schedule is invalid: %s", p.LocationID, r.Message)
	default:
		e := invalid("start_time", "%s: %s", r.Code, r.Message)
		e.Msg, e.Zone = r.Msg, l.Location.Zone
		return placed{}, e
	}
}

// bookable checks the records a placement refers to, in the order a client would fix them.
func bookable(l Loaded, source string) error {
	online := customerFlow(source)
	svc, prov := l.Service, l.Provider
	switch {
	case !l.Location.Active:
		return invalid("location_id", "the location is inactive")
	case !svc.Active:
		return invalid("service_id", "the service is inactive")
	case online && !svc.OnlineBooking:
		return invalid("service_id", "the service is not bookable online")
	case !prov.Active:
		return invalid("provider_id", "the provider is inactive")
	case online && !prov.OnlineBooking:
		return invalid("provider_id", "the provider is not bookable online")
	}
	i := slices.IndexFunc(l.Schedule.Providers, func(p Provider) bool { return p.ID == prov.ID })
	if i < 0 {
		return invalid("provider_id", "the provider does not work at this location")
	}
	if !l.Schedule.Providers[i].OffersService {
		return invalid("provider_id", "the provider does not offer this service")
	}
	return nil
}

func validStart(start time.Time) error {
	switch {
	case start.UTC().Year() < 1970 || start.UTC().Year() > 9000:
		return invalid("start_time", "is out of range")
	case start.UTC().Second() != 0 || start.Nanosecond() != 0:
		return invalid("start_time", "must be a whole minute")
	}
	return nil
}

func validEnd(start, end time.Time) error {
	switch {
	case end.UTC().Second() != 0 || end.Nanosecond() != 0:
		return invalid("end_time", "must be a whole minute")
	case !end.After(start):
		return invalid("end_time", "must be after start_time")
	case end.Sub(start) > maxLength:
		return invalid("end_time", "a booking lasts at most 24 hours")
	}
	return nil
}
