package payments

import (
	"context"
	"fmt"
	"time"

	"frontdesk/app/activity"
	"frontdesk/app/booking"
	"frontdesk/app/messages"
	"frontdesk/app/resource"
	"frontdesk/app/webhook"
	"frontdesk/db"
)

// Method is how a payment was made: the id of its row in payment_methods.
type Method int64

// The payment methods of the schema's catalogue.
const (
	MethodCash         Method = 1
	MethodCardTerminal Method = 2
	MethodBankTransfer Method = 3
	MethodOnline       Method = 4
	// MethodGiftCard (5) is in giftcards.go.
)

// Sale statuses, mirrored by the CHECK on sales.status.
const (
	SaleStatusPaid          = "paid"
	SaleStatusPartiallyPaid = "partially_paid"
	SaleStatusRefunded      = "refunded"
)

// DeskMethods are the ways the owner can take a payment at the front desk, in the order the
// settle form offers them.
var DeskMethods = []Method{MethodCash, MethodCardTerminal, MethodBankTransfer}

// Valid reports whether m is a known method.
func (m Method) Valid() bool { return m >= MethodCash && m <= MethodGiftCard }

const (
	eventPaid    = webhook.PaymentRequestPaid
	eventExpired = webhook.PaymentRequestExpired
)

// Settle records that pending request id was paid in full with method, at now, in one
// transaction: the request becomes paid; a sale (paid, at the cart's location) and its
// transaction are written; the products the cart sells leave their counted stock; the bookings
// the request reserved are confirmed and, with the existing bookings the cart sells, linked to
// the sale; payment_request.paid is recorded. It is
// the one hook for every way a payment arrives — the owner in the admin UI, or a payment
// provider's adapter (see the package documentation). It returns the sale's id.
//
// Errors: ErrPaymentRequestNotFound; *RefusedError payment_request_invalid_status when the
// request is not pending (a request whose time is up is expired here, with its event), or
// cart_paid.
func Settle(ctx context.Context, d *db.DB, id int64, method Method, now time.Time) (int64, error) {
	if !method.Valid() || method == MethodGiftCard { // a card pays through SettleWithGiftCard
		return 0, fmt.Errorf("settle payment request %d: unknown payment method %d", id, method)
	}
	var saleID int64
	var refusal error
	err := d.InTx(ctx, func(q *db.Queries) error {
		pr, expired, err := openAtDesk(ctx, q, id, now)
		if err != nil || expired != nil {
			refusal = expired
			return err
		}
		saleID, err = settle(ctx, q, now, pr, Payment{Method: method, AmountCents: pr.AmountCents})
		return err
	})
	if err == nil {
		err = refusal
	}
	return saleID, err
}

// Payment is a payment that settles a request: how, and how much of the request's amount
// (less than all of it for a deposit paid online; the rest stays pending on the sale).
type Payment struct {
	Method      Method
	AmountCents int64
}

