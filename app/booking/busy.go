package booking

import (
	"context"
	"fmt"

	"frontdesk/db"
)

// The busy time of a schedule — the providers' bookings, the class sessions they teach, their
// time off and their own calendars' busy blocks over the dates asked about — is most of what a
// slot search reads, and it is the same for every search until one of those changes. Triggers
// raise a counter per provider for every such write, in the writing transaction: the changes
// of the provider's booking_counts rows (db/migrations/00690_booking_counters_folded.sql) for its
// bookings, its sessions_provider counter for the rest (00363 class sessions, 00370 time off,
// 00530 calendar busy blocks and a connection's stale state). So the busy time is kept, parsed,
// in two parts, each under the sum of its own counters (one statement reads both sums): a
// search costs that one indexed read instead of three queries and the parsing of hundreds of
// blocks, and after a new booking — the common write, which moves only the bookings' counters
// — only the bookings are read again. Counters are read before the blocks, so a kept value is
// never older than the counters it is found under.

// busyVersion is one reading of the counters of a base's providers: bookings versions their
// bookings, rest their time off, taught sessions and calendar busy blocks. It is comparable,
// and part of ScheduleVersion.
type busyVersion struct{ bookings, rest int64 }

// bookingsKey names the bookings part of one busy time: the schedule base (its providers, for
// one catalog version), the query's time range and the booking it ignores.
type bookingsKey struct {
	base                 *scheduleBase
	since, until, ignore int64
}

// restKey names the rest of one busy time, which no booking is part of: a search's own range,
// or the span of restSpan's grid it lies in.
type restKey struct {
	base         *scheduleBase
	since, until int64
}

// restTimes is the busy time of a base's providers besides their bookings, indexed like
// base.ids. It may be shared through the counted cache, as the bookings part may, so neither
// is ever modified (their slices have no spare capacity: an append by a user of the schedule
// copies). calendar is what the providers' own calendars hold (calendar_busy, stored by the
// sync worker: a search never asks a calendar server), with the events' summaries where the
// provider allows them (nil where no event is named).
type restTimes struct {
	timeOff, teaching, calendar [][]Interval
	summaries                   [][]string
}

// busyVersion reads the counters that version the busy time of b's providers: theirs alone,
// or, when their ids lie close together, every provider's from the first id to the last
// (ScheduleBusyVersionRange: a sum over more counters still moves whenever one of theirs does,
// and reads in a third of the time). Which of the two is fixed by b's ids, so every reading
// for b is the same sums.
func (b *scheduleBase) busyVersion(ctx context.Context, q *db.Queries) (busyVersion, error) {
	n := len(b.ids)
	if n == 0 {
		return busyVersion{}, nil
	}
	first, last := b.ids[0], b.ids[n-1] // in order (ScheduleProviders)
	if last-first < int64(2*n+8) {
		r, err := q.ScheduleBusyVersionRange(ctx, db.ScheduleBusyVersionRangeParams{FirstID: first, LastID: last})
		return busyVersion{r.Bookings, r.Rest}, err
	}
	r, err := q.ScheduleBusyVersion(ctx, db.ScheduleBusyVersionParams{ProviderIds: b.ids, TeacherIds: b.ids})
	return busyVersion{r.Bookings, r.Rest}, err
}

