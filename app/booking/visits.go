package booking

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"frontdesk/app/resource"
	"frontdesk/app/webhook"
	"frontdesk/db"
)

// A visit is several services booked as one (docs/visits.md): an ordered list of segments,
// each a service with its provider (the same for all, or anyone free per segment) and any
// add-ons, placed back to back from one start. Each service of it is an ordinary booking, so
// the three no-overlap layers and the resources' hold for every segment unchanged, and the
// segments are written in one transaction: a visit is booked whole or not at all.
//
// Between segments the services' buffers are left out (the client goes from one to the next);
// the first segment keeps its buffer before and the last its buffer after. A service with
// processing time (service_processing) is two bookings, before and after the processing: its
// provider is free in between for other bookings.

// Bounds of a visit.
const (
	maxVisitSegments = 8
	maxVisitParts    = 16
)

// VisitSegment is one service of a visit as asked.
type VisitSegment struct {
	ServiceID  int64
	ProviderID int64 // 0: anyone free at its time
	// AddOns are services declared as add-ons of ServiceID (service_addons), done right after
	// it by the same provider, in this order.
	AddOns []int64
}

// VisitPart is one booking of a laid-out visit.
type VisitPart struct {
	Segment      int  // the segment it belongs to
	AddOn        bool // an add-on of that segment's service
	Part         int  // 0, or 1 for the part after a processing time
	ServiceID    int64
	ProviderID   int64
	ProviderName string
	Start, End   time.Time

	blockStart, blockEnd time.Time
	// holdStart is where its holds of the service's resources start: its block's start, or for
	// the part after a processing time the first part's end, so the resources stay with the
	// client through the processing while the provider is free.
	holdStart time.Time
	loaded    *Loaded
}

// VisitSlot is a start at which a whole visit is offered, with who does each part.
type VisitSlot struct {
	Start, End time.Time
	Parts      []VisitPart
	PriceCents int64 // what the client pays: the services' prices less their discounts
}

// visitItem is one service of a visit in order: a segment's service or one of its add-ons.
type visitItem struct {
	segment    int
	addOn      bool
	serviceID  int64
	providerID int64 // 0: anyone (for an add-on: its segment's provider)
}

// visitPlan is what laying a visit out needs: its items, each service's schedule and
// processing time.
type visitPlan struct {
	locationID int64
	items      []visitItem
	scheds     map[int64]*Loaded
	processing map[int64][2]time.Duration // service → (after, length)
	source     string
	// validated is what Validate said of each schedule check explains over: a visit checks
	// every start of every part with every provider, over a handful of distinct schedules.
	validated map[validKey]error
	// days is what explaining starts of one part on one local day shares (explainDay), kept
	// across the visit's starts and providers.
	days map[dayKey]*explainDay
	// times are the providers' shift and working times of explainDays that cover the same days
	// of one schedule: they do not depend on a part's length, so parts share them.
	times map[timesKey]map[int]providerTime
	// codesOnly: the caller reads only whether a start is refused, not why (VisitSlots).
	codesOnly bool
	// anyone are the providers tried, in order, for each item left to anyone (by position).
	anyone map[int][]int64
}

// dayKey is one explainDay of a visit: a schedule check on one local day.
type dayKey struct {
	validKey
	day int64
}

// timesKey is the providers' times of one schedule over the unix days from…to (query).
type timesKey struct {
	l        *Loaded
	from, to int64
}

// validKey is one schedule check explains over: a part's loaded schedule with the part's
// length and buffers (the policy check sets is the same for every part).
type validKey struct {
	l                     *Loaded
	length, before, after time.Duration
}