// settle is the one settlement, inside transaction q, for every way a payment arrives (the desk
// through Settle, a provider through Online): the sale and its transactions (one per payment:
// a gift card and the card or cash that paid the rest), the request paid, its bookings
// confirmed and linked to the sale, the packs and gift cards it sells credited,
// payment_request.paid. The caller has checked that pr is pending. Payments of less than the
// request's amount make a partially paid sale.
func settle(ctx context.Context, q *db.Queries, now time.Time, pr db.PaymentRequest, pays ...Payment) (int64, error) {
	c, err := q.GetCart(ctx, pr.CartID)
	if err != nil {
		return 0, fmt.Errorf("cart %d: %w", pr.CartID, err)
	}
	if paid, err := q.CartHasPaidSale(ctx, c.ID); err != nil {
		return 0, err
	} else if paid {
		return 0, refused(CodeCartPaid, "", "the cart already has a paid sale")
	}
	sold, err := soldBookings(ctx, q, c.ID, pr.ID)
	if err != nil {
		return 0, err
	}
	locationID, err := saleLocation(ctx, q, c, sold)
	if err != nil {
		return 0, err
	}
	ms := db.Millis(now)
	var paid int64
	for _, pay := range pays {
		paid += pay.AmountCents
	}
	paid = min(paid, pr.AmountCents)
	status := SaleStatusPaid
	if paid < pr.AmountCents {
		status = SaleStatusPartiallyPaid
	}
	saleID, err := q.InsertSale(ctx, db.InsertSaleParams{
		CartID: c.ID, ClientID: c.ClientID, LocationID: locationID, Status: status,
		PaidCents: paid, PendingCents: pr.AmountCents - paid, PaidAt: nullInt(ms), CreatedAt: ms, UpdatedAt: ms,
	})
	if err != nil {
		return 0, fmt.Errorf("insert sale: %w", err)
	}
	left := paid
	for _, pay := range pays {
		amount := min(pay.AmountCents, left)
		if amount <= 0 && len(pays) > 1 {
			continue
		}
		left -= amount
		_, err = q.InsertTransaction(ctx, db.InsertTransactionParams{
			SaleID: saleID, AmountCents: amount, PaymentMethodID: int64(pay.Method), PaidAt: nullInt(ms), CreatedAt: ms,
		})
		if err != nil {
			return 0, fmt.Errorf("insert transaction: %w", err)
		}
	}
	if n, err := q.MarkPaymentRequestPaid(ctx, db.MarkPaymentRequestPaidParams{PaidAt: nullInt(ms), ID: pr.ID}); err != nil {
		return 0, fmt.Errorf("mark payment request %d paid: %w", pr.ID, err)
	} else if n != 1 {
		return 0, fmt.Errorf("mark payment request %d paid: it is no longer pending", pr.ID)
	}
	items, err := q.CartItems(ctx, c.ID)
	if err != nil {
		return 0, err
	}
	if err := takeStock(ctx, q, items, ms); err != nil {
		return 0, err
	}
	ids := make([]int64, 0, len(sold))
	jctx, d := joined(ctx, q)
	for _, b := range sold {
		if b.reserved {
			if err := booking.Confirm(jctx, d, now, b.id); err != nil {
				return 0, fmt.Errorf("confirm booking %d: %w", b.id, err)
			}
		}
		if err := q.SetBookingSale(ctx, db.SetBookingSaleParams{SaleID: nullInt(saleID), ID: b.id}); err != nil {
			return 0, err
		}
		ids = append(ids, b.id)
	}
	if err := creditPacks(ctx, q, now, c, saleID); err != nil {
		return 0, err
	}
	if err := issueGiftCards(ctx, q, now, c, saleID); err != nil {
		return 0, err
	}
	pr.Status, pr.PaidAt, pr.UpdatedAt = StatusPaid, nullInt(ms), ms
	return saleID, enqueueEvent(ctx, q, now, eventPaid, pr, ids, saleID)
}

// creditPacks credits the session packs cart c sells to its client, one pack per unit, each at
// its unit price less its discount, linked to the sale (docs/classes.md).
func creditPacks(ctx context.Context, q *db.Queries, now time.Time, c db.Cart, saleID int64) error {
	items, err := q.CartItems(ctx, c.ID)
	if err != nil {
		return err
	}
	for _, it := range items {
		if it.ItemType != itemPack {
			continue
		}
		if !c.ClientID.Valid {
			return refused(CodeUnprocessable, "client_id", "is required when an item sells a session pack")
		}
		price := it.UnitPriceCents - unitDiscount(it.UnitPriceCents, it.UnitDiscountCents, it.UnitDiscountType)
		jctx, d := joined(ctx, q)
		for range it.Quantity {
			_, err := booking.CreditPack(jctx, d, now, booking.PackCredit{
				ClientID: c.ClientID.Int64, ServiceID: it.ItemID, PriceCents: price, SaleID: nullInt(saleID),
			})
			if err != nil {
				return fmt.Errorf("credit pack of item %d: %w", it.ID, err)
			}
		}
	}
	return nil
}

// soldBooking is a booking a sale pays for.
type soldBooking struct {
	id, locationID int64
	reserved       bool // reserved by the request: confirmed when it is paid
}

