// Package reserve is the customer's booking, in one place: what a customer's booking form asks
// for (the booking site's today) becomes a client, a booking — or a booking reserved behind a
// payment request when the service must be paid online — and a personal manage link, committed
// together or not at all. Surfaces build the Request and show the Result; the rules are those
// of app/clients (who the customer is: clients.FindOrCreate), app/booking (where and when:
// booking.Prepare and booking.Book) and app/payments (payments.ReserveOnline).
package reserve

import (
	"context"
	"strconv"
	"time"

	"frontdesk/app/activity"
	"frontdesk/app/booking"
	"frontdesk/app/clients"
	"frontdesk/app/managelink"
	"frontdesk/app/messages"
	"frontdesk/app/payments"
	"frontdesk/db"
)

// Request is a customer's booking form.
type Request struct {
	LocationID, ServiceID int64
	ProviderID            int64 // 0: anyone available
	Start                 time.Time
	// Client is what the customer typed about themselves, already checked as a new client would
	// be (clients.Validate), whether or not they turn out to be one.
	Client clients.Input
	// Channel is how the customer wants to hear about their bookings (messages.ChannelEmail or
	// ChannelSMS; "": not asked). It is stored as the client's preferred channel when the
	// client is the one with the number typed: a visitor who typed someone else's email cannot
	// change where that client's messages go.
	Channel string
	// Nonce is the form's one-time value: a form submitted again books nothing more.
	Nonce string
	// PaymentMode is the service's online payment mode; a mandatory one reserves the booking
	// behind a payment request (payments.MustPayOnline), whose checkout URL starts with
	// CheckoutBase.
	PaymentMode, CheckoutBase string
}

// Result is what a form made: the booking, a fresh manage link and, for a service paid online,
// the payment request's checkout uuid.
type Result struct {
	BookingID int64
	Token     string
	Checkout  string
}

