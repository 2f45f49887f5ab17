package booking

import (
	"context"
	"fmt"
	"time"

	"frontdesk/db"
)

// Working is when provider id works on local date d of schedule s, by the rule the slot engine
// books by (doc.go, "Working time"): the location's open time — its hours, except on closure
// dates — intersected with the union over the provider's shifts of the shift less its breaks.
// The intervals are real time, merged, in start order, within d: [DayStart(d), DayStart(d+1)).
// A provider the schedule does not have works never.
func Working(s Schedule, id int64, d Date) []Interval {
	var p *Provider
	for i := range s.Providers {
		if s.Providers[i].ID == id {
			p = &s.Providers[i]
		}
	}
	if p == nil || s.Zone == nil {
		return nil
	}
	day := d.unixDay()
	q := newQuery(&s, day, day)
	within := span{floorSec(DayStart(s.Zone, d)), floorSec(DayStart(s.Zone, d.AddDays(1)))}
	var out []Interval
	for _, w := range intersect(q.working(p), []span{within}) {
		out = append(out, Interval{Start: time.Unix(w.lo, 0).In(s.Zone), End: time.Unix(w.hi, 0).In(s.Zone)})
	}
	return out
}

// WorkingTime is Working for each of providers at location locationID on local date d, read
// through q: the admin's day view shades the time each column's provider works by it, so the
// owner sees the working time the engine books by. Every provider named counts, active or not,
// with the shifts they have at the location (none: never working).
func WorkingTime(ctx context.Context, q *db.Queries, locationID int64, providers []int64, d Date) (map[int64][]Interval, error) {
	days, err := WorkingDays(ctx, q, locationID, providers, d, d)
	if err != nil {
		return nil, err
	}
	out := make(map[int64][]Interval, len(providers))
	for _, id := range providers {
		out[id] = days[id][d]
	}
	return out, nil
}

// WorkingDays is WorkingTime for every local date from first to last inclusive, read through q
// with one load of the location's hours, closures and shifts: the reports' utilisation divides
// booked time by it, so it is the working time the engine books by (Working), day by day. The
// result maps provider → date → intervals; a date a provider does not work is absent.
func WorkingDays(ctx context.Context, q *db.Queries, locationID int64, providers []int64, first, last Date) (map[int64]map[Date][]Interval, error) {
	b := &scheduleBase{}
	loc, err := q.ScheduleLocation(ctx, locationID)
	if err != nil {
		return nil, notFoundAs(err, "location")
	}
	s := &b.loaded.Schedule
	if s.Zone, err = LoadZone(loc.Timezone); err != nil {
		return nil, fmt.Errorf("location %d: %w", loc.ID, err)
	}
	if err := b.loadHours(ctx, q, locationID); err != nil {
		return nil, err
	}
	for _, c := range b.closures {
		if d, err := ParseDate(c); err == nil && !d.Before(first) && !d.After(last) {
			s.Closures = append(s.Closures, d)
		}
	}
	index := make(map[int64]int, len(providers))
	for _, id := range providers {
		if _, ok := index[id]; !ok {
			index[id] = len(s.Providers)
			s.Providers = append(s.Providers, Provider{ID: id})
		}
	}
	out := make(map[int64]map[Date][]Interval, len(providers))
	if len(providers) == 0 {
		return out, nil
	}
	rows, err := q.ScheduleShifts(ctx, db.ScheduleShiftsParams{LocationID: locationID, ProviderIds: providers})
	if err != nil {
		return nil, fmt.Errorf("shifts: %w", err)
	}
	setShifts(s.Providers, index, rows)
	for _, id := range providers {
		days := map[Date][]Interval{}
		for d := first; !d.After(last); d = d.AddDays(1) {
			if w := Working(*s, id, d); len(w) > 0 {
				days[d] = w
			}
		}
		out[id] = days
	}
	return out, nil
}
