package booking

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"frontdesk/app/activity"
	"frontdesk/app/fail"
	"frontdesk/app/messages"
	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// The waitlist for appointments: a client asks to be told when a time opens for a service at
// a location — with one provider or anyone — on a range of local days. When a cancel or a move
// frees a time (offerFreedTime, in the same transaction as the change), the first few waiting
// clients it suits get an offer each: a personal claim link sent through the customer-message
// queue. Claiming books the time through the engine (Prepare, then Book: the overlap check in
// the write transaction and the trigger), so of two claimers of one time only one can book;
// the other is told it is gone and shown other free times. Unlike a class seat, the freed time
// is not given away by itself: the client may no longer want it.

// Appointment wait statuses, mirrored by the CHECK on appointment_waits.status.
const (
	WaitWaiting = "waiting"
	WaitBooked  = "booked"
	WaitLeft    = "left"
)

// Offer statuses, mirrored by the CHECK on appointment_offers.status.
const (
	OfferOpen    = "open"
	OfferClaimed = "claimed"
	OfferGone    = "gone"
)

// OfferFanout is how many waiting clients one freed time is offered to; offerTTL how long a
// claim link stays good (and never past the time's start).
const (
	OfferFanout = 3
	offerTTL    = 24 * time.Hour
	maxWaitDays = 92
)

// ConflictOfferGone is the reason of a claim refused because the time is no longer free.
const ConflictOfferGone = "offer_gone"

// WaitRequest is a client asking for a time: a service at a location, a provider or anyone
// (ProviderID 0), and the local days First to Last.
type WaitRequest struct {
	LocationID, ServiceID, ProviderID, ClientID int64
	First, Last                                 Date
	Source                                      string
}

// OfferGoneError refuses a claim whose time someone else took (or that expired): Alternatives
// are other free times for the same request, at most a handful.
type OfferGoneError struct {
	Alternatives []Slot
}

func (e *OfferGoneError) Error() string { return "the time offered is no longer free" }

// Fail is the refusal as the shared vocabulary says it.
func (e *OfferGoneError) Fail() *fail.Error {
	return &fail.Error{Code: fail.CodeConflict, Reason: ConflictOfferGone, Message: e.Error(), Msg: i18n.M("booking.wait.gone")}
}

// JoinAppointmentWaitlist records wr. The records must exist and suit each other (the provider
// offers the service at the location; for the customer flows, both bookable online); the days
// run from today, in the location's zone, for at most 92 days; a client waits once for the
// same thing. Errors: *NotFoundError, *InvalidError.
func JoinAppointmentWaitlist(ctx context.Context, d *db.DB, now time.Time, wr WaitRequest) (db.AppointmentWait, error) {
	if err := validSource(wr.Source); err != nil {
		return db.AppointmentWait{}, err
	}
	q := d.Reader(ctx)
	if err := checkClient(ctx, q, wr.ClientID); err != nil {
		return db.AppointmentWait{}, err
	}
	if !wr.First.IsValid() || !wr.Last.IsValid() {
		return db.AppointmentWait{}, invalid("first_date", "want two dates, YYYY-MM-DD")
	}
	day := wr.First
	l, err := LoadScheduleCached(ctx, d, ScheduleQuery{LocationID: wr.LocationID, ServiceID: wr.ServiceID, ProviderID: wr.ProviderID,
		First: day, Last: day, OnlineOnly: customerFlow(wr.Source)})
	if err != nil {
		return db.AppointmentWait{}, err
	}
	if wr.ProviderID != 0 {
		if err := bookable(l, wr.Source); err != nil {
			return db.AppointmentWait{}, err
		}
	} else if !l.Location.Active || !l.Service.Active || (customerFlow(wr.Source) && !l.Service.OnlineBooking) {
		return db.AppointmentWait{}, invalid("service_id", "the service is not bookable here")
	}
	if l.Schedule.Service.IsClass() {
		return db.AppointmentWait{}, invalid("service_id", "a class has its own waitlist per session")
	}
	today := DateOf(now.In(l.Location.Zone))
	switch {
	case wr.First.Before(today):
		return db.AppointmentWait{}, invalid("first_date", "is in the past")
	case wr.Last.Before(wr.First):
		return db.AppointmentWait{}, invalid("last_date", "is before first_date")
	case wr.Last.unixDay()-wr.First.unixDay() >= maxWaitDays:
		return db.AppointmentWait{}, invalid("last_date", "a wait covers at most %d days", maxWaitDays)
	}
	var w db.AppointmentWait
	err = d.InTx(ctx, func(q *db.Queries) error {
		mine, err := q.ClientAppointmentWaits(ctx, wr.ClientID)
		if err != nil {
			return err
		}
		for _, m := range mine {
			if m.LocationID == wr.LocationID && m.ServiceID == wr.ServiceID && m.ProviderID.Int64 == wr.ProviderID &&
				m.FirstDay <= wr.Last.String() && wr.First.String() <= m.LastDay {
				return invalid("client_id", "the client is already waiting for this")
			}
		}
		ms := db.Millis(now)
		w, err = q.InsertAppointmentWait(ctx, db.InsertAppointmentWaitParams{
			ClientID: wr.ClientID, LocationID: wr.LocationID, ServiceID: wr.ServiceID,
			ProviderID: sql.NullInt64{Int64: wr.ProviderID, Valid: wr.ProviderID != 0},
			FirstDay:   wr.First.String(), LastDay: wr.Last.String(), Source: wr.Source, CreatedAt: ms, UpdatedAt: ms,
		})
		if err != nil {
			return err
		}
		return activity.Record(ctx, q, now, activity.Entry{Action: ActionWaitJoined, EntityID: w.ID, Changes: activity.Created(w, "id", "created_at", "updated_at")})
	})
	return w, err
}

