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

// ReserveVisit books visit nv (docs/visits.md, "Visits") reserved for one payment request that
// covers the whole visit: every booking of it is reserved (status 2) and linked to the request,
// the cart holds one line per service at the price the visit charges for it, and the request is
// for the visit's total — with depositCents > 0, what is paid online is that deposit (at most
// the total), the rest at the business. All of it is one transaction (booking.BookVisit's), so
// a visit is never held without its request. Paying the request confirms every booking of the
// visit at once and its expiry releases them all, as for any request; the client gets one
// checkout link.
//
// Errors: *RefusedError (company_payments_disabled when the business takes no online
// payments), and BookVisit's.
func ReserveVisit(ctx context.Context, d *db.DB, now time.Time, nv booking.NewVisit, checkoutBase string, depositCents int64) (db.PaymentRequest, booking.Visit, error) {
	settings, err := d.Reader(ctx).CartPaymentSettings(ctx)
	if err != nil && !db.IsNotFound(err) {
		return db.PaymentRequest{}, booking.Visit{}, err
	}
	if err != nil || !settings.OnlinePayments {
		return db.PaymentRequest{}, booking.Visit{}, refused(CodePaymentsDisabled, "", "online payments are not enabled for this business")
	}
	var prID int64
	nv.StatusID = booking.StatusReserved
	nv.Hold = func(ctx context.Context, q *db.Queries, bookings []db.Booking) error {
		var err error
		prID, err = visitRequest(ctx, q, now, nv, bookings, checkoutBase, depositCents)
		return err
	}
	v, err := booking.BookVisit(ctx, d, now, nv)
	if err != nil {
		return db.PaymentRequest{}, booking.Visit{}, err
	}
	pr, err := d.Reader(ctx).GetPaymentRequest(ctx, prID)
	return pr, v, err
}

// visitRequest writes the cart and payment request of a visit's bookings and links them.
func visitRequest(ctx context.Context, q *db.Queries, now time.Time, nv booking.NewVisit, bookings []db.Booking, checkoutBase string, depositCents int64) (int64, error) {
	ms := db.Millis(now)
	cartID, err := q.InsertCart(ctx, db.InsertCartParams{
		UUID: newUUID(), ClientID: nullInt(nv.ClientID), LocationID: nullInt(nv.LocationID),
		CreatedAt: ms, UpdatedAt: ms, ExpiresAt: db.Millis(now.Add(CartTTL)),
	})
	if err != nil {
		return 0, fmt.Errorf("insert cart: %w", err)
	}
	// One line per service: the part after a processing time costs nothing more.
	position := int64(0)
	for _, b := range bookings {
		if b.PriceCents == 0 && b.ListPriceCents == 0 {
			continue
		}
		row, err := q.GetService(ctx, b.ServiceID)
		if err != nil {
			return 0, err
		}
		instances, err := json.Marshal([]resource.CartInstance{{InstanceType: "booking", Data: &resource.CartInstanceData{
			StartTime: db.Time(b.StartAt).UTC().Format(time.RFC3339), ProviderID: b.ProviderID, CreativeSource: nv.Source,
		}}})
		if err != nil {
			return 0, err
		}
		item := db.InsertCartItemParams{CartID: cartID, ItemID: b.ServiceID, ItemType: itemService,
			ItemName: sql.NullString{String: row.Service.Name, Valid: true}, ItemUUID: sql.NullString{String: row.Service.UUID, Valid: true},
			Quantity: 1, UnitPriceCents: b.PriceCents, Position: position, InstancesJSON: string(instances)}
		if err := q.InsertCartItem(ctx, item); err != nil {
			return 0, fmt.Errorf("insert cart item: %w", err)
		}
		position++
	}
	cart, err := LoadCart(ctx, q, cartID)
	if err != nil {
		return 0, err
	}
	expiry, err := expiryOf(ctx, q)
	if err != nil {
		return 0, err
	}
	uuid := newUUID()
	amount := cart.TotalCents()
	prID, err := q.InsertPaymentRequest(ctx, db.InsertPaymentRequestParams{
		UUID: uuid, CartID: cartID, AmountCents: amount, CheckoutURL: checkoutBase + "/pay/" + uuid,
		ExpiresAt: nullInt(db.Millis(now.Add(expiry))), CreatedAt: ms, UpdatedAt: ms,
	})
	if err != nil {
		return 0, fmt.Errorf("insert payment request: %w", err)
	}
	if depositCents > 0 {
		if err := q.SetPaymentRequestPurpose(ctx, db.SetPaymentRequestPurposeParams{Purpose: PurposePayment, DepositCents: nullInt(min(depositCents, amount)), ID: prID}); err != nil {
			return 0, err
		}
	}
	for _, b := range bookings {
		if err := link(ctx, q, b.ID, prID); err != nil {
			return 0, err
		}
	}
	return prID, messages.PaymentRequestCreated(ctx, q, now, prID)
}
