package payments

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/messages"
	"frontdesk/app/resource"
	"frontdesk/db"
)

// MustPayOnline reports whether a service with online payment mode mode is booked by a customer
// only by paying for it: the booking is then reserved through a payment request (ReserveOnline).
func MustPayOnline(mode string) bool { return mode == PaymentPartial || mode == PaymentTotal }

// ReserveOnline books what a customer who books a service with mandatory online payment needs:
// the booking reserved (status 2) through the booking rules like every customer booking
// (booking.Book of b, prepared by the caller with booking.Prepare, at the service's price less
// its discount), a cart for the client at the location with the service, and a pending payment
// request for it that expires after the business's payment expiry, the booking linked to it.
// checkoutBase is the public URL the checkout URL starts with. It owns its transaction or joins
// the caller's (db.WithTx): a customer booking (app/reserve) commits it with the client and the
// manage link.
//
// The request is for the price; what is paid online is DueOnline's (the whole price, or for
// MANDATORY_PARTIAL the service's deposit, the rest at the business). When the request expires
// unpaid the booking is released, as for any payment request.
//
// It returns the request and the reserved booking's id. Errors: *RefusedError
// (company_payments_disabled when the business takes no online payments or the service is not
// payable online; validation), booking.ErrSlotUnavailable (wrapped) when the time is taken.
func ReserveOnline(ctx context.Context, d *db.DB, now time.Time, b booking.Prepared, checkoutBase string) (db.PaymentRequest, int64, error) {
	var pr db.PaymentRequest
	var bookingID int64
	err := d.InTx(ctx, func(q *db.Queries) error {
		var err error
		pr, bookingID, err = reserveHeld(ctx, q, now, b, checkoutBase, hold{purpose: PurposePayment})
		return err
	})
	return pr, bookingID, err
}

// ReserveDeposit is ReserveOnline for a service not otherwise paid online whose booking a
// deposit rule asks a deposit for (DepositFor): the request is for the price, and what is paid
// online is the deposit.
func ReserveDeposit(ctx context.Context, d *db.DB, now time.Time, b booking.Prepared, checkoutBase string, depositCents int64) (db.PaymentRequest, int64, error) {
	var pr db.PaymentRequest
	var bookingID int64
	err := d.InTx(ctx, func(q *db.Queries) error {
		var err error
		pr, bookingID, err = reserveHeld(ctx, q, now, b, checkoutBase, hold{purpose: PurposePayment, deposit: depositCents})
		return err
	})
	return pr, bookingID, err
}

// ReserveDepositWithCard is ReserveDeposit for a booking that also needs a card on file
// (CardRequired): one checkout takes the deposit and keeps the card it was paid with for the
// cancellation policy's fees (the request's save_card), so the client is asked once.
func ReserveDepositWithCard(ctx context.Context, d *db.DB, now time.Time, b booking.Prepared, checkoutBase string, depositCents int64) (db.PaymentRequest, int64, error) {
	var pr db.PaymentRequest
	var bookingID int64
	err := d.InTx(ctx, func(q *db.Queries) error {
		var err error
		pr, bookingID, err = reserveHeld(ctx, q, now, b, checkoutBase, hold{purpose: PurposePayment, deposit: depositCents, saveCard: true})
		return err
	})
	return pr, bookingID, err
}

// hold is what a reserved booking waits for: a payment (the service's, or a deposit a rule
// asks for), or a card to be saved (amount 0).
type hold struct {
	purpose string
	deposit int64 // a rule's deposit; 0: none
	// saveCard: the payment also keeps the card for later fees (a deposit whose booking needs
	// a card on file).
	saveCard bool
}