// loadVisit checks a visit's segments and loads what laying it out over dates first…last
// needs. ignore are the blocks of the visit's own bookings when it is moved: they do not count
// as busy.
func loadVisit(ctx context.Context, d *db.DB, locationID int64, segments []VisitSegment, first, last Date, source string, ignore []Interval) (*visitPlan, error) {
	switch {
	case len(segments) == 0:
		return nil, invalid("services", "choose at least one service")
	case len(segments) > maxVisitSegments:
		return nil, invalid("services", "a visit has at most %d services", maxVisitSegments)
	}
	r := d.Reader(ctx)
	p := &visitPlan{locationID: locationID, scheds: map[int64]*Loaded{}, source: source}
	for i, s := range segments {
		if s.ServiceID < 1 {
			return nil, invalid("services", "must be service ids")
		}
		if s.ProviderID < 0 {
			return nil, invalid("provider_id", "must be a provider id, or 0 for anyone")
		}
		p.items = append(p.items, visitItem{segment: i, serviceID: s.ServiceID, providerID: s.ProviderID})
		if len(s.AddOns) == 0 {
			continue
		}
		allowed, err := r.ServiceAddonIDs(ctx, s.ServiceID)
		if err != nil {
			return nil, fmt.Errorf("service add-ons: %w", err)
		}
		for _, a := range s.AddOns {
			if !slices.Contains(allowed, a) {
				return nil, invalid("add_ons", "service %d is not an add-on of service %d", a, s.ServiceID)
			}
			p.items = append(p.items, visitItem{segment: i, addOn: true, serviceID: a, providerID: s.ProviderID})
		}
	}
	if len(p.items) > maxVisitParts {
		return nil, invalid("add_ons", "a visit has at most %d services with its add-ons", maxVisitParts)
	}
	var ids []int64
	for _, it := range p.items {
		if _, ok := p.scheds[it.serviceID]; ok {
			continue
		}
		l, err := LoadScheduleCached(ctx, d, ScheduleQuery{
			LocationID: locationID, ServiceID: it.serviceID, First: first.AddDays(-1), Last: last.AddDays(2),
			OnlineOnly: customerFlow(source),
		})
		if err != nil {
			return nil, err
		}
		switch {
		case !l.Location.Active:
			return nil, invalid("location_id", "the location is inactive")
		case !l.Service.Active:
			return nil, invalid("services", "service %d is inactive", it.serviceID)
		case customerFlow(source) && !l.Service.OnlineBooking:
			return nil, invalid("services", "service %d is not bookable online", it.serviceID)
		case l.Schedule.Service.IsClass():
			return nil, invalid("services", "service %d is a class, booked in its sessions", it.serviceID)
		}
		if len(ignore) > 0 {
			withoutOwn(&l.Schedule, ignore)
		}
		p.scheds[it.serviceID] = &l
		ids = append(ids, it.serviceID)
	}
	rows, err := r.ServiceProcessing(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("service processing: %w", err)
	}
	p.processing = map[int64][2]time.Duration{}
	for _, x := range rows {
		after, length := time.Duration(x.AfterMin)*time.Minute, time.Duration(x.ProcessingMin)*time.Minute
		if after+length < p.scheds[x.ServiceID].Schedule.Service.Duration { // else it is not inside the service
			p.processing[x.ServiceID] = [2]time.Duration{after, length}
		}
	}
	return p, nil
}

// withoutOwn takes a moving visit's own blocks out of a schedule's busy time and holds, which
// it copies first (a loaded schedule may be shared).
func withoutOwn(s *Schedule, own []Interval) {
	drop := func(ivs []Interval) []Interval {
		return slices.DeleteFunc(slices.Clone(ivs), func(iv Interval) bool {
			return slices.ContainsFunc(own, func(o Interval) bool { return o.Start.Equal(iv.Start) && o.End.Equal(iv.End) })
		})
	}
	s.Providers = slices.Clone(s.Providers)
	for i := range s.Providers {
		s.Providers[i].Busy = drop(s.Providers[i].Busy)
	}
	s.Resources = slices.Clone(s.Resources)
	for i := range s.Resources {
		s.Resources[i].Held = drop(s.Resources[i].Held)
	}
}