// The activity trail's actions of the waitlist for appointments (entity appointment_wait, the
// wait's id): a client joins, a claim link is sent for a freed time, a claim books it, a link
// is found past its time (when it is used: nothing runs at the moment it lapses), a client
// leaves.
const (
	ActionWaitJoined       = "appointment_wait.joined"
	ActionWaitOfferSent    = "appointment_wait.offer_sent"
	ActionWaitClaimed      = "appointment_wait.claimed"
	ActionWaitOfferExpired = "appointment_wait.offer_expired"
	ActionWaitLeft         = "appointment_wait.left"
)

// offerChanges are what the trail says of an offer of wait: which offer, and its time.
func offerChanges(offerID int64, start int64, booking int64) activity.Changes {
	c := activity.Changes{"offer_id": {nil, offerID}, "start_at": {nil, db.Time(start).UTC().Format(time.RFC3339)}}
	if booking != 0 {
		c["booking_id"] = [2]any{nil, booking}
	}
	return c
}

// GetAppointmentWait returns wait id.
func GetAppointmentWait(ctx context.Context, q *db.Queries, id int64) (db.AppointmentWait, error) {
	w, err := q.GetAppointmentWait(ctx, id)
	if err != nil {
		return db.AppointmentWait{}, notFoundAs(err, "wait")
	}
	return w, nil
}

// LeaveAppointmentWaitlist takes wait id off the waitlist; leaving twice, or after booking,
// changes nothing.
func LeaveAppointmentWaitlist(ctx context.Context, d *db.DB, now time.Time, id int64) (db.AppointmentWait, error) {
	var w db.AppointmentWait
	err := d.InTx(ctx, func(q *db.Queries) error {
		n, err := q.LeaveAppointmentWait(ctx, db.LeaveAppointmentWaitParams{UpdatedAt: db.Millis(now), ID: id})
		if err != nil {
			return err
		}
		if w, err = GetAppointmentWait(ctx, q, id); err != nil || n == 0 {
			return err
		}
		return activity.Record(ctx, q, now, activity.Entry{Action: ActionWaitLeft, EntityID: id, Changes: activity.Changes{"status": {WaitWaiting, WaitLeft}}})
	})
	return w, err
}