func reserveHeld(ctx context.Context, q *db.Queries, now time.Time, b booking.Prepared, checkoutBase string, h hold) (db.PaymentRequest, int64, error) {
	settings, err := q.CartPaymentSettings(ctx)
	if err != nil && !db.IsNotFound(err) {
		return db.PaymentRequest{}, 0, err
	}
	if err != nil || !settings.OnlinePayments {
		return db.PaymentRequest{}, 0, refused(CodePaymentsDisabled, "", "online payments are not enabled for this business")
	}
	row, err := q.GetService(ctx, b.ServiceID)
	if db.IsNotFound(err) {
		return db.PaymentRequest{}, 0, invalid("service_id", "no such service")
	} else if err != nil {
		return db.PaymentRequest{}, 0, err
	}
	svc := row.Service
	if svc.OnlinePaymentMode == paymentNotAvailable && h.purpose == PurposePayment && h.deposit == 0 {
		return db.PaymentRequest{}, 0, refused(CodePaymentsDisabled, "service_id", "the service is not payable online")
	}

	item := db.InsertCartItemParams{
		ItemID: svc.ID, ItemType: itemService, ItemName: sql.NullString{String: svc.Name, Valid: true},
		ItemUUID: sql.NullString{String: svc.UUID, Valid: true}, Quantity: 1, UnitPriceCents: svc.PriceCents,
	}
	if svc.HasDiscount && svc.DiscountBp.Valid && svc.DiscountBp.Int64 > 0 {
		item.UnitDiscountCents = svc.DiscountBp
		item.UnitDiscountType = sql.NullString{String: DiscountPercentage, Valid: true}
	}
	if err := memberDiscount(ctx, q, nullInt(b.ClientID), &item); err != nil {
		return db.PaymentRequest{}, 0, err
	}
	// The booking first: with anyone available, the provider the cart records is the one it got.
	net := item.UnitPriceCents - unitDiscount(item.UnitPriceCents, item.UnitDiscountCents, item.UnitDiscountType)
	b.StatusID, b.Price = booking.StatusReserved, &net
	jctx, d := joined(ctx, q)
	v, err := booking.Book(jctx, d, now, b)
	if err != nil {
		return db.PaymentRequest{}, 0, reservationError("items[0]", "items[0].instances[0]", err)
	}
	instances, err := json.Marshal([]resource.CartInstance{{InstanceType: "booking", Data: &resource.CartInstanceData{
		StartTime: b.Start.UTC().Format(time.RFC3339), ProviderID: v.Booking.ProviderID, CreativeSource: b.Source,
	}}})
	if err != nil {
		return db.PaymentRequest{}, 0, err
	}
	item.InstancesJSON = string(instances)

	ms := db.Millis(now)
	cartID, err := q.InsertCart(ctx, db.InsertCartParams{
		UUID: newUUID(), ClientID: nullInt(b.ClientID), LocationID: nullInt(b.LocationID),
		CreatedAt: ms, UpdatedAt: ms, ExpiresAt: db.Millis(now.Add(CartTTL)),
	})
	if err != nil {
		return db.PaymentRequest{}, 0, fmt.Errorf("insert cart: %w", err)
	}
	item.CartID = cartID
	if err := q.InsertCartItem(ctx, item); err != nil {
		return db.PaymentRequest{}, 0, fmt.Errorf("insert cart item: %w", err)
	}
	cart, err := LoadCart(ctx, q, cartID)
	if err != nil {
		return db.PaymentRequest{}, 0, err
	}
	expiry, err := expiryOf(ctx, q)
	if err != nil {
		return db.PaymentRequest{}, 0, err
	}
	uuid := newUUID()
	amount := cart.TotalCents()
	if h.purpose == PurposeCard {
		amount = 0
	}
	prID, err := q.InsertPaymentRequest(ctx, db.InsertPaymentRequestParams{
		UUID: uuid, CartID: cartID, AmountCents: amount, CheckoutURL: checkoutBase + "/pay/" + uuid,
		ExpiresAt: nullInt(db.Millis(now.Add(expiry))), CreatedAt: ms, UpdatedAt: ms,
	})
	if err != nil {
		return db.PaymentRequest{}, 0, fmt.Errorf("insert payment request: %w", err)
	}
	if h.purpose != PurposePayment || h.deposit > 0 {
		var dep sql.NullInt64
		if h.deposit > 0 {
			dep = nullInt(min(h.deposit, amount))
		}
		if err := q.SetPaymentRequestPurpose(ctx, db.SetPaymentRequestPurposeParams{Purpose: h.purpose, DepositCents: dep, ID: prID}); err != nil {
			return db.PaymentRequest{}, 0, err
		}
	}
	if h.saveCard {
		if err := q.SetPaymentRequestSaveCard(ctx, prID); err != nil {
			return db.PaymentRequest{}, 0, err
		}
	}
	if err := link(ctx, q, v.Booking.ID, prID); err != nil {
		return db.PaymentRequest{}, 0, err
	}
	// Customer messages: the checkout link, by email, as for every payment request (a card
	// request has nothing to pay: the booking site sends the customer to its page at once).
	if h.purpose == PurposePayment {
		if err := messages.PaymentRequestCreated(ctx, q, now, prID); err != nil {
			return db.PaymentRequest{}, 0, err
		}
	}
	pr, err := q.GetPaymentRequest(ctx, prID)
	if err != nil {
		return db.PaymentRequest{}, 0, err
	}
	return pr, v.Booking.ID, nil
}