// layout places the visit from start, choosing a provider for each segment left to anyone (the
// first free in id order; an add-on takes its segment's). A refusal is ErrSlotUnavailable when
// something else holds the time, or an *InvalidError naming the rule.
func (p *visitPlan) layout(start, now time.Time) ([]VisitPart, error) {
	n := len(p.items) // parts: one per item, two for a service with processing time
	for _, it := range p.items {
		if _, ok := p.processing[it.serviceID]; ok {
			n++
		}
	}
	out := make([]VisitPart, 0, n)
	var parts []VisitPart // an item's parts with the provider being tried, reused across items
	cursor := start
	chosen := map[int]int64{} // segment → provider
	for k, it := range p.items {
		l := p.scheds[it.serviceID]
		svc := l.Schedule.Service
		spans := [][2]time.Time{{cursor, cursor.Add(svc.Duration)}}
		if pr, ok := p.processing[it.serviceID]; ok {
			spans = [][2]time.Time{{cursor, cursor.Add(pr[0])}, {cursor.Add(pr[0] + pr[1]), cursor.Add(svc.Duration)}}
		}
		var before, after time.Duration
		if k == 0 {
			before = svc.BufferBefore
		}
		if k == len(p.items)-1 {
			after = svc.BufferAfter
		}
		candidates := p.candidates(k, l, it, chosen)
		var reason Reason
		for _, id := range candidates {
			parts = parts[:0]
			reason = Reason{Code: ReasonOK}
			for j, sp := range spans {
				b, a := time.Duration(0), time.Duration(0)
				if j == 0 {
					b = before
				}
				if j == len(spans)-1 {
					a = after
				}
				if reason = p.check(l, id, sp[0], sp[1], b, a, now); reason.Code != ReasonOK {
					break
				}
				x := VisitPart{
					Segment: it.segment, AddOn: it.addOn, Part: j, ServiceID: it.serviceID, ProviderID: id,
					ProviderName: providerName(l, id), Start: sp[0], End: sp[1],
					blockStart: sp[0].Add(-b), blockEnd: sp[1].Add(a), loaded: l,
				}
				x.holdStart = x.blockStart
				if j > 0 {
					x.holdStart = parts[j-1].blockEnd
					if reason = resourcesFree(l, x.holdStart, x.blockEnd); reason.Code != ReasonOK {
						break
					}
				}
				parts = append(parts, x)
			}
			if reason.Code == ReasonOK {
				break
			}
		}
		if reason.Code != ReasonOK || len(candidates) == 0 {
			return nil, visitRefusal(reason, it, len(candidates) == 1)
		}
		if !it.addOn {
			chosen[it.segment] = parts[0].ProviderID
		}
		out = append(out, parts...)
		cursor = cursor.Add(svc.Duration)
	}
	return out, nil
}

// candidates are the providers that may do item it, the k-th, in the order they are tried.
// The list for an item left to anyone is the same at every start, and kept.
func (p *visitPlan) candidates(k int, l *Loaded, it visitItem, chosen map[int]int64) []int64 {
	if it.addOn {
		return []int64{chosen[it.segment]}
	}
	if it.providerID != 0 {
		return []int64{it.providerID}
	}
	if ids, ok := p.anyone[k]; ok {
		return ids
	}
	ids := []int64{}
	for _, pr := range l.Schedule.Providers {
		if pr.OffersService {
			ids = append(ids, pr.ID)
		}
	}
	slices.Sort(ids)
	if p.anyone == nil {
		p.anyone = map[int][]int64{}
	}
	p.anyone[k] = ids
	return ids
}

// check applies the slot engine's rules to one part of a visit: provider id does it over
// [start, end) with buffers before and after, any whole minute being a start. The owner is not
// held to the clients' notice and advance window.
func (p *visitPlan) check(l *Loaded, id int64, start, end time.Time, before, after time.Duration, now time.Time) Reason {
	s := l.Schedule
	s.Service.Duration, s.Service.BufferBefore, s.Service.BufferAfter = end.Sub(start), before, after
	s.Policy.Step = time.Minute
	if !customerFlow(p.source) {
		s.Policy.MinNotice, s.Policy.MaxAdvance = 0, 0
		now = start // the owner may book the past, as with one booking
	}
	key := validKey{l, end.Sub(start), before, after}
	invalid, ok := p.validated[key]
	if !ok {
		invalid = s.Validate()
		if p.validated == nil {
			p.validated = map[validKey]error{}
		}
		p.validated[key] = invalid
	}
	var days *explainDay
	if invalid == nil {
		dk := dayKey{key, explainDayOf(&s, start)}
		if days = p.days[dk]; days == nil {
			own := s // kept by the query: a copy, so s stays off the heap
			days = newExplainDay(&own, dk.day)
			if p.days == nil {
				p.days, p.times = map[dayKey]*explainDay{}, map[timesKey]map[int]providerTime{}
			}
			p.days[dk] = days
			tk := timesKey{l, days.q.from, days.q.to}
			if t, ok := p.times[tk]; ok {
				days.providers = t
			} else {
				p.times[tk] = days.providers
			}
		}
	}
	return explainChecked(s, invalid, id, start, now, days, p.codesOnly)
}

// resourcesFree says whether every resource l's service requires has a unit free over
// [from, to): the hold of a part after a processing time, which the part's own check covers
// only from its block's start.
func resourcesFree(l *Loaded, from, to time.Time) Reason {
	if !newResourceFull(&l.Schedule).free(span{floorSec(from), ceilSec(to)}) {
		return Reason{Code: ReasonResource, Message: "a resource the service requires is taken during its processing time"}
	}
	return Reason{Code: ReasonOK}
}

