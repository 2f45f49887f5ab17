package importer

import (
	"database/sql"
	"fmt"
	"time"

	"frontdesk/app/booking"
	"frontdesk/db"
)

// writeClasses writes the timetable (each entry, its cancelled dates as cancelled sessions,
// and its sessions from the import date to a year ahead, as app/booking makes them) and the
// one-off sessions. A generated session whose provider already has a booking in the database
// then is not made (app/booking retries such dates as days pass); the file's own bookings were
// checked against the file's sessions.
func (w *writer) writeClasses(p *plan) error {
	now := db.Time(w.now)
	for _, e := range p.timetable {
		path := at("timetable", e.index)
		var validTo sql.NullString
		if e.validTo != nil {
			validTo = sql.NullString{String: e.validTo.String(), Valid: true}
		}
		id, err := w.q.InsertTimetableEntry(w.ctx, db.InsertTimetableEntryParams{
			LocationID: w.locations[e.location], ServiceID: w.services[e.service], ProviderID: w.providers[e.provider],
			DayID: e.day, StartMin: e.start, Capacity: e.capacity, Room: e.room,
			ValidFrom: e.validFrom.String(), ValidTo: validTo, CreatedAt: w.now, UpdatedAt: w.now,
		})
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		for _, d := range e.cancelled {
			start, _ := booking.WeeklyStart(p.locations[e.location].zone, d, int(e.start)) // checked by the validator
			row := w.sessionRow(p, e.location, e.service, e.provider, start, e.capacity, e.room)
			row.TimetableID, row.Status = sql.NullInt64{Int64: id, Valid: true}, booking.SessionCancelled
			if _, err := w.q.InsertClassSession(w.ctx, row); err != nil {
				return fmt.Errorf("%s.cancelled %s: %w", path, d, err)
			}
		}
		if _, err := booking.GenerateEntry(w.joined(), w.d, now, id); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if err := w.remember("timetable", e.key, id); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	for _, s := range p.sessions {
		path := at("sessions", s.index)
		id, err := w.q.InsertClassSession(w.ctx, w.sessionRow(p, s.location, s.service, s.provider, s.start, s.capacity, s.room))
		if db.IsConstraint(err, "slot_unavailable") {
			var ps problems
			ps.add(path, "provider %q already has a booking in the database at this time", p.providers[s.provider].key)
			return ps.err()
		}
		if err == nil {
			err = w.remember("session", s.key, id)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

// sessionRow is the class_sessions row of a session of a planned class (the ids of the
// location, service and provider already written).
func (w *writer) sessionRow(p *plan, loc, svc, prov int, start time.Time, capacity sql.NullInt64, room sql.NullString) db.InsertClassSessionParams {
	row := p.services[svc].row
	end := start.Add(time.Duration(row.DurationMin) * time.Minute)
	return db.InsertClassSessionParams{
		LocationID: w.locations[loc], ServiceID: w.services[svc], ProviderID: w.providers[prov],
		LocalDate: booking.DateOf(start.In(p.locations[loc].zone)).String(),
		StartAt:   db.Millis(start), EndAt: db.Millis(end),
		BlockStartAt: db.Millis(start.Add(-time.Duration(row.BufferBeforeMin) * time.Minute)),
		BlockEndAt:   db.Millis(end.Add(time.Duration(row.BufferAfterMin) * time.Minute)),
		Capacity:     capacity, Room: room, Status: booking.SessionScheduled, CreatedAt: w.now, UpdatedAt: w.now,
	}
}

// seat finds (or, for a past date, makes) the session a class booking takes a seat in. A
// cancelled booking keeps the session it was in, cancelled or not, when there is one.
func (w *writer) seat(b bookingPlan, row db.ImportBookingParams) (sql.NullInt64, error) {
	if row.StatusID == statusCancelled {
		s, err := w.q.ClassSessionAt(w.ctx, db.ClassSessionAtParams{ProviderID: row.ProviderID, StartAt: row.StartAt, LocationID: row.LocationID, ServiceID: row.ServiceID})
		if db.IsNotFound(err) {
			return sql.NullInt64{}, nil
		}
		return sql.NullInt64{Int64: s.ID, Valid: err == nil}, err
	}
	id, err := booking.SessionForBooking(w.joined(), w.d, db.Time(w.now), row.LocationID, row.ServiceID, row.ProviderID, db.Time(row.StartAt))
	return sql.NullInt64{Int64: id, Valid: err == nil}, err
}
