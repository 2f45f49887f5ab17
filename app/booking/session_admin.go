package booking

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"frontdesk/app/activity"
	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// The owner's changes to single sessions: one-off sessions, cancelling and restoring a session
// (or a date of a timetable entry), and a session's own capacity and room.

// SessionInput is a one-off session.
type SessionInput struct {
	LocationID, ServiceID, ProviderID int64
	Start                             time.Time
	Capacity                          int // 0: the class's own
	Room                              string
}

// CreateSession adds a one-off session of a class. Errors: *InvalidError, *NotFoundError,
// ErrSlotUnavailable when the provider is taken then (a booking or another session).
func CreateSession(ctx context.Context, d *db.DB, now time.Time, in SessionInput) (int64, error) {
	if err := validStart(in.Start); err != nil {
		return 0, err
	}
	var id int64
	err := d.InTx(ctx, func(q *db.Queries) error {
		if err := validClass(ctx, q, in.LocationID, in.ServiceID, in.ProviderID, in.Capacity, in.Room); err != nil {
			return err
		}
		loc, err := q.ScheduleLocation(ctx, in.LocationID)
		if err != nil {
			return notFoundAs(err, "location")
		}
		zone, err := LoadZone(loc.Timezone)
		if err != nil {
			return err
		}
		svc, err := q.ClassService(ctx, in.ServiceID)
		if err != nil {
			return notFoundAs(err, "service")
		}
		end := in.Start.Add(time.Duration(svc.DurationMin) * time.Minute)
		ms := db.Millis(now)
		p := db.InsertClassSessionParams{
			LocationID: in.LocationID, ServiceID: in.ServiceID, ProviderID: in.ProviderID,
			LocalDate: DateOf(in.Start.In(zone)).String(), StartAt: db.Millis(in.Start), EndAt: db.Millis(end),
			BlockStartAt: db.Millis(in.Start.Add(-time.Duration(svc.BufferBeforeMin) * time.Minute)),
			BlockEndAt:   db.Millis(end.Add(time.Duration(svc.BufferAfterMin) * time.Minute)),
			Capacity:     capacityValue(in.Capacity), Room: roomValue(in.Room), Status: SessionScheduled,
			CreatedAt: ms, UpdatedAt: ms,
		}
		id, err = q.InsertClassSession(ctx, p)
		if db.IsConstraint(err, "slot_unavailable") {
			return ErrSlotUnavailable
		} else if err != nil {
			return err
		}
		return recordClass(ctx, q, now, "class_session.created", id, activity.Created(p, unrecordedSession...))
	})
	return id, err
}

// CancelSession cancels session id: its waiting clients are taken off the list (skipped,
// "session_cancelled"), every live booking is cancelled with booking.updated (a session paid
// with a pack goes back to it: the business cancelled), and the provider is free again. A
// cancelled session stays cancelled when the timetable is generated again. It returns how many
// bookings were cancelled. Errors: *NotFoundError{"session"}.
func CancelSession(ctx context.Context, d *db.DB, now time.Time, id int64) (int, error) {
	var n int
	err := d.InTx(ctx, func(q *db.Queries) error {
		var err error
		n, err = cancelSession(ctx, q, now, id)
		return err
	})
	return n, err
}

// SkipSessionCancelled is why entries of a cancelled session were skipped.
const SkipSessionCancelled = "session_cancelled"

func cancelSession(ctx context.Context, q *db.Queries, now time.Time, id int64) (int, error) {
	s, err := q.GetClassSession(ctx, id)
	if err != nil {
		return 0, notFoundAs(err, "session")
	}
	if s.Status == SessionCancelled {
		return 0, nil
	}
	waiting, err := q.WaitingEntries(ctx, id)
	if err != nil {
		return 0, err
	}
	for _, e := range waiting {
		if err := skip(ctx, q, now, e, SkipSessionCancelled); err != nil {
			return 0, err
		}
	}
	live, err := q.SessionLiveBookings(ctx, sql.NullInt64{Int64: id, Valid: true})
	if err != nil {
		return 0, err
	}
	if len(live) > 0 {
		status, err := q.BookingStatusByID(ctx, StatusCancelled)
		if err != nil {
			return 0, err
		}
		loc, err := q.ScheduleLocation(ctx, s.LocationID)
		if err != nil {
			return 0, err
		}
		zone, err := LoadZone(loc.Timezone)
		if err != nil {
			return 0, err
		}
		pol, err := q.SchedulePolicy(ctx)
		if err != nil {
			return 0, err
		}
		for _, bid := range live {
			row, err := q.GetBookingRow(ctx, bid)
			if err != nil {
				return 0, err
			}
			c := cancellation{by: CancelledByBusiness, late: !inPolicy(pol, row, now), returned: true}
			if err := cancelRow(ctx, q, now, row, status, zone, c); err != nil {
				return 0, fmt.Errorf("cancel booking %d: %w", bid, err)
			}
		}
	}
	err = q.SetClassSessionStatus(ctx, db.SetClassSessionStatusParams{Status: SessionCancelled, UpdatedAt: db.Millis(now), ID: id})
	if err != nil {
		return 0, err
	}
	ch := activity.Changes{}.Set("status", s.Status, SessionCancelled).Set("local_date", nil, s.LocalDate)
	if len(live) > 0 {
		ch.Set("bookings_cancelled", nil, len(live))
	}
	return len(live), recordClass(ctx, q, now, "class_session.cancelled", id, ch)
}

