package payments

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/messages"
	"frontdesk/db"
)

// Payment request statuses, mirrored by the CHECK on payment_requests.status.
const (
	StatusPending   = "pending"
	StatusPaid      = "paid"
	StatusExpired   = "expired"
	StatusCancelled = "cancelled"
)

// DefaultExpiry is how long a request that reserved bookings waits for payment when the
// business has no setting of its own.
const DefaultExpiry = 15 * time.Minute

// CreatePaymentRequest raises a payment request for the full total of cart cartID, in one
// transaction: the cart's previous pending request is closed (its bookings released), the
// request is written — with expires_at when the cart books anything — and every on-demand
// booking instance is reserved (status 2) for the cart's client, linked to the request.
// checkoutBase is the scheme and host the checkout URL starts with ("https://example.com").
//
// Errors: ErrCartNotFound; *RefusedError (cart_paid, cart_expired, company_payments_disabled,
// invalid_start_time, booking_already_sold, validation — a product line whose product is no
// longer for sale or in stock); booking.ErrSlotUnavailable (wrapped) when a reserved time is
// taken. On any error nothing is written.
func CreatePaymentRequest(ctx context.Context, d *db.DB, now time.Time, cartID int64, checkoutBase string) (db.PaymentRequest, error) {
	var id int64
	err := d.InTx(ctx, func(q *db.Queries) error {
		c, err := q.GetCart(ctx, cartID)
		if db.IsNotFound(err) {
			return ErrCartNotFound
		} else if err != nil {
			return err
		}
		if err := checkOpen(ctx, q, c, now); err != nil {
			return err
		}
		if err := closePendingOfCart(ctx, q, now, cartID); err != nil {
			return err
		}
		v, err := LoadCart(ctx, q, cartID)
		if err != nil {
			return err
		}
		if err := checkPayable(ctx, q, v); err != nil {
			return err
		}
		if err := recheckProducts(ctx, q, storedUses(v.Items)); err != nil {
			return err
		}
		expiry, err := expiryOf(ctx, q)
		if err != nil {
			return err
		}
		uuid := newUUID()
		row := db.InsertPaymentRequestParams{
			UUID: uuid, CartID: cartID, AmountCents: v.TotalCents(), CheckoutURL: checkoutBase + "/pay/" + uuid,
			CreatedAt: db.Millis(now), UpdatedAt: db.Millis(now),
		}
		if bookingCount(v) > 0 {
			row.ExpiresAt = nullInt(db.Millis(now.Add(expiry)))
		}
		if id, err = q.InsertPaymentRequest(ctx, row); err != nil {
			return fmt.Errorf("insert payment request: %w", err)
		}
		if err := reserve(ctx, q, now, v, id, booking.SourceConnect); err != nil {
			return err
		}
		// Customer messages: the checkout link, by email.
		return messages.PaymentRequestCreated(ctx, q, now, id)
	})
	if err != nil {
		return db.PaymentRequest{}, err
	}
	return d.R.GetPaymentRequest(ctx, id)
}

// checkPayable: the business takes online payments, the cart has something to pay for, and
// every item may be paid online.
func checkPayable(ctx context.Context, q *db.Queries, v CartView) error {
	settings, err := q.CartPaymentSettings(ctx)
	if db.IsNotFound(err) {
		return refused(CodePaymentsDisabled, "", "the business is not set up to take payments")
	} else if err != nil {
		return err
	}
	switch {
	case !settings.OnlinePayments:
		return refused(CodePaymentsDisabled, "", "online payments are not enabled for this business")
	case len(v.Items) == 0:
		return invalid("items", "the cart has no items")
	case !v.OnlinePayment:
		return refused(CodePaymentsDisabled, "items", "the cart has a service that is not payable online")
	}
	return nil
}

// expiryOf is how long a request that reserves bookings stays payable.
func expiryOf(ctx context.Context, q *db.Queries) (time.Duration, error) {
	settings, err := q.CartPaymentSettings(ctx)
	if err != nil {
		return 0, err
	}
	if settings.PaymentExpiryMin < 1 {
		return DefaultExpiry, nil
	}
	return time.Duration(settings.PaymentExpiryMin) * time.Minute, nil
}

func bookingCount(v CartView) int {
	n := 0
	for _, it := range v.Items {
		for _, in := range it.Instances {
			if in.Data != nil {
				n++
			}
		}
	}
	return n
}

