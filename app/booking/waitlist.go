package booking

import (
	"context"
	"errors"
	"fmt"
	"time"

	"frontdesk/app/activity"
	"frontdesk/app/fail"
	"frontdesk/app/messages"
	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// A client may join the waitlist of a full class session. When a seat frees — a cancel, a
// booking moved out of the session, a larger capacity — fillSeats books the first waiting
// client inside the same transaction as the change that freed it, with booking.created, so
// between the two nobody else can take the seat and the queue is served in the order clients
// joined. An entry whose client cannot be booked (deactivated, already seated) is marked
// skipped with the reason and the next one is tried. Seats go to the queue only until the
// owner's cut-off before the session (ClassSettings.WaitlistCutoff); later they stay free for
// anyone, and joining is closed.

// Waitlist entry statuses, mirrored by the CHECK on waitlist_entries.status.
const (
	WaitlistWaiting = "waiting"
	WaitlistBooked  = "booked"
	WaitlistLeft    = "left"
	WaitlistSkipped = "skipped"
)

// Reasons an entry is skipped.
const (
	SkipAlreadyBooked  = "already_booked"
	SkipClientInactive = "client_inactive"
)

// ErrSeatsAvailable refuses a waitlist join for a session that still has a seat: book it.
var ErrSeatsAvailable = fail.Conflict(ConflictSeatsAvailable, "seats_available")

// JoinRequest names the session to wait for — by id, or like a booking by its location,
// class, provider and start — and the client.
type JoinRequest struct {
	SessionID                         int64
	LocationID, ServiceID, ProviderID int64
	Start                             time.Time
	ClientID                          int64
	Source                            string // who adds the client: one of the Source* constants
}

// WaitlistView is an entry with its session and, while waiting, its place in the queue (1 is
// next).
type WaitlistView struct {
	Entry    db.WaitlistEntry
	Session  db.ClassSession
	Position int64
}

// JoinWaitlist puts the client at the end of a full session's waitlist. The customer flow
// (customer flows: the API, the booking site, MCP) may join only a session it could book were a seat free (online booking,
// notice, advance window, …). It owns its transaction, or joins the caller's (db.WithTx), as the
// booking site does to commit the join with the client it matched or created and the visitor's
// personal link. Errors: *NotFoundError (client, session); *InvalidError (the client already has
// a seat or is already waiting, the waitlist is closed, not a session time); ErrSeatsAvailable.
func JoinWaitlist(ctx context.Context, d *db.DB, now time.Time, jr JoinRequest) (WaitlistView, error) {
	// The read-side check: most refusals are answered without queueing for the writer.
	if err := checkJoin(ctx, d, now, &jr); err != nil {
		return WaitlistView{}, err
	}
	var v WaitlistView
	err := d.InTx(ctx, func(q *db.Queries) error {
		var err error
		v, err = joinInTx(ctx, q, now, jr)
		return err
	})
	return v, err
}

// checkJoin checks a join against the offer rules, read through d's reader (the read pool, or
// the joined transaction); it fills in the session's placement when jr names it by id.
func checkJoin(ctx context.Context, d *db.DB, now time.Time, jr *JoinRequest) error {
	q := d.Reader(ctx)
	if err := validSource(jr.Source); err != nil {
		return err
	}
	if err := checkClient(ctx, q, jr.ClientID); err != nil {
		return err
	}
	if jr.SessionID != 0 {
		s, err := q.GetClassSession(ctx, jr.SessionID)
		if err != nil {
			return notFoundAs(err, "session")
		}
		jr.LocationID, jr.ServiceID, jr.ProviderID, jr.Start = s.LocationID, s.ServiceID, s.ProviderID, db.Time(s.StartAt)
	}
	pl, err := place(ctx, d, now, placement{
		LocationID: jr.LocationID, ServiceID: jr.ServiceID, ProviderID: jr.ProviderID, Start: jr.Start,
	}, jr.Source, 0, false)
	switch {
	case err == nil && pl.session == nil:
		return errNotSessionTime()
	case err == nil:
		return ErrSeatsAvailable
	case !errors.Is(err, ErrClassFull):
		return err
	}
	settings, err := GetClassSettings(ctx, q)
	if err != nil {
		return err
	}
	if !now.Before(jr.Start.Add(-settings.WaitlistCutoff)) {
		return invalid("start_time", "waitlist_closed: the waitlist closes %s before the session", human(settings.WaitlistCutoff)).
			with(i18n.M("classes.error.waitlist_closed", "minutes", int64(settings.WaitlistCutoff/time.Minute)))
	}
	return nil
}

// joinInTx writes the entry inside q, checking the session and the seats again there.
func joinInTx(ctx context.Context, q *db.Queries, now time.Time, jr JoinRequest) (WaitlistView, error) {
	s, err := q.ClassSessionAt(ctx, db.ClassSessionAtParams{ProviderID: jr.ProviderID, StartAt: db.Millis(jr.Start), LocationID: jr.LocationID, ServiceID: jr.ServiceID})
	if err != nil {
		return WaitlistView{}, notFoundAs(err, "session")
	}
	if s.Status != SessionScheduled {
		return WaitlistView{}, errSessionCancelled()
	}
	seated, err := q.SessionClientBooking(ctx, db.SessionClientBookingParams{SessionID: nullInt(&s.ID), ClientID: jr.ClientID})
	if err != nil {
		return WaitlistView{}, err
	}
	if len(seated) > 0 {
		return WaitlistView{}, errAlreadySeated()
	}
	seats, err := q.SessionSeats(ctx, s.ID)
	if err != nil {
		return WaitlistView{}, err
	}
	if seats.Booked < seats.Capacity {
		return WaitlistView{}, ErrSeatsAvailable // a seat freed meanwhile with nobody waiting for it
	}
	e, err := q.InsertWaitlistEntry(ctx, db.InsertWaitlistEntryParams{
		SessionID: s.ID, ClientID: jr.ClientID, Source: jr.Source, CreatedAt: db.Millis(now), UpdatedAt: db.Millis(now),
	})
	if db.IsConstraint(err, "waitlist_entries.session_id, waitlist_entries.client_id") {
		return WaitlistView{}, invalid("client_id", "the client is already on the waitlist of this session").with(i18n.M("classes.error.already_waiting"))
	} else if err != nil {
		return WaitlistView{}, fmt.Errorf("join waitlist: %w", err)
	}
	return waitlistView(ctx, q, e)
}

// LeaveWaitlist takes a waiting entry off its list. Leaving twice, or an entry that is no
// longer waiting, is a no-op. Errors: *NotFoundError{"waitlist_entry"}.
func LeaveWaitlist(ctx context.Context, d *db.DB, now time.Time, id int64) error {
	return d.InTx(ctx, func(q *db.Queries) error {
		if _, err := q.GetWaitlistEntry(ctx, id); err != nil {
			return notFoundAs(err, "waitlist_entry")
		}
		_, err := q.LeaveWaitlistEntry(ctx, db.LeaveWaitlistEntryParams{UpdatedAt: db.Millis(now), ID: id})
		return err
	})
}

// GetWaitlistEntry reads one entry with its session and position.
func GetWaitlistEntry(ctx context.Context, q *db.Queries, id int64) (WaitlistView, error) {
	e, err := q.GetWaitlistEntry(ctx, id)
	if err != nil {
		return WaitlistView{}, notFoundAs(err, "waitlist_entry")
	}
	return waitlistView(ctx, q, e)
}

func waitlistView(ctx context.Context, q *db.Queries, e db.WaitlistEntry) (WaitlistView, error) {
	s, err := q.GetClassSession(ctx, e.SessionID)
	if err != nil {
		return WaitlistView{}, fmt.Errorf("session %d: %w", e.SessionID, err)
	}
	v := WaitlistView{Entry: e, Session: s}
	if e.Status == WaitlistWaiting {
		if v.Position, err = q.WaitlistPosition(ctx, db.WaitlistPositionParams{SessionID: e.SessionID, ID: e.ID}); err != nil {
			return WaitlistView{}, err
		}
	}
	return v, nil
}

// fillSeats gives the free seats of session id to its waiting clients, first come first
// served, inside the caller's transaction q — the one that freed the seats. It does nothing
// for a cancelled session or once the session is within the waitlist cut-off.
func fillSeats(ctx context.Context, q *db.Queries, now time.Time, id int64) error {
	s, err := q.GetClassSession(ctx, id)
	if err != nil {
		return fmt.Errorf("session %d: %w", id, err)
	}
	if s.Status != SessionScheduled {
		return nil
	}
	settings, err := GetClassSettings(ctx, q)
	if err != nil {
		return err
	}
	if !now.Before(db.Time(s.StartAt).Add(-settings.WaitlistCutoff)) {
		return nil
	}
	waiting, err := q.WaitingEntries(ctx, id)
	if err != nil || len(waiting) == 0 {
		return err
	}
	seats, err := q.SessionSeats(ctx, id)
	if err != nil {
		return err
	}
	free := seats.Capacity - seats.Booked
	if free <= 0 {
		return nil
	}
	pl, status, err := sessionPlacement(ctx, q, s)
	if err != nil {
		return err
	}
	for _, e := range waiting {
		if free == 0 {
			break
		}
		if c, err := q.BookingClient(ctx, e.ClientID); err != nil {
			return fmt.Errorf("waitlist entry %d client: %w", e.ID, err)
		} else if !c.Active {
			if err := skip(ctx, q, now, e, SkipClientInactive); err != nil {
				return err
			}
			continue
		}
		// The seat is given by the appliance, whoever freed it.
		b, err := book(activity.WithActor(ctx, activity.System("waitlist")), q, now, NewBooking{
			LocationID: s.LocationID, ServiceID: s.ServiceID, ProviderID: s.ProviderID, ClientID: e.ClientID,
			StatusID: StatusConfirmed, Start: db.Time(s.StartAt), Source: e.Source,
		}, pl, status, true, drafted{})
		var inv *InvalidError
		switch {
		case errors.As(err, &inv) && inv.Field == "client_id":
			if err := skip(ctx, q, now, e, SkipAlreadyBooked); err != nil {
				return err
			}
			continue
		case err != nil:
			return fmt.Errorf("waitlist entry %d: %w", e.ID, err)
		}
		if err := q.BookWaitlistEntry(ctx, db.BookWaitlistEntryParams{BookingID: nullInt(&b.ID), UpdatedAt: db.Millis(now), ID: e.ID}); err != nil {
			return fmt.Errorf("waitlist entry %d: %w", e.ID, err)
		}
		if err := promoted(ctx, q, now, e, b); err != nil {
			return err
		}
		free--
	}
	return nil
}

// skip marks a waiting entry skipped; a deactivated client is skipped the same way.
func skip(ctx context.Context, q *db.Queries, now time.Time, e db.WaitlistEntry, reason string) error {
	return q.SkipWaitlistEntry(ctx, db.SkipWaitlistEntryParams{Reason: nullString(&reason), UpdatedAt: db.Millis(now), ID: e.ID})
}

// promoted is called inside the transaction that booked waitlist entry e as booking b, after
// booking.created was written (and with it the booking's messages planned): the client's
// "you got a seat" email is enqueued here, in the same transaction, as the webhook event is
// (app/messages SeatGiven, docs/messages.md).
func promoted(ctx context.Context, q *db.Queries, now time.Time, e db.WaitlistEntry, b db.Booking) error {
	if err := messages.SeatGiven(ctx, q, now, b.ID); err != nil {
		return fmt.Errorf("waitlist entry %d: %w", e.ID, err)
	}
	return nil
}

// sessionPlacement is the placed booking of session s as book needs it, read inside q.
func sessionPlacement(ctx context.Context, q *db.Queries, s db.ClassSession) (placed, db.BookingStatus, error) {
	svc, err := q.ScheduleService(ctx, s.ServiceID)
	if err != nil {
		return placed{}, db.BookingStatus{}, fmt.Errorf("service %d: %w", s.ServiceID, err)
	}
	loc, err := q.ScheduleLocation(ctx, s.LocationID)
	if err != nil {
		return placed{}, db.BookingStatus{}, fmt.Errorf("location %d: %w", s.LocationID, err)
	}
	zone, err := LoadZone(loc.Timezone)
	if err != nil {
		return placed{}, db.BookingStatus{}, err
	}
	status, err := q.BookingStatusByID(ctx, StatusConfirmed)
	if err != nil {
		return placed{}, db.BookingStatus{}, err
	}
	l := Loaded{
		Location: Location{ID: loc.ID, Name: loc.Name, Active: loc.Active, Zone: zone},
		Service:  &svc,
		Provider: &db.BookingProviderRow{ID: s.ProviderID},
	}
	l.Schedule.Service = Service{ID: svc.ID, Capacity: int(svc.Capacity)}
	return placed{
		loaded: l, start: db.Time(s.StartAt), end: db.Time(s.EndAt),
		blockStart: db.Time(s.BlockStartAt), blockEnd: db.Time(s.BlockEndAt),
	}, status, nil
}