// holdBefore is how much earlier than its block x's holds start (InsertVisitBooking).
func (x VisitPart) holdBefore() int64 { return x.blockStart.Sub(x.holdStart).Milliseconds() }

// visitRefusal turns the reason no provider could do item it into the error a caller gets.
func visitRefusal(r Reason, it visitItem, named bool) error {
	switch {
	case !named, r.Code == ReasonBooked, r.Code == ReasonTeaching, r.Code == ReasonBuffer, r.Code == ReasonResource, r.Code == ReasonTimeOff:
		return ErrSlotUnavailable
	case r.Code == ReasonUnknownProvider, r.Code == ReasonServiceNotOffered:
		return invalid("provider_id", "%s: %s", r.Code, r.Message)
	}
	e := invalid("start_time", "%s: %s", r.Code, r.Message)
	e.Msg = r.Msg
	return e
}

func providerName(l *Loaded, id int64) string {
	if i := slices.IndexFunc(l.Schedule.Providers, func(p Provider) bool { return p.ID == id }); i >= 0 {
		return l.Schedule.Providers[i].Name
	}
	return ""
}

// price is what the client pays for the part: its service's price less its discount, once
// per service (the part after a processing time costs nothing more).
func (v VisitPart) price() (price, list int64, discount sql.NullInt64) {
	if v.Part > 0 {
		return 0, 0, sql.NullInt64{}
	}
	return prices(*v.loaded.Service, nil)
}

// VisitSlots returns the starts on local dates first…last at which the whole visit is offered,
// in order, each with the providers it would get. The starts are the first service's slot grid.
func VisitSlots(ctx context.Context, d *db.DB, now time.Time, locationID int64, segments []VisitSegment, first, last Date, source string) ([]VisitSlot, error) {
	if err := validSource(source); err != nil {
		return nil, err
	}
	if !first.IsValid() || !last.IsValid() || last.Before(first) || last.unixDay()-first.unixDay() > 31 {
		return nil, invalid("start_date", "a range of at most 31 days")
	}
	p, err := loadVisit(ctx, d, locationID, segments, first, last, source, nil)
	if err != nil {
		return nil, err
	}
	p.codesOnly = true // a refused start is left out, whatever the reason
	it := p.items[0]
	s := p.scheds[it.serviceID].Schedule
	if pr, ok := p.processing[it.serviceID]; ok {
		s.Service.Duration = pr[0]
	}
	s.Service.BufferAfter = 0
	if !customerFlow(source) {
		s.Policy.MinNotice, s.Policy.MaxAdvance = 0, 0
	}
	var starts []time.Time
	for _, sl := range Slots(s, first, last, now) {
		if it.providerID == 0 || sl.ProviderID == it.providerID {
			starts = append(starts, sl.Start)
		}
	}
	slices.SortFunc(starts, func(a, b time.Time) int { return a.Compare(b) })
	starts = slices.CompactFunc(starts, func(a, b time.Time) bool { return a.Equal(b) })
	var out []VisitSlot
	for _, t := range starts {
		parts, err := p.layout(t, now)
		if err != nil {
			continue
		}
		out = append(out, visitSlot(parts))
	}
	return out, nil
}

func visitSlot(parts []VisitPart) VisitSlot {
	v := VisitSlot{Start: parts[0].Start, End: parts[len(parts)-1].End, Parts: parts}
	for _, x := range parts {
		price, _, _ := x.price()
		v.PriceCents += price
	}
	return v
}

// NewVisit is a visit to book.
type NewVisit struct {
	LocationID, ClientID int64
	Segments             []VisitSegment
	Start                time.Time
	StatusID             int64 // 1–4, for every booking of the visit
	Notes                *string
	Source               string
	// Hold, when set, runs inside the visit's write transaction once every booking of it is
	// written (in order): what the visit waits for — a payment request covering its total
	// (payments.ReserveVisit) — commits with it or not at all.
	Hold func(ctx context.Context, q *db.Queries, bookings []db.Booking) error
}

// Visit is a booked visit: its bookings in order.
type Visit struct {
	ID         int64
	LocationID int64
	ClientID   int64
	Start, End time.Time
	PriceCents int64
	Bookings   []View
}

