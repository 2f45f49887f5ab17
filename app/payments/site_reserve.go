package payments

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"frontdesk/app/messages"
	"frontdesk/app/resource"
	"frontdesk/db"
)

// MustPayOnline reports whether a service with online payment mode mode is booked online only
// by paying for it: the booking site then reserves the time through a payment request.
func MustPayOnline(mode string) bool { return mode == PaymentPartial || mode == PaymentTotal }

// OnlineBooking is one booking a customer reserves by paying for it online (the booking site).
type OnlineBooking struct {
	ClientID, LocationID, ServiceID, ProviderID int64
	Start                                       time.Time
	Source                                      string // who books: booking.SourceOnline
}

// ReserveInTx raises, inside the caller's transaction q, what a customer who books a service
// with mandatory online payment needs: a cart for the client at the location with the service
// (at its price less its discount), a pending payment request that expires after the business's
// payment expiry, and the booking reserved (status 2) through the same rules as every customer
// booking (booking.CreateInTx with ob.Source), linked to the request. checkoutBase is the public
// URL the checkout URL starts with.
//
// The request is for the price; what is paid online is DueOnline's (the whole price, or for
// MANDATORY_PARTIAL the service's deposit, the rest at the business). When the request expires
// unpaid the booking is released, as for any payment request.
//
// It returns the request and the reserved booking's id. Errors: *RefusedError
// (company_payments_disabled when the business takes no online payments or the service is not
// payable online; validation), booking.ErrSlotUnavailable (wrapped) when the time is taken.
func ReserveInTx(ctx context.Context, q *db.Queries, now time.Time, ob OnlineBooking, checkoutBase string) (db.PaymentRequest, int64, error) {
	settings, err := q.CartPaymentSettings(ctx)
	if err != nil && !db.IsNotFound(err) {
		return db.PaymentRequest{}, 0, err
	}
	if err != nil || !settings.OnlinePayments {
		return db.PaymentRequest{}, 0, refused(CodePaymentsDisabled, "", "online payments are not enabled for this business")
	}
	row, err := q.GetService(ctx, ob.ServiceID)
	if db.IsNotFound(err) {
		return db.PaymentRequest{}, 0, invalid("service_id", "no such service")
	} else if err != nil {
		return db.PaymentRequest{}, 0, err
	}
	svc := row.Service
	if svc.OnlinePaymentMode == paymentNotAvailable {
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
	instances, err := json.Marshal([]resource.CartInstance{{InstanceType: "booking", Data: &resource.CartInstanceData{
		StartTime: ob.Start.UTC().Format(time.RFC3339), ProviderID: ob.ProviderID, CreativeSource: ob.Source,
	}}})
	if err != nil {
		return db.PaymentRequest{}, 0, err
	}
	item.InstancesJSON = string(instances)

	ms := db.Millis(now)
	cartID, err := q.InsertCart(ctx, db.InsertCartParams{
		UUID: newUUID(), ClientID: nullInt(ob.ClientID), LocationID: nullInt(ob.LocationID),
		CreatedAt: ms, UpdatedAt: ms, ExpiresAt: db.Millis(now.Add(CartTTL)),
	})
	if err != nil {
		return db.PaymentRequest{}, 0, fmt.Errorf("insert cart: %w", err)
	}
	item.CartID = cartID
	if err := q.InsertCartItem(ctx, item); err != nil {
		return db.PaymentRequest{}, 0, fmt.Errorf("insert cart item: %w", err)
	}
	v, err := LoadCart(ctx, q, cartID)
	if err != nil {
		return db.PaymentRequest{}, 0, err
	}
	expiry, err := expiryOf(ctx, q)
	if err != nil {
		return db.PaymentRequest{}, 0, err
	}
	amount := v.TotalCents()
	uuid := newUUID()
	prID, err := q.InsertPaymentRequest(ctx, db.InsertPaymentRequestParams{
		UUID: uuid, CartID: cartID, AmountCents: amount, CheckoutURL: checkoutBase + "/pay/" + uuid,
		ExpiresAt: nullInt(db.Millis(now.Add(expiry))), CreatedAt: ms, UpdatedAt: ms,
	})
	if err != nil {
		return db.PaymentRequest{}, 0, fmt.Errorf("insert payment request: %w", err)
	}
	if err := reserve(ctx, q, now, v, prID, ob.Source); err != nil {
		return db.PaymentRequest{}, 0, err
	}
	// Customer messages: the checkout link, by email, as for every payment request.
	if err := messages.PaymentRequestCreated(ctx, q, now, prID); err != nil {
		return db.PaymentRequest{}, 0, err
	}
	booked, err := q.PaymentRequestBookings(ctx, nullInt(prID))
	if err != nil {
		return db.PaymentRequest{}, 0, err
	}
	if len(booked) != 1 {
		return db.PaymentRequest{}, 0, fmt.Errorf("payment request %d reserved %d bookings, want 1", prID, len(booked))
	}
	pr, err := q.GetPaymentRequest(ctx, prID)
	if err != nil {
		return db.PaymentRequest{}, 0, err
	}
	return pr, booked[0].ID, nil
}
