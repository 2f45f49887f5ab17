package booking

import (
	"context"
	"fmt"

	"frontdesk/db"
)

// The busy time of a schedule — the providers' bookings, the class sessions they teach and
// their time off over the dates asked about — is most of what a slot search reads, and it is
// the same for every search until a booking, session or time off of one of those providers
// changes. Triggers raise a counter per provider for every such write, in the writing
// transaction (db/migrations/00330_etag_versions.sql, 00363_sessions_provider_counter.sql,
// 00370_time_off_counter.sql), so the busy time read under one sum of those counters
// is kept, parsed, until the sum moves: a search then costs one indexed read of the counters
// instead of two queries and the parsing of hundreds of blocks. Counters are read before the
// blocks, so a kept value is never older than the counters it is found under.

// busyKey names one busy time: the schedule base (its providers, for one catalog version) and
// the query's time range and ignored booking.
type busyKey struct {
	base                 *scheduleBase
	since, until, ignore int64
}

// busyTimes is the busy time of a base's providers, indexed like base.ids. It may be shared
// through the counted cache, so its slices are never modified (they have no spare capacity:
// an append by a user of the schedule copies). calendar is what the providers' own calendars
// hold (calendar_busy, stored by the sync worker: a search never asks a calendar server), with
// the events' summaries where the provider allows them (nil where no event is named).
type busyTimes struct {
	timeOff, busy, teaching, calendar [][]Interval
	summaries                         [][]string
}

// busyVersion reads the counters that version the busy time of b's providers: theirs alone,
// or, when their ids lie close together, every provider's from the first id to the last
// (ScheduleBusyVersionRange: a sum over more counters still moves whenever one of theirs does,
// and reads in a third of the time). Which of the two is fixed by b's ids, so every reading
// for b is the same sum.
func (b *scheduleBase) busyVersion(ctx context.Context, q *db.Queries) (int64, error) {
	n := len(b.ids)
	if n == 0 {
		return 0, nil
	}
	first, last := b.ids[0], b.ids[n-1] // in order (ScheduleProviders)
	if last-first < int64(2*n+8) {
		return q.ScheduleBusyVersionRange(ctx, db.ScheduleBusyVersionRangeParams{FirstID: first, LastID: last})
	}
	return q.ScheduleBusyVersion(ctx, db.ScheduleBusyVersionParams{ProviderIds: b.ids, TeacherIds: b.ids})
}

// busyTimes returns the busy time of b's providers over [since, until), through kept under
// counter reading v when kept is not nil (a transaction's own writes are not in the counters'
// committed state, so q of a transaction passes nil).
func (b *scheduleBase) busyTimes(ctx context.Context, q *db.Queries, kept *db.CountedCache, v int64, since, until, ignore int64) (*busyTimes, error) {
	if kept == nil {
		return b.loadBusy(ctx, q, since, until, ignore)
	}
	key := busyKey{b, since, until, ignore}
	if t, ok := kept.Lookup(key, v); ok {
		return t.(*busyTimes), nil
	}
	t, err := b.loadBusy(ctx, q, since, until, ignore)
	if err != nil {
		return nil, err
	}
	kept.Store(key, v, t)
	return t, nil
}

// loadBusy reads the time off and the busy blocks of b's providers over [since, until).
func (b *scheduleBase) loadBusy(ctx context.Context, q *db.Queries, since, until, ignore int64) (*busyTimes, error) {
	n := len(b.ids)
	t := &busyTimes{timeOff: make([][]Interval, n), busy: make([][]Interval, n), teaching: make([][]Interval, n),
		calendar: make([][]Interval, n), summaries: make([][]string, n)}
	index := make(map[int64]int, n)
	for i, id := range b.ids {
		index[id] = i
	}
	off, err := q.ScheduleTimeOff(ctx, db.ScheduleTimeOffParams{Until: until, Since: since, ProviderIds: b.ids})
	if err != nil {
		return nil, fmt.Errorf("time off: %w", err)
	}
	for _, r := range off {
		i := index[r.ProviderID]
		t.timeOff[i] = append(t.timeOff[i], Interval{Start: db.Time(r.StartsAt), End: db.Time(r.EndsAt)})
	}
	for i := range t.timeOff {
		t.timeOff[i] = clip(t.timeOff[i])
	}
	if err := t.loadCalendar(ctx, q, index, since, until); err != nil {
		return nil, err
	}
	packed, err := q.ScheduleBusyPacked(ctx, db.ScheduleBusyPackedParams{
		Floor: since - blockLimit.Milliseconds(), Until: until, Since: since,
		IgnoreBookingID: ignore, ProviderIds: b.ids, TeacherIds: b.ids,
	})
	if err != nil {
		return nil, fmt.Errorf("bookings: %w", err)
	}
	// Two passes over the text: count each provider's blocks, then fill one array cut into
	// exact slices, instead of growing many slices block by block. A negative provider id is a
	// class session the provider gives (queries/schedule.sql): it goes to teaching.
	counts := make([]int, 2*n)
	total := 0
	slot := func(provider int64) int {
		if provider < 0 {
			return n + index[-provider]
		}
		return index[provider]
	}
	if err := eachTriple(packed, func(provider, _, _ int64) { counts[slot(provider)]++; total++ }); err != nil {
		return nil, fmt.Errorf("bookings: %w", err)
	}
	blocks := make([]Interval, total)
	for i, c := range counts {
		if c == 0 {
			continue
		}
		if i < n {
			t.busy[i], blocks = blocks[:0:c], blocks[c:]
		} else {
			t.teaching[i-n], blocks = blocks[:0:c], blocks[c:]
		}
	}
	eachTriple(packed, func(provider, start, end int64) { // parsed once already
		iv := Interval{Start: db.Time(start), End: db.Time(end)}
		if i := slot(provider); i >= n {
			t.teaching[i-n] = append(t.teaching[i-n], iv)
		} else {
			t.busy[i] = append(t.busy[i], iv)
		}
	})
	return t, nil
}

// loadCalendar reads the busy blocks of the providers' own calendars over [since, until).
// Blocks are at most two days long (calendar_busy's CHECK), as bookings are.
func (t *busyTimes) loadCalendar(ctx context.Context, q *db.Queries, index map[int64]int, since, until int64) error {
	ids := make([]int64, len(index))
	for id, i := range index {
		ids[i] = id
	}
	rows, err := q.ScheduleCalendarBusy(ctx, db.ScheduleCalendarBusyParams{
		Floor: since - blockLimit.Milliseconds(), Until: until, Since: since, ProviderIds: ids,
	})
	if err != nil {
		return fmt.Errorf("calendar busy time: %w", err)
	}
	named := make([]bool, len(ids))
	for _, r := range rows {
		i := index[r.ProviderID]
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
