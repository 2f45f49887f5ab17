package booking

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"frontdesk/db"
)

// A weekly timetable entry becomes class_sessions rows, one per date, so that the database
// itself knows every session (the overlap triggers keep other bookings off the provider, the
// seat triggers count against it). Rows are made for a rolling SessionHorizon ahead — when an
// entry is saved, and then by the Timetabler worker as days pass — and on demand for a date
// outside it (the owner booking a past or far-off session).
//
// Times: an entry's wall time on a date is resolved in the location's zone the way the slot
// engine resolves a wall time (docs/classes.md): a session whose start does not exist that day
// (inside a spring-forward gap) is not held — no row is made and nothing is offered; a start
// that happens twice (a fall-back overlap) is held once, at its first occurrence. A session
// lasts the class's duration in real time.

// SessionHorizon is how far ahead timetable sessions exist as rows.
const SessionHorizon = 366 * 24 * time.Hour

// timetableRow is a timetable entry with what generating its sessions needs (the three sqlc
// row types that read it are the same struct).
type timetableRow = db.TimetableEntryRow

// sessionStart is when entry e's session on local date d starts, or false when it has none that
// day: not its weekday, outside its validity, or a start inside a spring-forward gap.
func sessionStart(e timetableRow, zone *time.Location, d Date) (time.Time, bool) {
	if int64(d.Weekday()) != e.DayID || d.String() < e.ValidFrom || e.ValidTo.Valid && d.String() > e.ValidTo.String {
		return time.Time{}, false
	}
	return WeeklyStart(zone, d, int(e.StartMin))
}

// WeeklyStart is when a weekly session at wall time minute (0–1439) starts on local date d in
// zone: the first instant the clocks read it, or false when a spring-forward skips it.
func WeeklyStart(zone *time.Location, d Date, minute int) (time.Time, bool) {
	at := Instants(zone, d, minute)
	if len(at) == 0 {
		return time.Time{}, false
	}
	return at[0], true
}

// GenerateEntry makes timetable entry id's sessions from today to SessionHorizon ahead, as saving
// the entry does (the Timetabler moves that horizon later). It owns its transaction or joins the
// caller's (db.WithTx): an import writes its entries and their sessions in one.
func GenerateEntry(ctx context.Context, d *db.DB, now time.Time, id int64) (Generated, error) {
	var g Generated
	err := d.InTx(ctx, func(q *db.Queries) error {
		var err error
		g, err = generateAhead(ctx, q, now, id)
		return err
	})
	return g, err
}

// SessionForBooking is the scheduled session a booking of a class at start takes a seat in —
// made from the timetable when no row exists yet (a past date an import records attendees
// for), which is why it writes: it owns its transaction or joins the caller's (db.WithTx).
// Errors: *InvalidError when no session starts then or it was cancelled; ErrSlotUnavailable
// when its provider is taken then.
func SessionForBooking(ctx context.Context, d *db.DB, now time.Time, locationID, serviceID, providerID int64, start time.Time) (int64, error) {
	var id int64
	err := d.InTx(ctx, func(q *db.Queries) error {
		s, err := q.ClassSessionAt(ctx, db.ClassSessionAtParams{ProviderID: providerID, StartAt: db.Millis(start), LocationID: locationID, ServiceID: serviceID})
		if db.IsNotFound(err) {
			s, err = sessionFromTimetable(ctx, q, now, locationID, serviceID, providerID, start)
		}
		switch {
		case errors.Is(err, errNoSession):
			return errNotSessionTime()
		case err != nil:
			return err
		case s.Status != SessionScheduled:
			return errSessionCancelled()
		}
		id = s.ID
		return nil
	})
	return id, err
}

// sessionParams is the row of entry e's session starting at start on local date d.
func sessionParams(e timetableRow, d Date, start time.Time, now time.Time) db.InsertClassSessionParams {
	end := start.Add(time.Duration(e.DurationMin) * time.Minute)
	ms := db.Millis(now)
	return db.InsertClassSessionParams{
		LocationID: e.LocationID, ServiceID: e.ServiceID, ProviderID: e.ProviderID,
		TimetableID: sql.NullInt64{Int64: e.ID, Valid: true}, LocalDate: d.String(),
		StartAt: db.Millis(start), EndAt: db.Millis(end),
		BlockStartAt: db.Millis(start.Add(-time.Duration(e.BufferBeforeMin) * time.Minute)),
		BlockEndAt:   db.Millis(end.Add(time.Duration(e.BufferAfterMin) * time.Minute)),
		Capacity:     e.Capacity, Room: e.Room, Status: SessionScheduled, CreatedAt: ms, UpdatedAt: ms,
	}
}