// offerFreedTime offers the time booking freed — cancelled, or moved away — to the first
// OfferFanout waits it suits, inside the transaction of the change: an offer row and a claim
// link message each. A class seat has its own waitlist (fillSeats); a time already started is
// offered to nobody.
func offerFreedTime(ctx context.Context, q *db.Queries, now time.Time, freed db.Booking, zone *time.Location) error {
	start := db.Time(freed.StartAt)
	if freed.SessionID.Valid || !start.After(now) {
		return nil
	}
	waits, err := q.WaitsForFreedTime(ctx, db.WaitsForFreedTimeParams{
		LocationID: freed.LocationID, ServiceID: freed.ServiceID, ProviderID: sql.NullInt64{Int64: freed.ProviderID, Valid: true},
		Day: DateOf(start.In(zone)).String(), StartAt: freed.StartAt, Limit: OfferFanout,
	})
	if err != nil {
		return fmt.Errorf("waits for a freed time: %w", err)
	}
	expires := min(db.Millis(now.Add(offerTTL)), freed.StartAt)
	for _, w := range waits {
		token, hash, err := newOfferToken()
		if err != nil {
			return err
		}
		o, err := q.InsertAppointmentOffer(ctx, db.InsertAppointmentOfferParams{
			WaitID: w.ID, TokenHash: hash, LocationID: freed.LocationID, ServiceID: freed.ServiceID, ProviderID: freed.ProviderID,
			StartAt: freed.StartAt, EndAt: freed.EndAt, CreatedAt: db.Millis(now), ExpiresAt: expires,
		})
		if err != nil {
			return fmt.Errorf("offer: %w", err)
		}
		if err := messages.OfferMade(ctx, q, now, o.ID, w.ClientID, token); err != nil {
			return err
		}
		if err := activity.Record(ctx, q, now, activity.Entry{Action: ActionWaitOfferSent, EntityID: w.ID, Changes: offerChanges(o.ID, o.StartAt, 0)}); err != nil {
			return err
		}
	}
	return nil
}

// newOfferToken is a claim link's secret (32 random bytes, URL-safe) and the digest kept.
func newOfferToken() (string, []byte, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", nil, err
	}
	token := base64.RawURLEncoding.EncodeToString(b[:])
	return token, offerHash(token), nil
}

