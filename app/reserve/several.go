package reserve

import (
	"context"
	"errors"
	"strconv"
	"time"

	"frontdesk/app/activity"
	"frontdesk/app/booking"
	"frontdesk/app/clients"
	"frontdesk/app/managelink"
	"frontdesk/app/messages"
	"frontdesk/db"
)

// A customer's visit, series and wait: the same client matching and, for the two that book, the
// same nonce and manage link as one booking (Book), around the one domain function each of
// /v3/visits, /v3/booking_series and /v3/appointment_waitlist calls — booking.BookVisit,
// booking.BookSeries and booking.JoinAppointmentWaitlist — joined to one write transaction, so
// the client is created only with what it was created for.

// ErrHoldRequired refuses a visit or a series of which some service would be held behind a
// payment for this client (a deposit the business's rules ask, or a card on file): the site
// books such a service one booking at a time, each with its own payment request.
var ErrHoldRequired = errors.New("reserve: a deposit or a card on file is required")

// Customer is who a customer's form is for and how they want to hear about it (see Request).
type Customer struct {
	Client  clients.Input
	Channel string
}

// VisitRequest is a customer's form for a visit of several services.
type VisitRequest struct {
	Customer
	LocationID int64
	Segments   []booking.VisitSegment
	Start      time.Time
	Nonce      string
}

// BookVisit books a visit from a customer's form, with source online: the client found or
// created, booking.BookVisit, the form's nonce and a manage link to the visit's first booking,
// in one transaction. A form already used books nothing more and gets a new link.
func BookVisit(ctx context.Context, d *db.DB, now time.Time, r VisitRequest) (Result, error) {
	nonce := managelink.Hash(r.Nonce)
	var out Result
	err := d.InTx(ctx, func(q *db.Queries) error {
		if id, err := q.SiteBookingByNonce(ctx, nonce); err == nil {
			return again(ctx, q, id, now, &out)
		} else if !db.IsNotFound(err) {
			return err
		}
		jctx, clientID, err := customer(ctx, d, q, now, r.Customer)
		if err != nil {
			return err
		}
		var services []int64
		for _, g := range r.Segments {
			services = append(append(services, g.ServiceID), g.AddOns...)
		}
		if err := noHold(ctx, q, clientID, services); err != nil {
			return err
		}
		v, err := booking.BookVisit(jctx, d, now, booking.NewVisit{
			LocationID: r.LocationID, ClientID: clientID, Segments: r.Segments, Start: r.Start,
			StatusID: booking.StatusConfirmed, Source: booking.SourceOnline,
		})
		if err != nil {
			return err
		}
		out.BookingID = v.Bookings[0].Booking.ID
		return linkForm(ctx, q, now, nonce, false, &out)
	})
	return out, err
}

// SeriesRequest is a customer's form for a booking that repeats.
type SeriesRequest struct {
	Customer
	LocationID, ServiceID int64
	ProviderID            int64 // 0: anyone available, each date its own first free provider
	Start                 time.Time
	Repeat                booking.Repeat
	Mode                  string // booking.SeriesFreeOnes or booking.SeriesAllOrNothing
	Nonce                 string
}

// BookSeries books a series from a customer's form, with source online: the client found or
// created, booking.BookSeries (all or nothing refuses with *booking.SeriesUnavailableError
// naming the dates), the form's nonce and a manage link to the first booked date, in one
// transaction.
func BookSeries(ctx context.Context, d *db.DB, now time.Time, r SeriesRequest) (Result, booking.SeriesResult, error) {
	nonce := managelink.Hash(r.Nonce)
	var out Result
	var res booking.SeriesResult
	err := d.InTx(ctx, func(q *db.Queries) error {
		if id, err := q.SiteBookingByNonce(ctx, nonce); err == nil {
			return again(ctx, q, id, now, &out)
		} else if !db.IsNotFound(err) {
			return err
		}
		jctx, clientID, err := customer(ctx, d, q, now, r.Customer)
		if err != nil {
			return err
		}
		if err := noHold(ctx, q, clientID, []int64{r.ServiceID}); err != nil {
			return err
		}
		res, err = booking.BookSeries(jctx, d, now, booking.SeriesRequest{
			NewBooking: booking.NewBooking{LocationID: r.LocationID, ServiceID: r.ServiceID, ProviderID: r.ProviderID,
				ClientID: clientID, StatusID: booking.StatusConfirmed, Start: r.Start, Source: booking.SourceOnline},
			Repeat: r.Repeat, Mode: r.Mode,
		})
		if err != nil {
			return err
		}
		for _, o := range res.Occurrences {
			if o.Booking != nil {
				out.BookingID = o.Booking.Booking.ID
				break
			}
		}
		return linkForm(ctx, q, now, nonce, r.ProviderID == 0, &out)
	})
	return out, res, err
}