// busyTimes returns the busy time of b's providers over [since, until): their bookings (but
// ignore) and the rest, each through kept under its part of counter reading v when kept is not
// nil (a transaction's own writes are not in the counters' committed state, so q of a
// transaction passes nil).
//
// With recent, the bookings are those kept under any earlier reading of their counter, or none
// when none is kept (stale says so): a placement's first look (place.go), which the write
// transaction checks again. Creates spread over many days find little kept, and reading each
// day's bookings for the first look would cost more than the placement itself.
func (b *scheduleBase) busyTimes(ctx context.Context, q *db.Queries, kept *db.CountedCache, v busyVersion, since, until, ignore int64, recent bool) (busy [][]Interval, rest *restTimes, stale bool, err error) {
	key := bookingsKey{b, since, until, ignore}
	if kept != nil && recent {
		if value, at, ok := kept.LookupRecent(key); ok {
			busy, stale = value.([][]Interval), at != v.bookings
		} else {
			busy, stale = make([][]Interval, len(b.ids)), true // not read: the transaction checks
		}
	}
	if busy == nil {
		busy, err = keep(kept, key, v.bookings, func() ([][]Interval, error) {
			return b.loadBookings(ctx, q, since, until, ignore)
		})
		if err != nil {
			return nil, nil, false, err
		}
	}
	if kept == nil {
		rest, err := b.loadRest(ctx, q, since, until)
		return busy, rest, false, err
	}
	// Kept twice: the span's reading, and the search's own range cut from it, so a search
	// asked again costs no cut (a span can hold thousands of a synced calendar's blocks).
	rest, err = keep(kept, restKey{b, since, until}, v.rest, func() (*restTimes, error) {
		lo, hi := restWindow(since, until)
		span, err := keep(kept, restKey{b, lo, hi}, v.rest, func() (*restTimes, error) {
			return b.loadRest(ctx, q, lo, hi)
		})
		if err != nil {
			return nil, err
		}
		return span.within(since, until), nil
	})
	if err != nil {
		return nil, nil, false, err
	}
	return busy, rest, stale, nil
}

// within returns the blocks of t that overlap [since, until), as a query for that range reads
// them: t itself when all of them do (no time off, no sessions, no calendar: the common case
// costs no copy).
func (t *restTimes) within(since, until int64) *restTimes {
	in := func(iv Interval) bool { return db.Millis(iv.Start) < until && db.Millis(iv.End) > since }
	all := func(lists [][]Interval) bool {
		for _, l := range lists {
			for _, iv := range l {
				if !in(iv) {
					return false
				}
			}
		}
		return true
	}
	if all(t.timeOff) && all(t.teaching) && all(t.calendar) {
		return t
	}
	filter := func(lists [][]Interval) [][]Interval {
		out := make([][]Interval, len(lists))
		for i, l := range lists {
			for _, iv := range l {
				if in(iv) {
					out[i] = append(out[i], iv)
				}
			}
			out[i] = clip(out[i])
		}
		return out
	}
	out := &restTimes{timeOff: filter(t.timeOff), teaching: filter(t.teaching),
		calendar: make([][]Interval, len(t.calendar)), summaries: make([][]string, len(t.summaries))}
	for i, l := range t.calendar {
		named := false
		for j, iv := range l {
			if !in(iv) {
				continue
			}
			out.calendar[i] = append(out.calendar[i], iv)
			if t.summaries[i] != nil {
				out.summaries[i] = append(out.summaries[i], t.summaries[i][j])
				named = named || t.summaries[i][j] != ""
			}
		}
		out.calendar[i] = clip(out.calendar[i])
		if named {
			out.summaries[i] = out.summaries[i][:len(out.summaries[i]):len(out.summaries[i])]
		} else {
			out.summaries[i] = nil
		}
	}
	return out
}

// restSpan is the grid the rest of a busy time is read and kept on: a search's range widened
// to whole spans of four weeks. The rest changes rarely and is small, while searches ask about
// ever different ranges (each day of the booking site, each service's buffers, each create's
// date): on the grid one reading serves them all until a counter moves. Each search gets just
// the blocks that overlap its own range (restTimes.within), as a reading of that range would.
const restSpan = 28 * 24 * 60 * 60 * 1000

// restWindow returns [since, until) widened to restSpan's grid.
func restWindow(since, until int64) (lo, hi int64) {
	lo = since - since%restSpan
	if since < 0 && since%restSpan != 0 {
		lo -= restSpan
	}
	hi = until - until%restSpan
	if hi < until {
		hi += restSpan
	}
	return lo, hi
}

// keep returns the value kept under key for counter reading v, or loads and keeps it (kept
// nil: loads it).
func keep[T any](kept *db.CountedCache, key any, v int64, load func() (T, error)) (T, error) {
	if kept == nil {
		return load()
	}
	if t, ok := kept.Lookup(key, v); ok {
		return t.(T), nil
	}
	t, err := load()
	if err == nil {
		kept.Store(key, v, t)
	}
	return t, err
}