// soldBookings are the bookings a paid request pays for: the ones it reserved (unless
// cancelled meanwhile) and the existing, unsold, non-cancelled bookings its cart names.
func soldBookings(ctx context.Context, q *db.Queries, cartID, prID int64) ([]soldBooking, error) {
	reserved, err := q.PaymentRequestBookings(ctx, nullInt(prID))
	if err != nil {
		return nil, err
	}
	var out []soldBooking
	for _, b := range reserved {
		if b.StatusID != booking.StatusCancelled {
			out = append(out, soldBooking{id: b.ID, locationID: b.LocationID, reserved: b.StatusID == booking.StatusReserved})
		}
	}
	items, err := q.CartItems(ctx, cartID)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for _, it := range items {
		instances, err := decodeInstances(it)
		if err != nil {
			return nil, err
		}
		for _, in := range instances {
			if in.Data == nil && in.ReferenceID != nil {
				ids = append(ids, *in.ReferenceID)
			}
		}
	}
	if len(ids) == 0 {
		return out, nil
	}
	named, err := q.CartBookings(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, b := range named {
		if b.StatusID != booking.StatusCancelled && !b.SaleID.Valid {
			out = append(out, soldBooking{id: b.ID, locationID: b.LocationID})
		}
	}
	return out, nil
}

// saleLocation is where a sale happened: the cart's location, else the location of the first
// booking it pays for, else the business's first location.
func saleLocation(ctx context.Context, q *db.Queries, c db.Cart, sold []soldBooking) (int64, error) {
	switch {
	case c.LocationID.Valid:
		return c.LocationID.Int64, nil
	case len(sold) > 0:
		return sold[0].locationID, nil
	}
	id, err := q.FirstActiveLocation(ctx)
	if db.IsNotFound(err) {
		return 0, refused(CodeUnprocessable, "location_id", "the business has no location to record the sale at")
	}
	return id, err
}

// enqueueEvent records a payment request event in the outbox of transaction q.
func enqueueEvent(ctx context.Context, q *db.Queries, now time.Time, eventType string, pr db.PaymentRequest, bookingIDs []int64, saleID int64) error {
	ch := activity.Changes{}.Set("status", nil, pr.Status)
	if saleID != 0 {
		ch.Set("sale_id", nil, saleID)
	}
	if err := activity.Record(ctx, q, now, activity.Entry{Action: eventType, EntityID: pr.ID, Changes: ch}); err != nil {
		return err
	}
	if _, err := webhook.Enqueue(ctx, q, now, eventType, resource.NewPaymentRequestEvent(pr, bookingIDs, saleID)); err != nil {
		return err
	}
	if eventType == eventPaid { // customer messages: the receipt
		return messages.PaymentRequestPaid(ctx, q, now, pr.ID)
	}
	return nil
}

// openAtDesk reads payment request id for settling at the desk: not found and not pending are
// errors (the transaction rolls back); a request whose time is up is expired now and refused
// through expired, with err nil so the expiry and its event commit. A pending request's gift
// card holds for the online checkout are released: the desk settlement decides what each
// method pays. The client's membership discounts the lines it applies to, as a cart's would
// (deskMemberDiscount), and pr carries the amount left to pay.
func openAtDesk(ctx context.Context, q *db.Queries, id int64, now time.Time) (pr db.PaymentRequest, expired, err error) {
	pr, err = q.GetPaymentRequest(ctx, id)
	if db.IsNotFound(err) {
		return pr, nil, ErrPaymentRequestNotFound
	} else if err != nil {
		return pr, nil, err
	}
	if pr.Status != StatusPending {
		return pr, nil, notPending(pr)
	}
	if due(pr, now) {
		_, err := closePending(ctx, q, now, pr)
		pr.Status = StatusExpired
		return pr, notPending(pr), err
	}
	if err := releaseGiftHolds(ctx, q, now, pr.ID); err != nil {
		return pr, nil, err
	}
	pr, err = deskMemberDiscount(ctx, q, now, pr)
	return pr, nil, err
}