// Book makes the booking a customer's form asks for, with source online.
//
// The rules that need no write run first, on the read pool (booking.Prepare): the slot engine
// checks the time and, for anyone available, lists the providers free then in id order; a
// refusal costs the single writer nothing. Then one write transaction: the client (found by
// email, then phone, or created: clients.FindOrCreate), the booking (booking.Book: the bounded
// overlap check takes the first candidate still free; or payments.ReserveOnline), the form's
// nonce and a manage link — committed together with their client.created and booking.created
// events, or nothing. The slot engine never runs inside the writer. The database trigger
// refuses an overlap a third time.
//
// A form already used (its nonce is known) books nothing more: it gets a new manage link to the
// booking it made, and its checkout while its payment request is pending.
//
// Errors: booking.ErrSlotUnavailable, booking.ErrClassFull, *booking.InvalidError,
// *booking.NotFoundError for the time; clients.Errors for the client; *payments.RefusedError
// for a payment the business cannot take.
func Book(ctx context.Context, d *db.DB, now time.Time, r Request) (Result, error) {
	nonce := managelink.Hash(r.Nonce)
	pay := payments.MustPayOnline(r.PaymentMode)
	nb := booking.NewBooking{
		LocationID: r.LocationID, ServiceID: r.ServiceID, ProviderID: r.ProviderID,
		StatusID: booking.StatusConfirmed, Start: r.Start, Source: booking.SourceOnline,
	}
	if pay {
		nb.StatusID = booking.StatusReserved
	}
	prepared, refused := booking.Prepare(ctx, d, now, nb)
	if refused != nil && !used(ctx, d, nonce) {
		// The time is gone — unless to this very form, submitted twice at once and committed
		// since: the transaction finds that booking.
		return Result{}, refused
	}
	var out Result
	err := d.InTx(ctx, func(q *db.Queries) error {
		if id, err := q.SiteBookingByNonce(ctx, nonce); err == nil {
			return again(ctx, q, id, now, &out)
		} else if !db.IsNotFound(err) {
			return err
		}
		if refused != nil {
			return refused
		}
		jctx := db.WithTx(ctx, q) // every step below commits with this transaction
		var err error
		if prepared.ClientID, err = clients.FindOrCreate(jctx, d, now, r.Client); err != nil {
			return err
		}
		if r.Channel != "" && r.Client.Phone.V != "" {
			c, err := q.MessageClientChannel(ctx, prepared.ClientID)
			if err != nil {
				return err
			}
			if c.Phone == r.Client.Phone.V {
				if err := messages.SetClientChannel(ctx, q, prepared.ClientID, r.Channel, db.Millis(now)); err != nil {
					return err
				}
			}
		}
		if activity.ActorFrom(ctx).Kind == activity.KindSite { // the visitor is now a known client
			jctx = activity.WithActor(jctx, activity.Actor{Kind: activity.KindClient, ID: strconv.FormatInt(prepared.ClientID, 10)})
		}
		deposit, card := int64(0), false
		if !pay {
			if deposit, card, err = holdFor(ctx, q, prepared.ClientID, r.ServiceID); err != nil {
				return err
			}
		}
		switch {
		case pay || deposit > 0 || card:
			reserveHeld := func() (db.PaymentRequest, int64, error) {
				switch {
				case pay:
					return payments.ReserveOnline(jctx, d, now, prepared, r.CheckoutBase)
				case deposit > 0 && card:
					return payments.ReserveDepositWithCard(jctx, d, now, prepared, r.CheckoutBase, deposit)
				case deposit > 0:
					return payments.ReserveDeposit(jctx, d, now, prepared, r.CheckoutBase, deposit)
				}
				return payments.ReserveForCard(jctx, d, now, prepared, r.CheckoutBase)
			}
			pr, id, err := reserveHeld()
			if err != nil {
				return err
			}
			out.BookingID, out.Checkout = id, pr.UUID
		default:
			v, err := booking.Book(jctx, d, now, prepared)
			if err != nil {
				return err
			}
			out.BookingID = v.Booking.ID
		}
		if err := q.InsertSiteBooking(ctx, db.InsertSiteBookingParams{
			BookingID: out.BookingID, NonceHash: nonce, AnyProvider: r.ProviderID == 0, CreatedAt: db.Millis(now),
		}); err != nil {
			return err
		}
		out.Token, err = managelink.New(ctx, q, out.BookingID, now)
		return err
	})
	return out, err
}

// used reports whether a booking was made with the form's nonce (a read error says no: the
// transaction would check again, but there is nothing to book).
func used(ctx context.Context, d *db.DB, nonce []byte) bool {
	_, err := d.R.SiteBookingByNonce(ctx, nonce)
	return err == nil
}

// again answers a form submitted a second time: a new link to the booking it made, and its
// checkout while its payment request is pending.
func again(ctx context.Context, q *db.Queries, bookingID int64, now time.Time, out *Result) error {
	out.BookingID = bookingID
	co, err := q.BookingCheckoutUUID(ctx, bookingID)
	if err != nil {
		return err
	}
	if co.Status == payments.StatusPending {
		out.Checkout = co.UUID
	}
	out.Token, err = managelink.New(ctx, q, bookingID, now)
	return err
}

// holdFor is what else a booking of service by client waits for when its service is not paid
// online: a deposit the business's rules ask of this client (payments.RuleDeposit), and a card
// on file when the business or the service requires one (payments.CardRequired). Both are
// asked in one checkout: the deposit's, which keeps the card it was paid with.
func holdFor(ctx context.Context, q *db.Queries, clientID, serviceID int64) (deposit int64, card bool, err error) {
	svc, err := q.GetService(ctx, serviceID)
	if err != nil {
		return 0, false, err
	}
	if deposit, err = payments.RuleDeposit(ctx, q, clientID, svc.Service.PriceCents); err != nil {
		return 0, false, err
	}
	card, err = payments.CardRequired(ctx, q, serviceID)
	return deposit, card, err
}