// BookVisit books a whole visit in one write transaction: every part passes the rules read
// before it (the slot engine's, as for one booking), then inside it the overlap and resource
// checks of each part, the inserts and their events; the database's triggers check each insert
// once more. One part refused refuses the visit, and nothing is written. The client gets one
// confirmation and one reminder (those of the first booking). Errors are Create's.
func BookVisit(ctx context.Context, d *db.DB, now time.Time, nv NewVisit) (Visit, error) {
	if err := validSource(nv.Source); err != nil {
		return Visit{}, err
	}
	if err := validStatus(nv.StatusID); err != nil {
		return Visit{}, err
	}
	if err := validExtras(nv.Notes, nil); err != nil {
		return Visit{}, err
	}
	if err := validStart(nv.Start); err != nil {
		return Visit{}, err
	}
	r := d.Reader(ctx)
	if err := checkClient(ctx, r, nv.ClientID); err != nil {
		return Visit{}, err
	}
	status, err := r.BookingStatusByID(ctx, nv.StatusID)
	if err != nil {
		return Visit{}, fmt.Errorf("booking status %d: %w", nv.StatusID, err)
	}
	anyone := slices.ContainsFunc(nv.Segments, func(s VisitSegment) bool { return s.ProviderID == 0 })
	for attempt := 0; ; attempt++ {
		visitID, err := writeVisit(ctx, d, now, nv, status)
		switch {
		case err == nil:
			return GetVisit(ctx, d.Reader(ctx), visitID)
		// A provider chosen for "anyone" was taken between the read and the write: the visit
		// is laid out again on what is stored now, which gives that segment the next
		// qualified provider free at its time.
		case anyone && errors.Is(err, ErrSlotUnavailable) && attempt < maxAnyoneRetries:
			continue
		default:
			return Visit{}, err
		}
	}
}

// maxAnyoneRetries bounds how many times a visit whose "anyone" provider was taken in the
// write race is laid out again before it is refused.
const maxAnyoneRetries = 3

// writeVisit lays visit nv out on the schedules as they are stored now and writes it in one
// transaction, returning its id.
func writeVisit(ctx context.Context, d *db.DB, now time.Time, nv NewVisit, status db.BookingStatus) (int64, error) {
	day := DateOf(nv.Start.UTC())
	p, err := loadVisit(ctx, d, nv.LocationID, nv.Segments, day, day, nv.Source, nil)
	if err != nil {
		return 0, err
	}
	parts, err := p.layout(nv.Start, now)
	if err != nil {
		return 0, err
	}
	ms := db.Millis(now)
	var visitID int64
	err = d.InTx(ctx, func(q *db.Queries) error {
		var written []db.Booking
		if err := checkClient(ctx, q, nv.ClientID); err != nil {
			return err
		}
		var err error
		if visitID, err = q.InsertVisit(ctx, db.InsertVisitParams{LocationID: nv.LocationID, ClientID: nv.ClientID, Source: nv.Source, CreatedAt: ms, UpdatedAt: ms}); err != nil {
			return err
		}
		for i, x := range parts {
			if err := checkFree(ctx, q, x.ProviderID, x.blockStart, x.blockEnd, 0); err != nil {
				return err
			}
			if err := checkResources(ctx, q, nv.LocationID, x.ServiceID, x.holdStart, x.blockEnd, 0); err != nil {
				return err
			}
			price, list, discount := x.price()
			b, err := insertBooking(ctx, q, db.InsertBookingParams{
				LocationID: nv.LocationID, ServiceID: x.ServiceID, ProviderID: x.ProviderID, ClientID: nv.ClientID,
				StatusID: nv.StatusID, StartAt: db.Millis(x.Start), EndAt: db.Millis(x.End),
				BlockStartAt: db.Millis(x.blockStart), BlockEndAt: db.Millis(x.blockEnd),
				PriceCents: price, ListPriceCents: list, DiscountBp: discount,
				Notes: nullString(nv.Notes), Source: nv.Source, CreatedAt: ms, UpdatedAt: ms,
			})
			if err != nil {
				return err
			}
			addOnOf := sql.NullInt64{}
			if x.AddOn {
				addOnOf = sql.NullInt64{Int64: int64(x.Segment), Valid: true}
			}
			if err := q.InsertVisitBooking(ctx, db.InsertVisitBookingParams{BookingID: b.ID, VisitID: visitID, Position: int64(positionOf(parts, i)), Part: int64(x.Part), AddonOf: addOnOf, HoldBeforeMs: x.holdBefore()}); err != nil {
				return err
			}
			if err := visitEvent(ctx, q, now, webhook.BookingCreated, db.Booking{}, b, status, p.scheds[x.ServiceID].Location.Zone, i == 0); err != nil {
				return err
			}
			written = append(written, b)
		}
		if nv.Hold != nil {
			return nv.Hold(ctx, q, written)
		}
		return nil
	})
	return visitID, err
}

