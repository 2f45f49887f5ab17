package booking

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"frontdesk/db"
)

// Resources are the rooms and equipment of a location that a service needs besides a provider
// (docs/visits.md, "Resources"). Each has a quantity, how many bookings may hold it at once; a
// booking holds every resource its service requires at its location over its whole block,
// buffers included. Three layers keep holds within the quantity, as for a provider's time: the
// slot engine offers no start whose block meets a time when a required resource is full
// (Schedule.Resources), the write transaction checks again (checkResources), and the database
// writes the holds itself and refuses one over the quantity (db/migrations/00550_resources.sql).

// Resource is one resource a schedule's service requires at its location.
type Resource struct {
	ID       int64
	Name     string
	Quantity int        // how many bookings may hold it at once; at least 1
	Held     []Interval // the live holds of bookings (their blocks), in any order
}

// full is where r is held by Quantity bookings or more: a block that meets it cannot hold r too.
func (r *Resource) full() []span {
	type edge struct {
		t     int64
		delta int
	}
	edges := make([]edge, 0, 2*len(r.Held))
	for _, h := range r.Held {
		if x := spanOf(h); x.lo < x.hi {
			edges = append(edges, edge{x.lo, 1}, edge{x.hi, -1})
		}
	}
	// Half-open holds: one ending at t frees r before one starting at t takes it.
	slices.SortFunc(edges, func(a, b edge) int { return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.delta, b.delta)) })
	var out []span
	n, from := 0, int64(0)
	for _, e := range edges {
		was := n
		n += e.delta
		switch {
		case was < r.Quantity && n >= r.Quantity:
			from = e.t
		case was >= r.Quantity && n < r.Quantity:
			out = append(out, span{from, e.t})
		}
	}
	return normalize(out)
}

// resourceFull is where some required resource of the schedule is full, with the resource
// (index into s.Resources) for each span; the spans of different resources may overlap.
type resourceFull struct {
	spans []span // normalized union over every resource
	each  [][]span
}

func newResourceFull(s *Schedule) *resourceFull {
	if len(s.Resources) == 0 {
		return nil
	}
	f := &resourceFull{each: make([][]span, len(s.Resources))}
	var all []span
	for i := range s.Resources {
		f.each[i] = s.Resources[i].full()
		all = append(all, f.each[i]...)
	}
	f.spans = normalize(all)
	return f
}

// free reports whether a block leaves every required resource a unit.
func (f *resourceFull) free(block span) bool {
	if f == nil {
		return true
	}
	_, taken := overlapping(f.spans, block)
	return !taken
}

// taken returns the first resource (by position in the schedule) full somewhere in block, and
// that full span.
func (f *resourceFull) taken(block span) (int, span, bool) {
	if f == nil {
		return 0, span{}, false
	}
	for i, s := range f.each {
		if x, ok := overlapping(s, block); ok {
			return i, x, true
		}
	}
	return 0, span{}, false
}

// ResourceTakenError says a required resource is held by as many bookings as it has units over
// part of the block asked for; it is ErrSlotUnavailable for every caller (errors.Is).
type ResourceTakenError struct {
	ResourceID int64
	Name       string
}

func (e *ResourceTakenError) Error() string {
	return fmt.Sprintf("slot_unavailable: %s is taken", e.Name)
}

// Unwrap makes it ErrSlotUnavailable for errors.Is and the surfaces' error mapping.
func (e *ResourceTakenError) Unwrap() error { return ErrSlotUnavailable }

// loadResources reads the resources a service requires at a location (the catalog part).
func loadResources(ctx context.Context, q *db.Queries, locationID, serviceID int64) ([]Resource, error) {
	rows, err := q.ServiceResourcesAt(ctx, db.ServiceResourcesAtParams{ServiceID: serviceID, LocationID: locationID})
	if err != nil {
		return nil, fmt.Errorf("service resources: %w", err)
	}
	out := make([]Resource, len(rows))
	for i, r := range rows {
		out[i] = Resource{ID: r.ID, Name: r.Name, Quantity: int(r.Quantity)}
	}
	return slices.Clip(out), nil
}

// loadHolds fills rs' Held with their live holds that meet [since, until) (Unix ms), but for
// booking ignore's. rs is the caller's own copy.
func loadHolds(ctx context.Context, q *db.Queries, rs []Resource, since, until, ignore int64) error {
	if len(rs) == 0 {
		return nil
	}
	ids := make([]int64, len(rs))
	index := make(map[int64]int, len(rs))
	for i, r := range rs {
		ids[i], index[r.ID] = r.ID, i
		rs[i].Held = nil
	}
	rows, err := q.ResourceHolds(ctx, db.ResourceHoldsParams{
		ResourceIds: ids, Floor: since - blockLimit.Milliseconds(), Until: until, Since: since, IgnoreBookingID: ignore,
	})
	if err != nil {
		return fmt.Errorf("resource holds: %w", err)
	}
	for _, h := range rows {
		i := index[h.ResourceID]
		rs[i].Held = append(rs[i].Held, Interval{Start: db.Time(h.BlockStartAt), End: db.Time(h.BlockEndAt)})
	}
	return nil
}

// holdsVersion reads the counter of writes to rs' holds (0 without resources).
func holdsVersion(ctx context.Context, q *db.Queries, rs []Resource) (int64, error) {
	if len(rs) == 0 {
		return 0, nil
	}
	ids := make([]int64, len(rs))
	for i, r := range rs {
		ids[i] = r.ID
	}
	return q.ResourceHoldsVersion(ctx, ids)
}

// checkResources is the resources' check inside the write transaction: a block of a booking of
// serviceID at locationID over [start, end) must leave each required resource a unit, counting
// every live hold but booking ignoreID's.
func checkResources(ctx context.Context, q *db.Queries, locationID, serviceID int64, start, end time.Time, ignoreID int64) error {
	rs, err := loadResources(ctx, q, locationID, serviceID)
	if err != nil || len(rs) == 0 {
		return err
	}
	if err := loadHolds(ctx, q, rs, db.Millis(start), db.Millis(end), ignoreID); err != nil {
		return err
	}
	block := span{floorSec(start), ceilSec(end)}
	for i := range rs {
		if _, ok := overlapping(rs[i].full(), block); ok {
			return &ResourceTakenError{ResourceID: rs[i].ID, Name: rs[i].Name}
		}
	}
	return nil
}

// resourceTaken names the resource that keeps a start of s from being offered.
func resourceTaken(s Schedule, start time.Time) error {
	day := DateOf(start.In(s.Zone)).unixDay()
	q := newQuery(&s, day, day)
	if i, _, ok := newResourceFull(&s).taken(q.block(floorSec(start))); ok {
		return &ResourceTakenError{ResourceID: s.Resources[i].ID, Name: s.Resources[i].Name}
	}
	return ErrSlotUnavailable
}