func offerHash(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// OfferByToken reads the offer behind a claim link. Errors: *NotFoundError{"offer"}.
func OfferByToken(ctx context.Context, q *db.Queries, now time.Time, token string) (db.AppointmentOfferByTokenRow, error) {
	o, err := q.AppointmentOfferByToken(ctx, offerHash(token))
	if err != nil {
		return o, notFoundAs(err, "offer")
	}
	return o, nil
}

// ClaimOffer books the time of the offer behind token for its client, through the engine, as a
// booking by source (the booking site's claim page, or the API). The first claim of a time
// books it; any later one — of the same offer or of another offer of that time — and a claim
// after the link expired get *OfferGoneError with other free times. Errors otherwise are
// Create's.
func ClaimOffer(ctx context.Context, d *db.DB, now time.Time, token, source string) (View, error) {
	o, err := OfferByToken(ctx, d.Reader(ctx), now, token)
	if err != nil {
		return View{}, err
	}
	if o.Status == OfferOpen && o.ExpiresAt <= db.Millis(now) {
		if err := expireOffer(ctx, d, now, o); err != nil {
			return View{}, err
		}
	}
	if o.Status != OfferOpen || o.WaitStatus != WaitWaiting || o.ExpiresAt <= db.Millis(now) {
		return View{}, goneWithAlternatives(ctx, d, now, o, source)
	}
	nb := NewBooking{LocationID: o.LocationID, ServiceID: o.ServiceID, ProviderID: o.ProviderID, ClientID: o.ClientID,
		StatusID: StatusConfirmed, Start: db.Time(o.StartAt), Source: source}
	p, err := Prepare(ctx, d, now, nb)
	if errors.Is(err, ErrSlotUnavailable) {
		return View{}, goneWithAlternatives(ctx, d, now, o, source)
	}
	if err != nil {
		return View{}, err
	}
	var v View
	err = d.InTx(ctx, func(q *db.Queries) error {
		var err error
		if v, err = Book(db.WithTx(ctx, q), d, now, p); err != nil {
			return err
		}
		id := v.Booking.ID
		n, err := q.ClaimAppointmentOffer(ctx, db.ClaimAppointmentOfferParams{BookingID: sql.NullInt64{Int64: id, Valid: true}, ID: o.ID, Now: db.Millis(now)})
		if err != nil {
			return err
		}
		if n == 0 {
			return errOfferTaken
		}
		if err := q.OffersGoneForTime(ctx, db.OffersGoneForTimeParams{ProviderID: o.ProviderID, StartAt: o.StartAt}); err != nil {
			return err
		}
		if err := q.BookAppointmentWait(ctx, db.BookAppointmentWaitParams{BookingID: sql.NullInt64{Int64: id, Valid: true}, UpdatedAt: db.Millis(now), ID: o.WaitID}); err != nil {
			return err
		}
		return activity.Record(ctx, q, now, activity.Entry{Action: ActionWaitClaimed, EntityID: o.WaitID, Changes: offerChanges(o.ID, o.StartAt, id)})
	})
	if errors.Is(err, ErrSlotUnavailable) || errors.Is(err, errOfferTaken) {
		return View{}, goneWithAlternatives(ctx, d, now, o, source)
	}
	return v, err
}

// expireOffer marks open offer o gone, its link being past its time, and records the expiry
// once (the first use of the lapsed link does).
func expireOffer(ctx context.Context, d *db.DB, now time.Time, o db.AppointmentOfferByTokenRow) error {
	return d.InTx(ctx, func(q *db.Queries) error {
		n, err := q.ExpireAppointmentOffer(ctx, db.ExpireAppointmentOfferParams{ID: o.ID, Now: db.Millis(now)})
		if err != nil || n == 0 {
			return err
		}
		return activity.Record(ctx, q, now, activity.Entry{Action: ActionWaitOfferExpired, EntityID: o.WaitID, Changes: offerChanges(o.ID, o.StartAt, 0)})
	})
}

// errOfferTaken: the offer was claimed (or expired) between the read and the write.
var errOfferTaken = errors.New("offer claimed meanwhile")

// goneWithAlternatives is the refusal of a claim, with up to five other free times the wait's
// request allows (its provider or anyone, its days from today on).
func goneWithAlternatives(ctx context.Context, d *db.DB, now time.Time, o db.AppointmentOfferByTokenRow, source string) error {
	first, err1 := ParseDate(o.FirstDay)
	last, err2 := ParseDate(o.LastDay)
	if err1 != nil || err2 != nil {
		return &OfferGoneError{}
	}
	l, err := LoadScheduleCached(ctx, d, ScheduleQuery{LocationID: o.LocationID, ServiceID: o.ServiceID,
		ProviderID: o.WaitProviderID.Int64, First: first, Last: last, OnlineOnly: customerFlow(source)})
	if err != nil {
		return err
	}
	slots := Slots(l.Schedule, first, last, now)
	return &OfferGoneError{Alternatives: slots[:min(len(slots), 5)]}
}

// OfferView is what a claim link's page shows: the time offered, with its names, and whether
// it may still be claimed.
type OfferView struct {
	Offer     db.AppointmentOfferByTokenRow
	Names     db.MessageOfferRow
	Zone      *time.Location
	Claimable bool
}

// ViewOffer reads the offer behind token. Errors: *NotFoundError{"offer"}.
func ViewOffer(ctx context.Context, q *db.Queries, now time.Time, token string) (OfferView, error) {
	o, err := OfferByToken(ctx, q, now, token)
	if err != nil {
		return OfferView{}, err
	}
	names, err := q.MessageOffer(ctx, o.ID)
	if err != nil {
		return OfferView{}, notFoundAs(err, "offer")
	}
	zone, err := LoadZone(names.Timezone)
	if err != nil {
		return OfferView{}, err
	}
	return OfferView{Offer: o, Names: names, Zone: zone,
		Claimable: o.Status == OfferOpen && o.WaitStatus == WaitWaiting && o.ExpiresAt > db.Millis(now)}, nil
}

// OfferAlternatives are the other free times the wait behind an offer allows (as a refused
// claim shows them).
func OfferAlternatives(ctx context.Context, d *db.DB, now time.Time, o db.AppointmentOfferByTokenRow, source string) ([]Slot, error) {
	err := goneWithAlternatives(ctx, d, now, o, source)
	var gone *OfferGoneError
	if errors.As(err, &gone) {
		return gone.Alternatives, nil
	}
	return nil, err
}
