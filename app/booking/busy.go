package booking

import (
	"context"

	"frontdesk/db"
)

// The busy blocks of a schedule — the providers' bookings and the class sessions they teach
// over the dates asked about — are most of what a slot search reads, and a busy day is the
// same text for every search until a booking or session of one of those providers changes.
// Triggers raise a counter per provider for every such write, in the writing transaction
// (db/migrations/00330_etag_versions.sql, 00363_sessions_provider_counter.sql), so the text
// read under one sum of those counters is kept until the sum moves: a search then costs one
// indexed read of the counters instead of the blocks. Counters are read before the blocks, so a
// kept text is never older than the counters it is found under.

// busyKey names one busy-blocks text: the schedule base (its providers, for one catalog
// version) and the query's time range and ignored booking.
type busyKey struct {
	base                 *scheduleBase
	since, until, ignore int64
}

// busy returns the packed busy blocks p asks for, through kept when it is not nil (a
// transaction's own writes are not in the counters' committed state, so q of a transaction
// passes nil).
func (b *scheduleBase) busy(ctx context.Context, q *db.Queries, kept *db.CountedCache, p db.ScheduleBusyPackedParams) (string, error) {
	if kept == nil {
		return q.ScheduleBusyPacked(ctx, p)
	}
	v, err := q.ScheduleBusyVersion(ctx, b.ids)
	if err != nil {
		return "", err
	}
	key := busyKey{b, p.Since, p.Until, p.IgnoreBookingID}
	if text, ok := kept.Lookup(key, v); ok {
		return text.(string), nil
	}
	text, err := q.ScheduleBusyPacked(ctx, p)
	if err != nil {
		return "", err
	}
	kept.Store(key, v, text)
	return text, nil
}