// positionOf is part i's place among the visit's services (parts of one service share it).
func positionOf(parts []VisitPart, i int) int {
	n := 0
	for j := 1; j <= i; j++ {
		if parts[j].Part == 0 {
			n++
		}
	}
	return n
}

// visitEvent records one booking's change in a visit: its event and activity entry as any
// booking's, and the client's messages only for the first booking, so a visit sends one
// confirmation, one reminder and one notice of each change.
func visitEvent(ctx context.Context, q *db.Queries, now time.Time, eventType string, before, b db.Booking, status db.BookingStatus, zone *time.Location, messagesToo bool) error {
	if messagesToo {
		return enqueue(ctx, q, now, eventType, before, b, status, zone)
	}
	if err := recordActivity(ctx, q, now, before, b); err != nil {
		return err
	}
	_, err := webhook.Enqueue(ctx, q, now, eventType, resource.NewBookingEvent(b, status, zone))
	return err
}

// GetVisit returns visit id with its bookings in order.
func GetVisit(ctx context.Context, q *db.Queries, id int64) (Visit, error) {
	v, err := q.GetVisit(ctx, id)
	if err != nil {
		return Visit{}, notFoundAs(err, "visit")
	}
	ids, err := q.VisitBookingIDs(ctx, id)
	if err != nil {
		return Visit{}, err
	}
	rows, err := q.BookingViews(ctx, ids)
	if err != nil {
		return Visit{}, err
	}
	order := map[int64]int{}
	for i, x := range ids {
		order[x] = i
	}
	slices.SortFunc(rows, func(a, b View) int { return cmp.Compare(order[a.Booking.ID], order[b.Booking.ID]) })
	out := Visit{ID: v.ID, LocationID: v.LocationID, ClientID: v.ClientID, Bookings: rows}
	for _, b := range rows {
		if b.Booking.StatusID == StatusCancelled {
			continue
		}
		if out.Start.IsZero() {
			out.Start = db.Time(b.Booking.StartAt)
		}
		out.End = db.Time(b.Booking.EndAt)
		out.PriceCents += b.Booking.PriceCents
	}
	return out, nil
}

// CancelVisit cancels every live booking of visit id in one transaction. For the customer
// flows the cancel policy applies to the visit's first booking.
func CancelVisit(ctx context.Context, d *db.DB, now time.Time, id int64, source string) error {
	if err := validSource(source); err != nil {
		return err
	}
	r := d.Reader(ctx)
	v, err := GetVisit(ctx, r, id)
	if err != nil {
		return err
	}
	live := liveBookings(v)
	if len(live) == 0 {
		return nil
	}
	pol, err := r.SchedulePolicy(ctx)
	if err != nil {
		return err
	}
	if customerFlow(source) {
		if err := cancelPolicy(pol, live[0].Booking, now); err != nil {
			return err
		}
	}
	status, err := r.BookingStatusByID(ctx, StatusCancelled)
	if err != nil {
		return err
	}
	zone, err := LoadZone(live[0].LocationTimezone)
	if err != nil {
		return err
	}
	by := sql.NullString{String: CancelledByBusiness, Valid: true}
	if customerFlow(source) {
		by.String = CancelledByClient
	}
	return d.InTx(ctx, func(q *db.Queries) error {
		first := true
		for _, x := range live {
			row, err := q.GetBookingRow(ctx, x.Booking.ID)
			if err != nil {
				return notFoundAs(err, "booking")
			}
			if row.StatusID == StatusCancelled {
				continue
			}
			late := !inPolicy(pol, row, now)
			if err := q.CancelBookingRow(ctx, db.CancelBookingRowParams{PackReturned: !late, UpdatedAt: db.Millis(now), CancelledBy: by, CancelledLate: late, ID: row.ID}); err != nil {
				return writeError(err)
			}
			before := row
			row.StatusID, row.UpdatedAt = StatusCancelled, db.Millis(now)
			row.CancelledAt, row.CancelledBy, row.CancelledLate = sql.NullInt64{Int64: db.Millis(now), Valid: true}, by, late
			if err := visitEvent(ctx, q, now, webhook.BookingUpdated, before, row, status, zone, first); err != nil {
				return err
			}
			first = false
		}
		return nil
	})
}

