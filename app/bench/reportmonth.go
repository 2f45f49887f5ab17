package bench

import (
	"context"
	"errors"
	"fmt"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/reports"
)

// reportMonth computes Reports for one month of the archive location (seeded by
// list_bookings_100k, so the table holds cfg.Bookings bookings) in-process, against the floor
// of reading that month at all: one SQLite aggregate over the same bookings, interleaved in the
// same run. A report reads both the month and the month before, and the engine's working time.
func reportMonth(ctx context.Context, e *env) ScenarioReport {
	if e.cfg.Bookings <= 0 {
		return unavailable("skipped: --bookings 0")
	}
	now := e.cfg.Now()
	if span, err := e.app.DB.R.BenchLocationSpan(ctx, e.fx.archiveLoc); err != nil {
		return failed(err)
	} else if span.Bookings == 0 { // run alone (--only): seed as list_bookings_100k does
		e.progress("seeding %d bookings", e.cfg.Bookings)
		if err := seedArchive(ctx, e.app.DB, e.fx, e.cfg.Bookings, now); err != nil {
			return failed(err)
		}
	}
	first := booking.Date{Year: now.Year() - 1, Month: now.Month(), Day: 1}
	last := booking.Date{Year: now.Year() - 1, Month: now.Month() + 1, Day: 1}.AddDays(-1)
	if now.Month() == time.December {
		last = booking.Date{Year: now.Year(), Month: time.January, Day: 1}.AddDays(-1)
	}
	q := reports.Query{Range: reports.Range{From: first, To: last}, Location: e.fx.archiveLoc, Zone: time.UTC}
	from, to := booking.DayStart(time.UTC, first).UnixMilli(), booking.DayStart(time.UTC, last.AddDays(1)).UnixMilli()
	const floor = `SELECT count(*), COALESCE(SUM(end_at - start_at), 0) FROM bookings
		WHERE start_at >= ? AND start_at < ? AND location_id = ? AND status_id <> 5`
	var inMonth, ms int64
	if err := e.app.DB.Read.QueryRowContext(ctx, floor, from, to, e.fx.archiveLoc).Scan(&inMonth, &ms); err != nil {
		return failed(err)
	}
	rep, err := reports.Build(ctx, e.app.DB, q)
	if err != nil {
		return failed(err)
	}
	if rep.Current.Outcomes.Total != inMonth || inMonth == 0 {
		return failed(fmt.Errorf("the report counts %d bookings in the month, the table %d", rep.Current.Outcomes.Total, inMonth))
	}
	var res, base Figures
	err = e.profiled("report_month", func() {
		res, base = DrivePair(ctx, e.load, func(ctx context.Context, _ int) (Outcome, error) {
			r, err := reports.Build(ctx, e.app.DB, q)
			if err == nil && r.Current.Outcomes.Total != inMonth {
				err = errors.New("the report's count moved")
			}
			return Succeeded, err
		}, func(ctx context.Context, _ int) (Outcome, error) {
			var n, m int64
			return Succeeded, e.app.DB.Read.QueryRowContext(ctx, floor, from, to, e.fx.archiveLoc).Scan(&n, &m)
		})
	})
	if err != nil {
		return failed(err)
	}
	res.What = fmt.Sprintf("reports.Build: %s to %s at the archive location, and the month before", first, last)
	base.What = "one SQLite aggregate over the same month's bookings"
	return ScenarioReport{Result: &res, Baseline: &base, targets: []target{atLeast("ratio", 0.10, ratioOf)},
		Facts: []Fact{{What: "bookings in the month", Value: float64(inMonth)}, {What: "bookings in the table", Value: float64(e.cfg.Bookings)}}}
}
