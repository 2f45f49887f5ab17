package site

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/clients"
	"frontdesk/app/managelink"
	"frontdesk/app/payments"
	"frontdesk/db"
)

// reservation is a checked booking form.
type reservation struct {
	loc      *location
	svc      service
	provider int64 // 0: anyone available
	start    time.Time
	client   clients.Input
	nonce    string
}

// reserved is what a booking form made: the booking, a fresh manage link and, for a service
// paid online, the payment request's checkout uuid.
type reserved struct {
	bookingID int64
	token     string
	checkout  string
}

// reserve makes the booking in one write transaction: the client (found by email or phone, or
// created), the booking through the booking rules with source online (reserved behind a payment
// request when the service must be paid online), the form's nonce and a manage link — all
// committed together with their client.created and booking.created events, or nothing.
//
// A form already used (its nonce is known) books nothing more: it gets a new manage link to the
// booking it made. With anyone available, the provider is chosen inside the transaction, where
// no other booking can interfere: the first, by id, whom the engine offers at that instant.
func (s *Site) reserve(ctx context.Context, res reservation, now time.Time) (reserved, error) {
	var out reserved
	nonce := managelink.Hash(res.nonce)
	err := s.db.InTx(ctx, func(q *db.Queries) error {
		if id, err := q.SiteBookingByNonce(ctx, nonce); err == nil {
			return again(ctx, q, id, now, &out)
		} else if !db.IsNotFound(err) {
			return err
		}
		provider, err := chooseProvider(ctx, q, res, now)
		if err != nil {
			return err
		}
		clientID, err := matchClient(ctx, q, now, res.client)
		if err != nil {
			return err
		}
		if payments.MustPayOnline(res.svc.mode) {
			pr, id, err := payments.ReserveInTx(ctx, q, now, payments.OnlineBooking{
				ClientID: clientID, LocationID: res.loc.id, ServiceID: res.svc.id, ProviderID: provider,
				Start: res.start, Source: booking.SourceOnline,
			}, s.checkoutBase())
			if err != nil {
				return err
			}
			out.bookingID, out.checkout = id, pr.UUID
		} else {
			id, err := booking.CreateInTx(ctx, q, now, booking.NewBooking{
				LocationID: res.loc.id, ServiceID: res.svc.id, ProviderID: provider, ClientID: clientID,
				StatusID: booking.StatusConfirmed, Start: res.start, Source: booking.SourceOnline,
			})
			if err != nil {
				return err
			}
			out.bookingID = id
		}
		if err := q.InsertSiteBooking(ctx, db.InsertSiteBookingParams{
			BookingID: out.bookingID, NonceHash: nonce, AnyProvider: res.provider == 0, CreatedAt: db.Millis(now),
		}); err != nil {
			return err
		}
		out.token, err = managelink.New(ctx, q, out.bookingID, now)
		return err
	})
	return out, err
}

// again answers a form submitted a second time: a new link to the booking it made, and its
// checkout while its payment request is pending.
func again(ctx context.Context, q *db.Queries, bookingID int64, now time.Time, out *reserved) error {
	out.bookingID = bookingID
	co, err := q.BookingCheckoutUUID(ctx, bookingID)
	if err != nil {
		return err
	}
	if co.Status == payments.StatusPending {
		out.checkout = co.UUID
	}
	out.token, err = managelink.New(ctx, q, bookingID, now)
	return err
}

// chooseProvider is the provider to book: the one the visitor chose, or for anyone available
// the first whom the engine offers at the start, read inside the write transaction.
func chooseProvider(ctx context.Context, q *db.Queries, res reservation, now time.Time) (int64, error) {
	if res.provider != 0 {
		return res.provider, nil
	}
	day := booking.DateOf(res.start.In(res.loc.zone))
	l, err := booking.LoadSchedule(ctx, q, booking.ScheduleQuery{
		LocationID: res.loc.id, ServiceID: res.svc.id, First: day.AddDays(-1), Last: day.AddDays(1), OnlineOnly: true,
	})
	if err != nil {
		return 0, err
	}
	ids := make([]int64, 0, len(l.Schedule.Providers))
	for _, p := range l.Schedule.Providers {
		ids = append(ids, p.ID)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if booking.Explain(l.Schedule, id, res.start, now).Code == booking.ReasonOK {
			return id, nil
		}
	}
	return 0, booking.ErrSlotUnavailable
}

// matchClient finds the visitor among the active clients — by email, then by phone — or creates
// them. A match is never shown or changed: the visitor sees the same pages either way, and
// what they typed is only used to fill the answers the client has not given yet.
func matchClient(ctx context.Context, q *db.Queries, now time.Time, in clients.Input) (int64, error) {
	id, err := q.SiteClientByEmail(ctx, nullText(in.Email.V))
	if db.IsNotFound(err) {
		id, err = q.SiteClientByPhone(ctx, nullText(in.Phone.V))
	}
	if db.IsNotFound(err) {
		c, err := clients.CreateInTx(ctx, q, now, in, clients.Options{})
		return c.ID, err
	}
	if err != nil {
		return 0, err
	}
	have, err := q.SiteClientAttributeIDs(ctx, id)
	if err != nil {
		return 0, err
	}
	var fill []clients.AttributeValue
	for _, a := range in.CustomAttributes {
		if a.Value != nil && strings.TrimSpace(*a.Value) != "" && !slices.Contains(have, a.ID) {
			fill = append(fill, a)
		}
	}
	if len(fill) > 0 {
		if _, err := clients.UpdateInTx(ctx, q, now, id, clients.Input{CustomAttributes: fill}, clients.Options{}); err != nil {
			return 0, err
		}
	}
	return id, nil
}

// checkoutBase is the public URL checkout links start with.
func (s *Site) checkoutBase() string {
	return strings.TrimSuffix(s.links.URL("/", nil), "/")
}

func nullText(s string) sql.NullString { return sql.NullString{String: s, Valid: true} }