func liveBookings(v Visit) []View {
	return slices.DeleteFunc(slices.Clone(v.Bookings), func(b View) bool { return b.Booking.StatusID == StatusCancelled })
}

// MoveVisit moves every live booking of visit id by the same amount so that it starts at
// start, keeping each one's provider, in one transaction: the rules are checked for every part
// at its new time (the visit's own bookings do not count as busy), then inside the transaction
// each part's overlap and resources, moved in the order that never meets the visit's own
// parts not moved yet.
func MoveVisit(ctx context.Context, d *db.DB, now time.Time, id int64, start time.Time, source string) (Visit, error) {
	if err := validSource(source); err != nil {
		return Visit{}, err
	}
	if err := validStart(start); err != nil {
		return Visit{}, err
	}
	r := d.Reader(ctx)
	v, err := GetVisit(ctx, r, id)
	if err != nil {
		return Visit{}, err
	}
	live := liveBookings(v)
	if len(live) == 0 {
		return Visit{}, invalid("visit", "a cancelled visit cannot be moved")
	}
	if customerFlow(source) {
		if err := editPolicy(ctx, r, now, live[0].Booking, true); err != nil {
			return Visit{}, err
		}
	}
	delta := start.Sub(db.Time(live[0].Booking.StartAt))
	if delta == 0 {
		return v, nil
	}
	day := DateOf(start.UTC())
	mv, err := planMove(ctx, d, v, day, day, source)
	if err != nil {
		return Visit{}, err
	}
	if err := mv.fits(delta, now); err != nil {
		return Visit{}, err
	}
	holdBefore := mv.holdBefore
	status := map[int64]db.BookingStatus{}
	for _, b := range live {
		if _, ok := status[b.Booking.StatusID]; !ok {
			st, err := r.BookingStatusByID(ctx, b.Booking.StatusID)
			if err != nil {
				return Visit{}, err
			}
			status[b.Booking.StatusID] = st
		}
	}
	zone, err := LoadZone(live[0].LocationTimezone)
	if err != nil {
		return Visit{}, err
	}
	order := slices.Clone(live)
	if delta > 0 { // the last part first: it moves into time none of the others holds yet
		slices.Reverse(order)
	}
	err = d.InTx(ctx, func(q *db.Queries) error {
		for _, x := range order {
			row, err := q.GetBookingRow(ctx, x.Booking.ID)
			if err != nil {
				return notFoundAs(err, "booking")
			}
			if row.StatusID == StatusCancelled || row.UpdatedAt != x.Booking.UpdatedAt {
				return ErrConcurrentChange
			}
			next := rowParams(row)
			shift := delta.Milliseconds()
			next.StartAt, next.EndAt = row.StartAt+shift, row.EndAt+shift
			next.BlockStartAt, next.BlockEndAt = row.BlockStartAt+shift, row.BlockEndAt+shift
			next.UpdatedAt = db.Millis(now)
			if customerFlow(source) {
				next.ChangeCount++
			}
			if err := checkFree(ctx, q, row.ProviderID, db.Time(next.BlockStartAt), db.Time(next.BlockEndAt), row.ID); err != nil {
				return err
			}
			if err := checkResources(ctx, q, row.LocationID, row.ServiceID, db.Time(next.BlockStartAt).Add(-holdBefore[row.ID]), db.Time(next.BlockEndAt), row.ID); err != nil {
				return err
			}
			if err := q.UpdateBookingRow(ctx, next); err != nil {
				return writeError(err)
			}
			first := x.Booking.ID == live[0].Booking.ID
			if err := visitEvent(ctx, q, now, webhook.BookingUpdated, row, applied(row, next), status[row.StatusID], zone, first); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Visit{}, err
	}
	return GetVisit(ctx, d.Reader(ctx), id)
}

// visitMove is what checking a visit's move against the rules needs: its live bookings, the
// time each holds its resources before its block, and its plan over the dates the move may
// land on, where the visit's own bookings do not count as busy.
type visitMove struct {
	live       []View
	holdBefore map[int64]time.Duration // booking → resource hold before its block
	plan       *visitPlan
}

// planMove loads what moving visit v to a start on local dates first…last is checked against.
func planMove(ctx context.Context, d *db.DB, v Visit, first, last Date, source string) (*visitMove, error) {
	live := liveBookings(v)
	holdRows, err := d.Reader(ctx).VisitHoldsBefore(ctx, v.ID)
	if err != nil {
		return nil, err
	}
	mv := &visitMove{live: live, holdBefore: map[int64]time.Duration{}}
	for _, h := range holdRows {
		mv.holdBefore[h.BookingID] = time.Duration(h.HoldBeforeMs) * time.Millisecond
	}
	var own []Interval
	var segs []VisitSegment
	for _, b := range live {
		bs, be := db.Time(b.Booking.BlockStartAt), db.Time(b.Booking.BlockEndAt)
		own = append(own, Interval{Start: bs, End: be})
		if hb := mv.holdBefore[b.Booking.ID]; hb > 0 {
			own = append(own, Interval{Start: bs.Add(-hb), End: be})
		}
		segs = append(segs, VisitSegment{ServiceID: b.Booking.ServiceID, ProviderID: b.Booking.ProviderID})
	}
	if mv.plan, err = loadVisit(ctx, d, v.LocationID, segs, first, last, source, own); err != nil {
		return nil, err
	}
	return mv, nil
}

// fits checks the rules for every part of the visit moved by delta, each part as its
// provider's booking of its service at its new time.
func (mv *visitMove) fits(delta time.Duration, now time.Time) error {
	for i, b := range mv.live {
		l := mv.plan.scheds[b.Booking.ServiceID]
		bs, be := db.Time(b.Booking.BlockStartAt).Add(delta), db.Time(b.Booking.BlockEndAt).Add(delta)
		s, e := db.Time(b.Booking.StartAt).Add(delta), db.Time(b.Booking.EndAt).Add(delta)
		if rs := mv.plan.check(l, b.Booking.ProviderID, s, e, s.Sub(bs), be.Sub(e), now); rs.Code != ReasonOK {
			return visitRefusal(rs, visitItem{segment: i}, true)
		}
		if hb := mv.holdBefore[b.Booking.ID]; hb > 0 {
			if rs := resourcesFree(l, bs.Add(-hb), be); rs.Code != ReasonOK {
				return ErrSlotUnavailable
			}
		}
	}
	return nil
}

// VisitMoveSlots returns the slots on local dates first…last to which visit id may be moved
// whole, each a start of its booking anchor with that booking's provider: the slot engine's
// starts for that booking (its step, the notice and advance window for the customer flows),
// kept only where every other live booking of the visit, moved by the same amount, passes the
// rules MoveVisit checks. The visit's own bookings do not count as busy.
func VisitMoveSlots(ctx context.Context, d *db.DB, now time.Time, id, anchor int64, first, last Date, source string) ([]Slot, error) {
	if err := validSource(source); err != nil {
		return nil, err
	}
	if !first.IsValid() || !last.IsValid() || last.Before(first) || last.unixDay()-first.unixDay() > 62 {
		return nil, invalid("start_date", "a range of at most 62 days")
	}
	v, err := GetVisit(ctx, d.Reader(ctx), id)
	if err != nil {
		return nil, err
	}
	mv, err := planMove(ctx, d, v, first, last, source)
	if err != nil {
		return nil, err
	}
	k := slices.IndexFunc(mv.live, func(b View) bool { return b.Booking.ID == anchor })
	if k < 0 {
		return nil, invalid("booking", "booking %d is not a live booking of visit %d", anchor, id)
	}
	b := mv.live[k].Booking
	start, end := db.Time(b.StartAt), db.Time(b.EndAt)
	s := mv.plan.scheds[b.ServiceID].Schedule
	s.Service.Duration = end.Sub(start)
	s.Service.BufferBefore, s.Service.BufferAfter = start.Sub(db.Time(b.BlockStartAt)), db.Time(b.BlockEndAt).Sub(end)
	if !customerFlow(source) {
		s.Policy.MinNotice, s.Policy.MaxAdvance = 0, 0
	}
	var out []Slot
	for _, sl := range Slots(s, first, last, now) {
		if sl.ProviderID == b.ProviderID && mv.fits(sl.Start.Sub(start), now) == nil {
			out = append(out, sl)
		}
	}
	return out, nil
}

// VisitOf returns the visit booking id belongs to, if any.
func VisitOf(ctx context.Context, q *db.Queries, bookingID int64) (int64, bool, error) {
	id, err := q.BookingVisitID(ctx, bookingID)
	if db.IsNotFound(err) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	return id, true, nil
}
