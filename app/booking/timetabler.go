package booking

import (
	"context"
	"database/sql"
	"log/slog"
	"time"

	"frontdesk/db"
)

// Timetabler is the background worker that keeps timetable sessions made SessionHorizon ahead
// as days pass (generate.go), and retries dates whose session could not be placed because the
// provider was taken then. Saving an entry makes its sessions at once; this only moves the
// horizon, so it wakes every Every (default an hour).
type Timetabler struct {
	db    *db.DB
	now   func() time.Time
	log   *slog.Logger
	Every time.Duration
}

// NewTimetabler returns the worker over d with the clock now.
func NewTimetabler(d *db.DB, log *slog.Logger, now func() time.Time) *Timetabler {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Timetabler{db: d, now: now, log: log, Every: time.Hour}
}

// Run generates sessions now and then every Every until ctx ends. A failing pass is logged and
// tried again at the next turn.
func (t *Timetabler) Run(ctx context.Context) error {
	ticker := time.NewTicker(t.Every)
	defer ticker.Stop()
	for {
		if _, err := GenerateSessions(ctx, t.db, t.now()); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			t.log.ErrorContext(ctx, "generate class sessions", "err", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ticker.C:
		}
	}
}

// GenerateSessions makes the missing sessions of every running timetable entry from today to
// SessionHorizon ahead. It looks on the read pool first and takes the writer only when some
// date is missing, so the usual hourly pass writes nothing.
func GenerateSessions(ctx context.Context, d *db.DB, now time.Time) (Generated, error) {
	var total Generated
	from := DateOf(now.UTC()).AddDays(-1).String()
	entries, err := d.R.TimetableEntriesFrom(ctx, sql.NullString{String: from, Valid: true})
	if err != nil {
		return total, err
	}
	var due []int64
	for _, r := range entries {
		e := timetableRow(r)
		missing, err := missingDates(ctx, d.R, now, e)
		if err != nil {
			return total, err
		}
		if missing {
			due = append(due, e.ID)
		}
	}
	if len(due) == 0 {
		return total, nil
	}
	err = d.InTx(ctx, func(q *db.Queries) error {
		total = Generated{}
		for _, id := range due {
			g, err := generateAhead(ctx, q, now, id)
			if err != nil {
				return err
			}
			total.Created += g.Created
			total.Clashes = append(total.Clashes, g.Clashes...)
			total.Skipped = append(total.Skipped, g.Skipped...)
		}
		return nil
	})
	return total, err
}

// missingDates reports whether entry e lacks a session row on some date of the horizon where
// it gives one.
func missingDates(ctx context.Context, q *db.Queries, now time.Time, e timetableRow) (bool, error) {
	zone, err := LoadZone(e.Timezone)
	if err != nil {
		return false, err
	}
	first, last := horizon(zone, now)
	have, err := q.TimetableSessionDates(ctx, db.TimetableSessionDatesParams{TimetableID: nullInt(&e.ID), First: first.String(), Last: last.String()})
	if err != nil {
		return false, err
	}
	exists := make(map[string]bool, len(have))
	for _, d := range have {
		exists[d] = true
	}
	d := first.AddDays((int(e.DayID) - int(first.Weekday()) + 7) % 7)
	for ; !d.After(last); d = d.AddDays(7) {
		if _, ok := sessionStart(e, zone, d); ok && !exists[d.String()] {
			return true, nil
		}
	}
	return false, nil
}