// Generated says what generating an entry's sessions did.
type Generated struct {
	Created int
	// Clashes are the dates whose session could not be placed because its provider is taken
	// then (a booking of another service or another session); they are tried again later.
	Clashes []Date
	// Skipped are the dates whose start does not exist (a spring-forward gap).
	Skipped []Date
}

// generate makes the missing session rows of entry e on local dates first…last inside the
// caller's transaction q. Dates that have a row (scheduled or cancelled) are left alone.
func generate(ctx context.Context, q *db.Queries, now time.Time, e timetableRow, first, last Date) (Generated, error) {
	var g Generated
	zone, err := LoadZone(e.Timezone)
	if err != nil {
		return g, err
	}
	if from, err := ParseDate(e.ValidFrom); err == nil && first.Before(from) {
		first = from
	}
	if e.ValidTo.Valid {
		if to, err := ParseDate(e.ValidTo.String); err == nil && last.After(to) {
			last = to
		}
	}
	if last.Before(first) {
		return g, nil
	}
	have, err := q.TimetableSessionDates(ctx, db.TimetableSessionDatesParams{TimetableID: sql.NullInt64{Int64: e.ID, Valid: true}, First: first.String(), Last: last.String()})
	if err != nil {
		return g, fmt.Errorf("timetable %d sessions: %w", e.ID, err)
	}
	exists := make(map[string]bool, len(have))
	for _, d := range have {
		exists[d] = true
	}
	// Step to the entry's weekday, then a week at a time.
	d := first.AddDays((int(e.DayID) - int(first.Weekday()) + 7) % 7)
	for ; !d.After(last); d = d.AddDays(7) {
		if exists[d.String()] {
			continue
		}
		start, ok := sessionStart(e, zone, d)
		if !ok {
			g.Skipped = append(g.Skipped, d)
			continue
		}
		_, err := q.InsertClassSession(ctx, sessionParams(e, d, start, now))
		switch {
		case db.IsConstraint(err, "slot_unavailable"):
			g.Clashes = append(g.Clashes, d)
		case err != nil:
			return g, fmt.Errorf("timetable %d session on %s: %w", e.ID, d, err)
		default:
			g.Created++
		}
	}
	return g, nil
}

// horizon is the range of local dates generation covers at now in zone: today to a year on.
func horizon(zone *time.Location, now time.Time) (Date, Date) {
	today := DateOf(now.In(zone))
	return today, DateOf(now.Add(SessionHorizon).In(zone))
}

// errNoSession says a class has no session at the requested time.
var errNoSession = errors.New("no session at that time")

// sessionFromTimetable makes, inside q, the session row a timetable entry of the class gives at
// start, for a date generation has not reached (or has passed): the owner booking a session a
// year and a half ahead, or recording last week's attendee. errNoSession when no entry gives a
// session at start, or its row exists and is cancelled (a cancelled date stays cancelled).
func sessionFromTimetable(ctx context.Context, q *db.Queries, now time.Time, locationID, serviceID, providerID int64, start time.Time) (db.ClassSession, error) {
	entries, err := q.TimetableEntriesOf(ctx, db.TimetableEntriesOfParams{LocationID: locationID, ServiceID: serviceID, ProviderID: providerID})
	if err != nil {
		return db.ClassSession{}, fmt.Errorf("timetable: %w", err)
	}
	for _, r := range entries {
		e := timetableRow(r)
		zone, err := LoadZone(e.Timezone)
		if err != nil {
			return db.ClassSession{}, err
		}
		d := DateOf(start.In(zone))
		if at, ok := sessionStart(e, zone, d); !ok || !at.Equal(start) {
			continue
		}
		if _, err := generate(ctx, q, now, e, d, d); err != nil {
			return db.ClassSession{}, err
		}
		s, err := q.ClassSessionAt(ctx, db.ClassSessionAtParams{ProviderID: providerID, StartAt: db.Millis(start), LocationID: locationID, ServiceID: serviceID})
		if db.IsNotFound(err) {
			return db.ClassSession{}, ErrSlotUnavailable // the provider is taken then: the session could not be placed
		}
		return s, err
	}
	return db.ClassSession{}, errNoSession
}
