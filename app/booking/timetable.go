package booking

import (
	"context"
	"database/sql"
	"fmt"
	"time"
	"unicode/utf8"

	"frontdesk/app/activity"
	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// The owner's timetable: weekly entries per location (a class, a provider, a weekday and a
// local start time, an optional capacity and room, valid from/to), one-off sessions, and
// cancelled dates. Every change is one transaction that also brings the session rows up to
// date (generate.go), so what the API offers and what the database enforces change together.

// TimetableInput is a weekly entry as the owner (or an import) gives it.
type TimetableInput struct {
	LocationID, ServiceID, ProviderID int64
	Weekday                           time.Weekday
	StartMin                          int // local wall time, minutes after midnight
	Capacity                          int // 0: the class's own capacity
	Room                              string
	ValidFrom                         Date  // first local date
	ValidTo                           *Date // last local date, inclusive; nil: until further notice
}

// maxRoom bounds a room's name.
const maxRoom = 100

// Changed says what saving a timetable entry did to its sessions.
type Changed struct {
	Generated
	// Kept are sessions with attendees that no longer fit the entry (a new time, provider or
	// end date): they stay as they were, as one-off sessions, for the owner to move or cancel.
	Kept []Date
	// Removed counts future sessions without attendees that were taken away.
	Removed int
}

// CreateTimetableEntry validates in, stores it and makes its sessions for the coming year.
// Errors: *InvalidError naming the field; *NotFoundError for a missing location, service or
// provider.
func CreateTimetableEntry(ctx context.Context, d *db.DB, now time.Time, in TimetableInput) (int64, Changed, error) {
	var id int64
	var ch Changed
	err := d.InTx(ctx, func(q *db.Queries) error {
		if err := validTimetable(ctx, q, in); err != nil {
			return err
		}
		ms := db.Millis(now)
		var err error
		p := db.InsertTimetableEntryParams{
			LocationID: in.LocationID, ServiceID: in.ServiceID, ProviderID: in.ProviderID, DayID: int64(in.Weekday),
			StartMin: int64(in.StartMin), Capacity: capacityValue(in.Capacity), Room: roomValue(in.Room),
			ValidFrom: in.ValidFrom.String(), ValidTo: dateValue(in.ValidTo), CreatedAt: ms, UpdatedAt: ms,
		}
		if id, err = q.InsertTimetableEntry(ctx, p); err != nil {
			return fmt.Errorf("insert timetable entry: %w", err)
		}
		if err := recordClass(ctx, q, now, "timetable_entry.created", id, activity.Created(p, unrecordedClass...)); err != nil {
			return err
		}
		ch.Generated, err = generateAhead(ctx, q, now, id)
		return err
	})
	return id, ch, err
}

// UpdateTimetableEntry changes entry id to in. Its future sessions follow: a session that
// still falls at the same time with the same provider takes the new capacity and room (a
// capacity below a session's attendees is refused, naming the date; a larger one gives the
// new seats to the waitlist); one that no longer fits is removed when nobody booked it, and
// kept as a one-off session when somebody did (Changed.Kept). Dates the entry now covers get
// their sessions. Cancelled dates stay cancelled.
func UpdateTimetableEntry(ctx context.Context, d *db.DB, now time.Time, id int64, in TimetableInput) (Changed, error) {
	var ch Changed
	err := d.InTx(ctx, func(q *db.Queries) error {
		before, err := q.TimetableEntry(ctx, id)
		if err != nil {
			return notFoundAs(err, "timetable_entry")
		}
		if err := validTimetable(ctx, q, in); err != nil {
			return err
		}
		p := db.UpdateTimetableEntryParams{
			LocationID: in.LocationID, ServiceID: in.ServiceID, ProviderID: in.ProviderID, DayID: int64(in.Weekday),
			StartMin: int64(in.StartMin), Capacity: capacityValue(in.Capacity), Room: roomValue(in.Room),
			ValidFrom: in.ValidFrom.String(), ValidTo: dateValue(in.ValidTo), UpdatedAt: db.Millis(now), ID: id,
		}
		if err := q.UpdateTimetableEntry(ctx, p); err != nil {
			return fmt.Errorf("update timetable entry %d: %w", id, err)
		}
		if diff := activity.Diff(before, p, unrecordedClass...); len(diff) > 0 {
			if err := recordClass(ctx, q, now, "timetable_entry.updated", id, diff); err != nil {
				return err
			}
		}
		if ch, err = refit(ctx, q, now, id); err != nil {
			return err
		}
		ch.Generated, err = generateAhead(ctx, q, now, id)
		return err
	})
	return ch, err
}

// DeleteTimetableEntry removes an entry that never had a booking or a waiting client, with its
// sessions. One with history is ended instead (UpdateTimetableEntry with ValidTo), so its
// past sessions keep their attendees. Errors: *NotFoundError, *InvalidError.
func DeleteTimetableEntry(ctx context.Context, d *db.DB, now time.Time, id int64) error {
	return d.InTx(ctx, func(q *db.Queries) error {
		before, err := q.TimetableEntry(ctx, id)
		if err != nil {
			return notFoundAs(err, "timetable_entry")
		}
		history, err := q.EntryHasHistory(ctx, sql.NullInt64{Int64: id, Valid: true})
		if err != nil {
			return err
		}
		if history {
			return invalid("timetable_entry", "its sessions have had bookings: end it (valid to) instead of deleting it").with(i18n.M("classes.timetable.error.history"))
		}
		if err := q.DeleteEntrySessions(ctx, sql.NullInt64{Int64: id, Valid: true}); err != nil {
			return err
		}
		if err := q.DeleteTimetableEntry(ctx, id); err != nil {
			return err
		}
		return recordClass(ctx, q, now, "timetable_entry.deleted", id, removed(before, unrecordedClass...))
	})
}

// refit brings entry id's future scheduled sessions in line with the entry as stored now.
func refit(ctx context.Context, q *db.Queries, now time.Time, id int64) (Changed, error) {
	var ch Changed
	r, err := q.TimetableEntry(ctx, id)
	if err != nil {
		return ch, err
	}
	e := timetableRow(r)
	zone, err := LoadZone(e.Timezone)
	if err != nil {
		return ch, err
	}
	sessions, err := q.EntryFutureSessions(ctx, db.EntryFutureSessionsParams{TimetableID: sql.NullInt64{Int64: id, Valid: true}, After: db.Millis(now)})
	if err != nil {
		return ch, err
	}
	ms := db.Millis(now)
	for _, s := range sessions {
		date, err := ParseDate(s.LocalDate)
		if err != nil {
			return ch, err
		}
		start, ok := sessionStart(e, zone, date)
		fits := ok && db.Millis(start) == s.StartAt && s.ProviderID == e.ProviderID &&
			s.LocationID == e.LocationID && s.ServiceID == e.ServiceID &&
			db.Millis(start.Add(time.Duration(e.DurationMin)*time.Minute)) == s.EndAt
		switch {
		case fits:
			if err := setSeats(ctx, q, now, s.ID, e.Capacity, e.Room, s.Booked, date); err != nil {
				return ch, err
			}
		case s.Booked > 0:
			ch.Kept = append(ch.Kept, date)
			err = q.DetachClassSession(ctx, db.DetachClassSessionParams{Status: SessionScheduled, UpdatedAt: ms, ID: s.ID})
		case s.Referenced:
			// Only cancelled bookings or closed waitlist entries: history, not attendees.
			ch.Removed++
			err = q.DetachClassSession(ctx, db.DetachClassSessionParams{Status: SessionCancelled, UpdatedAt: ms, ID: s.ID})
		default:
			ch.Removed++
			err = q.DeleteClassSession(ctx, s.ID)
		}
		if err != nil {
			return ch, fmt.Errorf("session %d: %w", s.ID, err)
		}
	}
	return ch, nil
}

// setSeats gives a session a new capacity (null: the class's) and room, refusing a capacity
// below its attendees; new seats go to the waitlist.
func setSeats(ctx context.Context, q *db.Queries, now time.Time, id int64, capacity sql.NullInt64, room sql.NullString, booked int64, date Date) error {
	if capacity.Valid && capacity.Int64 < booked {
		return invalid("capacity", "the session on %s has %d attendees; cancel some first or choose a capacity of at least %d", date, booked, booked).
			with(i18n.M("classes.error.capacity_below", "date", date.String(), "count", booked))
	}
	if err := q.SetClassSessionSeats(ctx, db.SetClassSessionSeatsParams{Capacity: capacity, Room: room, UpdatedAt: db.Millis(now), ID: id}); err != nil {
		return err
	}
	seats, err := q.SessionSeats(ctx, id)
	if err != nil {
		return err
	}
	if seats.Capacity < booked {
		return invalid("capacity", "the session on %s has %d attendees, more than the class's capacity of %d", date, booked, seats.Capacity).
			with(i18n.M("classes.error.capacity_below", "date", date.String(), "count", booked))
	}
	return fillSeats(ctx, q, now, id)
}

// generateAhead makes entry id's sessions from today to SessionHorizon ahead.
func generateAhead(ctx context.Context, q *db.Queries, now time.Time, id int64) (Generated, error) {
	r, err := q.TimetableEntry(ctx, id)
	if err != nil {
		return Generated{}, err
	}
	zone, err := LoadZone(r.Timezone)
	if err != nil {
		return Generated{}, err
	}
	first, last := horizon(zone, now)
	return generate(ctx, q, now, timetableRow(r), first, last)
}

// validTimetable checks an entry against the catalog, inside the writing transaction.
func validTimetable(ctx context.Context, q *db.Queries, in TimetableInput) error {
	switch {
	case in.Weekday < time.Sunday || in.Weekday > time.Saturday:
		return invalid("day", "must be a day of the week").with(i18n.M("classes.timetable.error.day"))
	case in.StartMin < 0 || in.StartMin >= 24*60:
		return invalid("start", "must be a time of day between 00:00 and 23:59").with(i18n.M("classes.timetable.error.start"))
	case !in.ValidFrom.IsValid():
		return invalid("valid_from", "must be a date").with(i18n.M("classes.timetable.error.date"))
	case in.ValidTo != nil && (!in.ValidTo.IsValid() || in.ValidTo.Before(in.ValidFrom)):
		return invalid("valid_to", "must be a date on or after valid_from").with(i18n.M("classes.timetable.error.valid_to"))
	}
	return validClass(ctx, q, in.LocationID, in.ServiceID, in.ProviderID, in.Capacity, in.Room)
}

// validClass checks what timetable entries and one-off sessions share: the location exists,
// the service is a class, the provider works at the location and gives the class, and the
// capacity and room are sensible.
func validClass(ctx context.Context, q *db.Queries, locationID, serviceID, providerID int64, capacity int, room string) error {
	if _, err := q.ScheduleLocation(ctx, locationID); err != nil {
		return notFoundAs(err, "location")
	}
	svc, err := q.ClassService(ctx, serviceID)
	if err != nil {
		return notFoundAs(err, "service")
	}
	if svc.Capacity < 2 {
		return invalid("service_id", "%s is not a class: give it a capacity above 1 first", svc.Name).with(i18n.M("classes.timetable.error.not_a_class", "service", svc.Name))
	}
	p, err := q.ClassProvider(ctx, db.ClassProviderParams{LocationID: locationID, ServiceID: serviceID, ProviderID: providerID})
	switch {
	case err != nil:
		return notFoundAs(err, "provider")
	case !p.WorksThere:
		return invalid("provider_id", "the provider does not work at this location").with(i18n.M("classes.timetable.error.provider_location"))
	case !p.OffersService:
		return invalid("provider_id", "the provider does not give this class").with(i18n.M("classes.timetable.error.provider_class"))
	case capacity < 0 || capacity > 10000:
		return invalid("capacity", "must be between 1 and 10000, or empty for the class's own (%d)", svc.Capacity).with(i18n.M("classes.error.capacity"))
	case utf8.RuneCountInString(room) > maxRoom:
		return invalid("room", "at most %d characters", maxRoom).with(i18n.M("classes.error.room", "max", maxRoom))
	}
	return nil
}

func capacityValue(n int) sql.NullInt64 {
	if n == 0 {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: int64(n), Valid: true}
}

func roomValue(s string) sql.NullString {
	if s == "" {
		return sql.NullString{}
	}
	return sql.NullString{String: s, Valid: true}
}

func dateValue(d *Date) sql.NullString {
	if d == nil {
		return sql.NullString{}
	}
	return sql.NullString{String: d.String(), Valid: true}
}

// unrecordedClass are columns the activity trail leaves out of timetable and session entries:
// ids, the times every write moves, and what the entry reads from its location and class.
var unrecordedClass = []string{"id", "created_at", "updated_at", "timezone", "duration_min", "buffer_before_min", "buffer_after_min"}

// recordClass writes the activity entry of a change to the timetable (entity timetable_entry)
// or to one session (entity class_session) inside its transaction q.
func recordClass(ctx context.Context, q *db.Queries, now time.Time, action string, id int64, ch activity.Changes) error {
	return activity.Record(ctx, q, now, activity.Entry{Action: action, EntityID: id, Changes: ch})
}

// removed is what a deleted row held, each field as [value, nil].
func removed(before any, skip ...string) activity.Changes {
	c := activity.Changes{}
	for name, v := range activity.Created(before, skip...) {
		c[name] = [2]any{v[1], nil}
	}
	return c
}
