package booking

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"frontdesk/app/fail"
	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// A booking of a class takes a seat in the session that starts at its start_time with its
// provider (sessions.go). Three layers keep a session from overfilling, as for the overlap rule:
// placeSession checks the seats on the read pool (most losers of a race leave without queueing
// for the writer); takeSeat counts them again inside the write transaction; and the
// bookings_session_seat_* triggers refuse the insert or update that would take one seat too
// many (db/migrations/00250_classes.sql). A client holds one seat per session: the same
// three layers, the last a partial unique index.

// ErrClassFull says every seat of the session is taken.
var ErrClassFull = fail.Conflict(ConflictClassFull, "class_full")

// errAlreadySeated is the refusal of a second seat for the same client.
func errAlreadySeated() *InvalidError {
	return invalid("client_id", "the client already has a seat in this session").with(i18n.M("classes.error.already_seated"))
}

// placeSession is place for a class: the booking takes the session that starts at p.Start with
// p.ProviderID, lasting exactly as long. The customer flow gets the offer rules of
// SessionSlots; the owner only needs a session with a seat left. A start with no session is
// refused, except for the owner when a timetable entry gives one there without a row yet
// (takeSeat makes it).
func placeSession(l Loaded, p placement, now time.Time, source string) (placed, error) {
	s := &l.Schedule
	out := placed{loaded: l, start: p.Start}
	i := slices.IndexFunc(s.Sessions, func(x Session) bool {
		return x.ProviderID == p.ProviderID && x.Start.Equal(p.Start) && !x.Cancelled
	})
	if i < 0 {
		prov := sessionProvider(s, p.ProviderID)
		r := Reason{ReasonNotSessionTime, "no session of this class starts then", i18n.M("explain.msg.no_session")}
		if prov != nil {
			r = explainSession(s, prov, p.Start, now)
		}
		if customerFlow(source) || r.Code == ReasonSessionCancelled {
			return placed{}, invalid("start_time", "%s: %s", r.Code, r.Message).with(reasonMsg(r.Code))
		}
		out.end = p.Start.Add(s.Service.Duration)
		out.blockStart, out.blockEnd = out.start.Add(-s.Service.BufferBefore), out.end.Add(s.Service.BufferAfter)
		return out, checkSessionEnd(p, out.end)
	}
	x := s.Sessions[i]
	out.session = &x
	out.end = x.End
	out.blockStart, out.blockEnd = x.Start.Add(-s.Service.BufferBefore), x.End.Add(s.Service.BufferAfter)
	if err := checkSessionEnd(p, out.end); err != nil {
		return placed{}, err
	}
	if !customerFlow(source) {
		if x.SeatsLeft() == 0 {
			return placed{}, ErrClassFull
		}
		return out, nil
	}
	switch r := sessionRule(s, sessionProvider(s, p.ProviderID), &x, now); r.Code {
	case ReasonOK:
		return out, nil
	case ReasonClassFull:
		return placed{}, ErrClassFull
	default:
		return placed{}, invalid("start_time", "%s: %s", r.Code, r.Message).with(reasonMsg(r.Code))
	}
}

// reasonMsg is the catalog message of a reason a class session is not offered.
func reasonMsg(c ReasonCode) i18n.Msg {
	switch c {
	case ReasonNotSessionTime:
		return i18n.M("classes.reason.not_session_time")
	case ReasonSessionCancelled:
		return i18n.M("classes.reason.session_cancelled")
	case ReasonClassFull:
		return i18n.M("classes.reason.class_full")
	case ReasonClosed:
		return i18n.M("classes.reason.closed")
	case ReasonTimeOff:
		return i18n.M("classes.reason.time_off")
	case ReasonNotice:
		return i18n.M("classes.reason.notice")
	case ReasonBeyondAdvance:
		return i18n.M("classes.reason.beyond_advance")
	}
	return i18n.M("classes.reason.other")
}

func errNotSessionTime() *InvalidError {
	return invalid("start_time", "%s: no session of this class starts then", ReasonNotSessionTime).with(i18n.M("classes.reason.not_session_time"))
}

func errSessionCancelled() *InvalidError {
	return invalid("start_time", "%s: the session was cancelled", ReasonSessionCancelled).with(i18n.M("classes.reason.session_cancelled"))
}

// seatedOr is err, except that a full session the client already has a seat in is the
// client's mistake (a second seat), not a conflict.
func seatedOr(ctx context.Context, q *db.Queries, nb NewBooking, err error) error {
	if !errors.Is(err, ErrClassFull) {
		return err
	}
	s, serr := q.ClassSessionAt(ctx, db.ClassSessionAtParams{ProviderID: nb.ProviderID, StartAt: db.Millis(nb.Start), LocationID: nb.LocationID, ServiceID: nb.ServiceID})
	if serr != nil {
		return err
	}
	if seated, serr := q.SessionClientBooking(ctx, db.SessionClientBookingParams{SessionID: nullInt(&s.ID), ClientID: nb.ClientID}); serr == nil && len(seated) > 0 {
		return errAlreadySeated()
	}
	return err
}

// checkSessionEnd refuses an end_time other than the session's own.
func checkSessionEnd(p placement, end time.Time) error {
	if !p.End.IsZero() && !p.End.Equal(end) {
		return invalid("end_time", "a session of this class ends at %s; leave end_time out or send that", end.Format(time.RFC3339)).with(i18n.M("classes.error.session_end"))
	}
	return nil
}

// takeSeat finds, inside the write transaction q, the session the placed booking goes into —
// making it from the timetable when the owner books a time that has no row yet — and checks
// that the client does not already hold a seat there (ignoreID: the booking being moved) and
// that a seat is free. It returns the session's id and sets pl's times to the session's.
func takeSeat(ctx context.Context, q *db.Queries, now time.Time, pl *placed, clientID, ignoreID int64) (int64, error) {
	svc, loc := pl.loaded.Service, pl.loaded.Location
	providerID := pl.loaded.Provider.ID
	row, err := q.ClassSessionAt(ctx, db.ClassSessionAtParams{ProviderID: providerID, StartAt: db.Millis(pl.start), LocationID: loc.ID, ServiceID: svc.ID})
	if db.IsNotFound(err) {
		row, err = sessionFromTimetable(ctx, q, now, loc.ID, svc.ID, providerID, pl.start)
	}
	switch {
	case errors.Is(err, errNoSession):
		return 0, errNotSessionTime()
	case err != nil:
		return 0, err
	case row.Status != SessionScheduled:
		return 0, errSessionCancelled()
	}
	pl.end, pl.blockStart, pl.blockEnd = db.Time(row.EndAt), db.Time(row.BlockStartAt), db.Time(row.BlockEndAt)
	seated, err := q.SessionClientBooking(ctx, db.SessionClientBookingParams{SessionID: nullInt(&row.ID), ClientID: clientID})
	if err != nil {
		return 0, fmt.Errorf("session %d seats: %w", row.ID, err)
	}
	if len(seated) > 0 && seated[0] != ignoreID {
		return 0, errAlreadySeated()
	}
	if len(seated) > 0 {
		return row.ID, nil // the booking keeps the seat it has
	}
	seats, err := q.SessionSeats(ctx, row.ID)
	if err != nil {
		return 0, fmt.Errorf("session %d seats: %w", row.ID, err)
	}
	if seats.Booked >= seats.Capacity {
		return 0, ErrClassFull
	}
	return row.ID, nil
}
