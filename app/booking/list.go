package booking

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"frontdesk/db"
)

// Filter selects bookings for GET /v3/bookings. Zero ids and nil pointers do not filter.
type Filter struct {
	ClientID, LocationID, ServiceID, ProviderID int64
	StatusID                                    int64
	Scheduled                                   *bool
	// From and To are local dates, inclusive: a booking matches when it starts on one of those
	// dates in its own location's zone.
	From, To *Date
}

// List returns one page of matching bookings in start order (then id) and how many match in
// all.
//
// The WHERE clause is assembled here rather than in queries/ because it has to name only the
// filters that were given: SQLite plans a statement once, so an "x IS NULL OR col = x" filter
// written for sqlc would keep it off the (client|location|service|provider, start) indexes, and
// counting 100 000 bookings would scan the table. Every value is a bound parameter; only fixed
// column names are ever concatenated, so the texts are few and each is prepared once
// (db.ReadDB). The page itself is then read by id, its names from the catalog cache (names.go).
func List(ctx context.Context, d *db.DB, f Filter, limit, offset int64) ([]View, int64, error) {
	version, err := d.CatalogVersion(ctx) // before anything is read under it (db.CatalogCache)
	if err != nil {
		return nil, 0, fmt.Errorf("catalog version: %w", err)
	}
	where, args, err := listWhere(ctx, d.R, f)
	if err != nil {
		return nil, 0, err
	}
	total, err := count(ctx, d, f, where, args)
	if err != nil {
		return nil, 0, err
	}
	if total == 0 || offset >= total {
		return []View{}, total, nil
	}
	// CAST(? AS INTEGER): see queries/README.md — a bare "LIMIT ?" makes SQLite prepare the
	// statement again on every run (a third of this query's cost).
	rows, err := d.ReadDB().QueryContext(ctx, pageSQL(where), append(args, limit, offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("list bookings: %w", err)
	}
	defer rows.Close()
	ids := make([]int64, 0, limit)
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, 0, err
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	page, err := d.R.BookingPageRows(ctx, ids)
	if err != nil {
		return nil, 0, fmt.Errorf("read bookings: %w", err)
	}
	views, err := pageViews(ctx, d, version, page)
	if err != nil {
		return nil, 0, fmt.Errorf("read bookings: %w", err)
	}
	slices.SortFunc(views, func(a, b View) int {
		return cmp.Or(cmp.Compare(a.Booking.StartAt, b.Booking.StartAt), cmp.Compare(a.Booking.ID, b.Booking.ID))
	})
	return views, total, nil
}

// count answers total_records: from the trigger-maintained booking_counts when the filter is a
// single location, client, service or provider, with or without a status, otherwise by
// counting on the index.
func count(ctx context.Context, d *db.DB, f Filter, where string, args []any) (int64, error) {
	if f.Scheduled == nil && f.From == nil && f.To == nil {
		var kinds []db.BookingCountParams
		for _, k := range []struct {
			kind string
			id   int64
		}{{"location", f.LocationID}, {"client", f.ClientID}, {"service", f.ServiceID}, {"provider", f.ProviderID}} {
			if k.id != 0 {
				kinds = append(kinds, db.BookingCountParams{Kind: k.kind, RefID: k.id, StatusID: f.StatusID})
			}
		}
		if len(kinds) == 1 {
			n, err := d.R.BookingCount(ctx, kinds[0])
			if err != nil {
				return 0, fmt.Errorf("count bookings: %w", err)
			}
			return n, nil
		}
	}
	var n int64
	if err := d.ReadDB().QueryRowContext(ctx, countSQL(where), args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("count bookings: %w", err)
	}
	return n, nil
}

// pageSQL and countSQL are List's statements over a condition from listWhere: one page of ids in
// start order, and how many match (TestListQueriesReadTheIndexes holds them to the indexes).
func pageSQL(where string) string {
	return "SELECT b.id FROM bookings b WHERE " + where +
		" ORDER BY b.start_at, b.id LIMIT CAST(? AS INTEGER) OFFSET CAST(? AS INTEGER)"
}

func countSQL(where string) string { return "SELECT count(*) FROM bookings b WHERE " + where }

func listWhere(ctx context.Context, q *db.Queries, f Filter) (string, []any, error) {
	where := []string{"1 = 1"}
	var args []any
	eq := func(column string, v int64) {
		if v != 0 {
			where = append(where, column+" = ?")
			args = append(args, v)
		}
	}
	eq("b.client_id", f.ClientID)
	eq("b.location_id", f.LocationID)
	eq("b.service_id", f.ServiceID)
	eq("b.provider_id", f.ProviderID)
	eq("b.status_id", f.StatusID)
	if f.Scheduled != nil {
		where = append(where, "b.scheduled = ?")
		args = append(args, *f.Scheduled)
	}
	if f.From != nil || f.To != nil {
		cond, dateArgs, err := dateWhere(ctx, q, f)
		if err != nil {
			return "", nil, err
		}
		where = append(where, cond)
		args = append(args, dateArgs...)
	}
	return strings.Join(where, " AND "), args, nil
}

// dateWhere turns local dates into instant ranges per location zone. When every location
// shares one range (the usual case) it is a plain range on the start index; otherwise that
// outer range still narrows the scan before the per-zone conditions, and a booking in the core
// every zone's range covers matches without them. Ranges have no length limit (a page has one),
// so a range of years must cost what counting its index entries costs: the per-zone conditions
// read the booking's location, which the client, service and provider indexes do not hold, so
// only bookings within a few hours of either end (where the zones disagree) have their row read.
func dateWhere(ctx context.Context, q *db.Queries, f Filter) (string, []any, error) {
	ranges, err := LocalDateRanges(ctx, q, f.LocationID, f.From, f.To)
	if err != nil {
		return "", nil, err
	}
	if len(ranges) == 1 {
		return "b.start_at >= ? AND b.start_at < ?", []any{ranges[0].Lo, ranges[0].Hi}, nil
	}
	cond, args := RangesWhere(ranges, "b.location_id", "b.start_at")
	if len(ranges) == 0 {
		return cond, args, nil
	}
	lo, hi := ranges[0].Lo, ranges[0].Hi         // what some zone's range covers
	coreLo, coreHi := ranges[0].Lo, ranges[0].Hi // what every zone's range covers
	for _, r := range ranges {
		lo, hi = min(lo, r.Lo), max(hi, r.Hi)
		coreLo, coreHi = max(coreLo, r.Lo), min(coreHi, r.Hi)
	}
	if coreLo >= coreHi { // a range shorter than the zones' offsets apart: no core
		return "b.start_at >= ? AND b.start_at < ? AND " + cond, append([]any{lo, hi}, args...), nil
	}
	return "b.start_at >= ? AND b.start_at < ? AND ((b.start_at >= ? AND b.start_at < ?) OR " + cond + ")",
		append([]any{lo, hi, coreLo, coreHi}, args...), nil
}

// DayStart is the first instant of local date d in zone: midnight, or the end of a
// spring-forward gap that swallows midnight (America/Santiago).
func DayStart(zone *time.Location, d Date) time.Time {
	wall := d.unixDay() * secondsPerDay
	c := newClock(zone, wall-2*secondsPerDay, wall+2*secondsPerDay)
	return time.Unix(c.reach(wall), 0).In(zone)
}

// Where is List's condition on bookings b for f, with its arguments, for a reader that walks
// every matching booking itself (app/export, in the same start order).
func Where(ctx context.Context, q *db.Queries, f Filter) (string, []any, error) {
	return listWhere(ctx, q, f)
}