// loadBookings reads the bookings of b's providers over [since, until) but ignore.
func (b *scheduleBase) loadBookings(ctx context.Context, q *db.Queries, since, until, ignore int64) ([][]Interval, error) {
	packed, err := q.ScheduleBookingsPacked(ctx, db.ScheduleBookingsPackedParams{
		Floor: since - blockLimit.Milliseconds(), Until: until, Since: since,
		IgnoreBookingID: ignore, ProviderIds: b.ids,
	})
	if err != nil {
		return nil, fmt.Errorf("bookings: %w", err)
	}
	busy, _, err := unpack(packed, b.pos)
	if err != nil {
		return nil, fmt.Errorf("bookings: %w", err)
	}
	return busy, nil
}

// loadRest reads the time off, taught sessions and calendar busy blocks of b's providers over
// [since, until).
func (b *scheduleBase) loadRest(ctx context.Context, q *db.Queries, since, until int64) (*restTimes, error) {
	packed, err := q.ScheduleTimeOffPacked(ctx, db.ScheduleTimeOffPackedParams{
		Floor: since - blockLimit.Milliseconds(), Until: until, Since: since,
		TeacherIds: b.ids, ProviderIds: b.ids,
	})
	if err != nil {
		return nil, fmt.Errorf("time off: %w", err)
	}
	t := &restTimes{calendar: make([][]Interval, len(b.ids)), summaries: make([][]string, len(b.ids))}
	if t.timeOff, t.teaching, err = unpack(packed, b.pos); err != nil {
		return nil, fmt.Errorf("time off: %w", err)
	}
	if err := b.loadCalendar(ctx, q, t, since, until); err != nil {
		return nil, err
	}
	return t, nil
}

// unpack parses packed "provider start end" triples (queries/schedule.sql) into blocks per
// provider, indexed like ids (index: id → position): pos those of a provider id, neg those of a negated
// one. Two passes over the text — count each provider's blocks, then fill one array cut into
// exact slices — instead of growing many slices block by block; a provider without blocks has
// nil.
func unpack(packed string, index map[int64]int) (pos, neg [][]Interval, err error) {
	n := len(index)
	counts := make([]int, 2*n)
	total := 0
	slot := func(provider int64) int {
		if provider < 0 {
			return n + index[-provider]
		}
		return index[provider]
	}
	if err := eachTriple(packed, func(provider, _, _ int64) { counts[slot(provider)]++; total++ }); err != nil {
		return nil, nil, err
	}
	lists := make([][]Interval, 2*n)
	blocks := make([]Interval, total)
	for i, c := range counts {
		if c > 0 {
			lists[i], blocks = blocks[:0:c], blocks[c:]
		}
	}
	eachTriple(packed, func(provider, start, end int64) { // parsed once already
		i := slot(provider)
		lists[i] = append(lists[i], Interval{Start: db.Time(start), End: db.Time(end)})
	})
	return lists[:n:n], lists[n:], nil
}

// loadCalendar reads the busy blocks of the providers' own calendars over [since, until).
// Blocks are at most two days long (calendar_busy's CHECK), as bookings are.
func (b *scheduleBase) loadCalendar(ctx context.Context, q *db.Queries, t *restTimes, since, until int64) error {
	rows, err := q.ScheduleCalendarBusy(ctx, db.ScheduleCalendarBusyParams{
		Floor: since - blockLimit.Milliseconds(), Until: until, Since: since, ProviderIds: b.ids,
	})
	if err != nil {
		return fmt.Errorf("calendar busy time: %w", err)
	}
	named := make([]bool, len(b.ids))
	for _, r := range rows {
		i := b.pos[r.ProviderID]
		t.calendar[i] = append(t.calendar[i], Interval{Start: db.Time(r.StartsAt), End: db.Time(r.EndsAt)})
		t.summaries[i] = append(t.summaries[i], r.Summary)
		named[i] = named[i] || r.Summary != ""
	}
	for i := range t.calendar {
		t.calendar[i] = clip(t.calendar[i])
		if named[i] {
			t.summaries[i] = t.summaries[i][:len(t.summaries[i]):len(t.summaries[i])]
		} else {
			t.summaries[i] = nil
		}
	}
	return nil
}

// clip is slices.Clip that keeps nil as nil.
func clip(s []Interval) []Interval { return s[:len(s):len(s)] }