// CancelTimetableDate cancels the session timetable entry entryID gives on local date d, making
// its row first if generation has not reached d yet (a holiday months ahead); the date then
// stays cancelled. Errors: *NotFoundError, *InvalidError when the entry has no session that
// day.
func CancelTimetableDate(ctx context.Context, d *db.DB, now time.Time, entryID int64, date Date) (int, error) {
	var n int
	err := d.InTx(ctx, func(q *db.Queries) error {
		r, err := q.TimetableEntry(ctx, entryID)
		if err != nil {
			return notFoundAs(err, "timetable_entry")
		}
		e := timetableRow(r)
		zone, err := LoadZone(e.Timezone)
		if err != nil {
			return err
		}
		start, ok := sessionStart(e, zone, date)
		if !ok {
			return invalid("date", "this entry has no session on %s %s", date.Weekday(), date).with(i18n.M("classes.timetable.error.no_session_that_day", "date", date.String()))
		}
		s, err := q.ClassSessionAt(ctx, db.ClassSessionAtParams{ProviderID: e.ProviderID, StartAt: db.Millis(start), LocationID: e.LocationID, ServiceID: e.ServiceID})
		if db.IsNotFound(err) {
			// No row yet (or the session could not be placed): record the date as cancelled.
			p := sessionParams(e, date, start, now)
			p.Status = SessionCancelled
			id, err := q.InsertClassSession(ctx, p)
			if err != nil {
				return err
			}
			return recordClass(ctx, q, now, "class_session.cancelled", id,
				activity.Changes{}.Set("status", nil, SessionCancelled).Set("local_date", nil, p.LocalDate).Set("timetable_id", nil, entryID))
		} else if err != nil {
			return err
		}
		n, err = cancelSession(ctx, q, now, s.ID)
		return err
	})
	return n, err
}

// RestoreSession schedules a cancelled session again, if its provider is still free then
// (ErrSlotUnavailable otherwise). Its former attendees are not booked again.
func RestoreSession(ctx context.Context, d *db.DB, now time.Time, id int64) error {
	return d.InTx(ctx, func(q *db.Queries) error {
		s, err := q.GetClassSession(ctx, id)
		if err != nil {
			return notFoundAs(err, "session")
		}
		if s.Status == SessionScheduled {
			return nil
		}
		err = q.SetClassSessionStatus(ctx, db.SetClassSessionStatusParams{Status: SessionScheduled, UpdatedAt: db.Millis(now), ID: id})
		if db.IsConstraint(err, "slot_unavailable") {
			return ErrSlotUnavailable
		} else if err != nil {
			return err
		}
		return recordClass(ctx, q, now, "class_session.restored", id,
			activity.Changes{}.Set("status", s.Status, SessionScheduled).Set("local_date", nil, s.LocalDate))
	})
}

// SetSessionSeats gives one session its own capacity (0: the class's) and room. A capacity
// below its attendees is refused; new seats go to the waitlist in the same transaction.
func SetSessionSeats(ctx context.Context, d *db.DB, now time.Time, id int64, capacity int, room string) error {
	if capacity < 0 || capacity > 10000 {
		return invalid("capacity", "must be between 1 and 10000, or empty for the class's own").with(i18n.M("classes.error.capacity"))
	}
	if len([]rune(room)) > maxRoom {
		return invalid("room", "at most %d characters", maxRoom).with(i18n.M("classes.error.room", "max", maxRoom))
	}
	return d.InTx(ctx, func(q *db.Queries) error {
		s, err := q.GetClassSession(ctx, id)
		if err != nil {
			return notFoundAs(err, "session")
		}
		seats, err := q.SessionSeats(ctx, id)
		if err != nil {
			return err
		}
		date, err := ParseDate(s.LocalDate)
		if err != nil {
			return err
		}
		after := struct {
			Capacity sql.NullInt64
			Room     sql.NullString
		}{capacityValue(capacity), roomValue(room)}
		if err := setSeats(ctx, q, now, id, after.Capacity, after.Room, seats.Booked, date); err != nil {
			return err
		}
		if ch := activity.Diff(s, after); len(ch) > 0 {
			return recordClass(ctx, q, now, "class_session.updated", id, ch.Set("local_date", nil, s.LocalDate))
		}
		return nil
	})
}

// unrecordedSession are columns the trail leaves out of a new session: besides ids and write
// times, the span its buffers block and its status (a new session is scheduled).
var unrecordedSession = append([]string{"block_start_at", "block_end_at", "status"}, unrecordedClass...)