// reserve books every on-demand instance of the cart for request prID, as made by source, and
// re-checks the existing bookings the cart sells.
func reserve(ctx context.Context, q *db.Queries, now time.Time, v CartView, prID int64, source string) error {
	var referenced []int64
	for i, it := range v.Items {
		net := it.Row.UnitPriceCents - unitDiscount(it.Row.UnitPriceCents, it.Row.UnitDiscountCents, it.Row.UnitDiscountType)
		for j, in := range it.Instances {
			path := fmt.Sprintf("items[%d].instances[%d]", i, j)
			if in.Data == nil {
				referenced = append(referenced, *in.ReferenceID)
				continue
			}
			start, err := utcStart(path, in.Data.StartTime)
			if err != nil {
				return err
			}
			jctx, d := joined(ctx, q)
			b, err := booking.Create(jctx, d, now, booking.NewBooking{
				LocationID: v.Cart.LocationID.Int64, ServiceID: it.Row.ItemID, ProviderID: in.Data.ProviderID,
				ClientID: v.Cart.ClientID.Int64, StatusID: booking.StatusReserved, Start: start, Price: &net,
				Source: source,
			})
			if err != nil {
				return reservationError(fmt.Sprintf("items[%d]", i), path, err)
			}
			if err := link(ctx, q, b.Booking.ID, prID); err != nil {
				return err
			}
		}
	}
	if len(referenced) == 0 {
		return nil
	}
	lines := make([]line, len(v.Items))
	for i, it := range v.Items {
		lines[i] = line{row: db.InsertCartItemParams{ItemID: it.Row.ItemID}, instances: it.Instances}
	}
	return checkRefs(ctx, q, lines, cartRefs{ClientID: v.Cart.ClientID, LocationID: v.Cart.LocationID})
}

// link records that request prID reserved booking id.
func link(ctx context.Context, q *db.Queries, id, prID int64) error {
	return q.LinkBookingToPaymentRequest(ctx, db.LinkBookingToPaymentRequestParams{PaymentRequestID: nullInt(prID), ID: id})
}

// joined is what a use case of another package (booking.Create, Release, Confirm, CreditPack)
// needs to run as one step of the payment write that holds q: the context joined to q's
// transaction (db.WithTx) and the database whose committer runs it. The request and its
// bookings commit together or not at all.
func joined(ctx context.Context, q *db.Queries) (context.Context, *db.DB) {
	return db.WithTx(ctx, q), q.Writer()
}

// utcStart reads an on-demand booking's start, which must be in UTC (the reference rejects
// other offsets when the booking is reserved, with invalid_start_time).
func utcStart(path, s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, s)
	if _, offset := t.Zone(); err != nil || offset != 0 {
		return time.Time{}, refused(CodeInvalidStartTime, path+".data.start_time",
			"must be an ISO 8601 date-time in UTC (Z or +00:00), e.g. 2026-08-01T13:00:00Z; got %q", s)
	}
	return t.UTC(), nil
}

// reservationError names the cart field behind a booking refusal. A taken slot stays
// booking.ErrSlotUnavailable (a 409) with the instance named.
func reservationError(item, path string, err error) error {
	var inv *booking.InvalidError
	var nf *booking.NotFoundError
	switch {
	case errors.As(err, &inv):
		return invalid(bookingField(item, path, inv.Field), "%s", inv.Message)
	case errors.As(err, &nf):
		return invalid(bookingField(item, path, nf.Resource+"_id"), "no such %s", nf.Resource)
	}
	return fmt.Errorf("%s: %w", path, err)
}

// bookingField maps a field of the booking being reserved to the cart field it came from.
func bookingField(item, path, field string) string {
	switch field {
	case "client_id", "location_id":
		return field
	case "service_id":
		return item + ".item_id"
	case "start_time", "end_time", "provider_id":
		return path + ".data." + field
	}
	return path
}