// WaitRequest is a customer's form asking to be told when a time opens.
type WaitRequest struct {
	Customer
	LocationID, ServiceID int64
	ProviderID            int64 // 0: anyone
	First, Last           booking.Date
}

// JoinWaitlist records a customer's wait, with source online: the client found or created and
// booking.JoinAppointmentWaitlist, in one transaction.
func JoinWaitlist(ctx context.Context, d *db.DB, now time.Time, r WaitRequest) (db.AppointmentWait, error) {
	var w db.AppointmentWait
	err := d.InTx(ctx, func(q *db.Queries) error {
		jctx, clientID, err := customer(ctx, d, q, now, r.Customer)
		if err != nil {
			return err
		}
		w, err = booking.JoinAppointmentWaitlist(jctx, d, now, booking.WaitRequest{
			LocationID: r.LocationID, ServiceID: r.ServiceID, ProviderID: r.ProviderID, ClientID: clientID,
			First: r.First, Last: r.Last, Source: booking.SourceOnline,
		})
		return err
	})
	return w, err
}

// customer finds or creates the form's client inside q's transaction (clients.FindOrCreate),
// stores the channel they chose when the number typed is the client's, and returns a context
// joined to the transaction with that client as the actor.
func customer(ctx context.Context, d *db.DB, q *db.Queries, now time.Time, c Customer) (context.Context, int64, error) {
	jctx := db.WithTx(ctx, q)
	id, err := clients.FindOrCreate(jctx, d, now, c.Client)
	if err != nil {
		return nil, 0, err
	}
	if c.Channel != "" && c.Client.Phone.V != "" {
		mc, err := q.MessageClientChannel(ctx, id)
		if err != nil {
			return nil, 0, err
		}
		if mc.Phone == c.Client.Phone.V {
			if err := messages.SetClientChannel(ctx, q, id, c.Channel, db.Millis(now)); err != nil {
				return nil, 0, err
			}
		}
	}
	if activity.ActorFrom(ctx).Kind == activity.KindSite {
		jctx = activity.WithActor(jctx, activity.Actor{Kind: activity.KindClient, ID: strconv.FormatInt(id, 10)})
	}
	return jctx, id, nil
}

// linkForm records the form's nonce against the booking it made and makes a manage link to it.
func linkForm(ctx context.Context, q *db.Queries, now time.Time, nonce []byte, anyProvider bool, out *Result) error {
	if err := q.InsertSiteBooking(ctx, db.InsertSiteBookingParams{
		BookingID: out.BookingID, NonceHash: nonce, AnyProvider: anyProvider, CreatedAt: db.Millis(now),
	}); err != nil {
		return err
	}
	var err error
	out.Token, err = managelink.New(ctx, q, out.BookingID, now)
	return err
}

// noHold refuses with ErrHoldRequired when a booking of any of services by client would wait
// for a payment (holdFor, the rule of one booking).
func noHold(ctx context.Context, q *db.Queries, clientID int64, services []int64) error {
	for _, id := range services {
		deposit, card, err := holdFor(ctx, q, clientID, id)
		if err != nil {
			return err
		}
		if deposit > 0 || card {
			return ErrHoldRequired
		}
	}
	return nil
}
