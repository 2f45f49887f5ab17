package booking

import (
	"context"
	"fmt"
	"math"
	"strings"

	"frontdesk/db"
)

// ZoneRange is the instants [Lo, Hi) (Unix ms) that a range of local dates covers in one time
// zone, and the locations that keep that zone.
type ZoneRange struct {
	Lo, Hi      int64
	LocationIDs []int64
}

// LocalDateRanges turns local dates from..to (inclusive; nil = open) into instant ranges, one
// per distinct range: a record's date is the date in its own location's zone, so locations in
// different zones need different ranges. locationID != 0 keeps only that location.
func LocalDateRanges(ctx context.Context, q *db.Queries, locationID int64, from, to *Date) ([]ZoneRange, error) {
	locations, err := q.BookingLocationZones(ctx)
	if err != nil {
		return nil, fmt.Errorf("location zones: %w", err)
	}
	var ranges []ZoneRange
	index := map[[2]int64]int{}
	for _, l := range locations {
		if locationID != 0 && l.ID != locationID {
			continue
		}
		zone, err := LoadZone(l.Timezone)
		if err != nil {
			return nil, fmt.Errorf("location %d: %w", l.ID, err)
		}
		lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
		if from != nil {
			lo = db.Millis(DayStart(zone, *from))
		}
		if to != nil {
			hi = db.Millis(DayStart(zone, to.AddDays(1)))
		}
		i, ok := index[[2]int64{lo, hi}]
		if !ok {
			i = len(ranges)
			index[[2]int64{lo, hi}] = i
			ranges = append(ranges, ZoneRange{Lo: lo, Hi: hi})
		}
		ranges[i].LocationIDs = append(ranges[i].LocationIDs, l.ID)
	}
	return ranges, nil
}

// RangesWhere is the SQL condition "column falls in its location's range" for ranges, with
// its arguments; locationColumn and column are qualified column names. No ranges match nothing.
func RangesWhere(ranges []ZoneRange, locationColumn, column string) (string, []any) {
	if len(ranges) == 0 {
		return "0 = 1", nil
	}
	var parts []string
	var args []any
	for _, r := range ranges {
		parts = append(parts, "("+locationColumn+" IN ("+strings.Repeat(",?", len(r.LocationIDs))[1:]+") AND "+
			column+" >= ? AND "+column+" < ?)")
		for _, id := range r.LocationIDs {
			args = append(args, id)
		}
		args = append(args, r.Lo, r.Hi)
	}
	return "(" + strings.Join(parts, " OR ") + ")", args
}