// Cancel cancels pending request id and releases its reserved bookings. A request whose time is
// up is expired instead (with its event) and refused like any request that is not pending.
// Errors: ErrPaymentRequestNotFound, *RefusedError payment_request_invalid_status.
func Cancel(ctx context.Context, d *db.DB, now time.Time, id int64) (db.PaymentRequest, error) {
	var refusal error
	err := d.InTx(ctx, func(q *db.Queries) error {
		pr, err := q.GetPaymentRequest(ctx, id)
		if db.IsNotFound(err) {
			return ErrPaymentRequestNotFound
		} else if err != nil {
			return err
		}
		if pr.Status != StatusPending {
			return notPending(pr)
		}
		status, err := closePending(ctx, q, now, pr)
		if status == StatusExpired {
			pr.Status = status
			refusal = notPending(pr)
		}
		return err
	})
	if err != nil {
		return db.PaymentRequest{}, err
	}
	if refusal != nil {
		return db.PaymentRequest{}, refusal
	}
	return d.R.GetPaymentRequest(ctx, id)
}

func notPending(pr db.PaymentRequest) error {
	return refused(CodeInvalidStatus, "", "the payment request is %s; only a pending request can be changed", pr.Status)
}

// closePendingOfCart closes the cart's pending request, if any.
func closePendingOfCart(ctx context.Context, q *db.Queries, now time.Time, cartID int64) error {
	pending, err := q.PendingPaymentRequestOfCart(ctx, cartID)
	if err != nil {
		return err
	}
	for _, pr := range pending {
		if _, err := closePending(ctx, q, now, pr); err != nil {
			return err
		}
	}
	return nil
}

// closePending ends pending request pr inside q: expired (with payment_request.expired) when its
// time is up, cancelled otherwise. Either way the bookings it reserved and that are still
// reserved are released; a booking the owner has confirmed or changed meanwhile is kept.
func closePending(ctx context.Context, q *db.Queries, now time.Time, pr db.PaymentRequest) (string, error) {
	status := StatusCancelled
	if due(pr, now) {
		status = StatusExpired
	}
	if status == StatusExpired {
		closed, err := expireInTx(ctx, q, now, pr)
		if err != nil || !closed {
			return "", err
		}
		return status, nil
	}
	n, err := q.ClosePaymentRequest(ctx, db.ClosePaymentRequestParams{Status: status, UpdatedAt: db.Millis(now), ID: pr.ID})
	if err != nil || n == 0 {
		return "", err
	}
	_, err = release(ctx, q, now, pr.ID)
	return status, err
}

// expireInTx expires pending request pr now, whatever its expires_at says: its still-reserved
// bookings are released and payment_request.expired is recorded. It is our own expiry, and a
// provider's report that the checkout which held the request's time expired. closed is false
// when pr was no longer pending (nothing is written, so the event is never sent twice).
func expireInTx(ctx context.Context, q *db.Queries, now time.Time, pr db.PaymentRequest) (closed bool, err error) {
	n, err := q.ClosePaymentRequest(ctx, db.ClosePaymentRequestParams{Status: StatusExpired, UpdatedAt: db.Millis(now), ID: pr.ID})
	if err != nil || n == 0 {
		return false, err
	}
	released, err := release(ctx, q, now, pr.ID)
	if err != nil {
		return false, err
	}
	pr.Status, pr.UpdatedAt = StatusExpired, db.Millis(now)
	return true, enqueueEvent(ctx, q, now, eventExpired, pr, released, 0)
}

// release cancels the still-reserved bookings of request prID and returns their ids, and gives
// back the money gift cards held for it.
func release(ctx context.Context, q *db.Queries, now time.Time, prID int64) ([]int64, error) {
	if err := releaseGiftHolds(ctx, q, now, prID); err != nil {
		return nil, err
	}
	bs, err := q.PaymentRequestBookings(ctx, nullInt(prID))
	if err != nil {
		return nil, err
	}
	released := []int64{}
	jctx, d := joined(ctx, q)
	for _, b := range bs {
		if b.StatusID != booking.StatusReserved {
			continue
		}
		if err := booking.Release(jctx, d, now, b.ID); err != nil {
			return nil, fmt.Errorf("release booking %d: %w", b.ID, err)
		}
		released = append(released, b.ID)
	}
	return released, nil
}

// due reports whether pending request pr is past its expiry.
func due(pr db.PaymentRequest, now time.Time) bool {
	return pr.ExpiresAt.Valid && !now.Before(db.Time(pr.ExpiresAt.Int64))
}

func nullInt(v int64) sql.NullInt64 { return sql.NullInt64{Int64: v, Valid: true} }
