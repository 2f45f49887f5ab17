package resource

import "frontdesk/db"

// PaymentRequest is the Connect v3 PaymentRequest, plus cart_id (an addition: the cart it
// collects for). params.expires_at is set only when the request reserved bookings.
type PaymentRequest struct {
	ID        int64                `json:"id"`
	UUID      string               `json:"uuid"`
	CartID    int64                `json:"cart_id"`
	Amount    string               `json:"amount"`
	Status    string               `json:"status"`
	Channel   string               `json:"channel"`
	Params    PaymentRequestParams `json:"params"`
	CreatedAt string               `json:"created_at"`
	UpdatedAt string               `json:"updated_at"`
}

// PaymentRequestParams is where the customer pays and until when.
type PaymentRequestParams struct {
	CheckoutURL string  `json:"checkout_url"`
	ExpiresAt   *string `json:"expires_at"`
}

// NewPaymentRequest builds the resource from its row.
func NewPaymentRequest(pr db.PaymentRequest) PaymentRequest {
	return PaymentRequest{
		ID:        pr.ID,
		UUID:      pr.UUID,
		CartID:    pr.CartID,
		Amount:    Money(pr.AmountCents),
		Status:    pr.Status,
		Channel:   pr.Channel,
		Params:    PaymentRequestParams{CheckoutURL: pr.CheckoutURL, ExpiresAt: NullTimestamp(pr.ExpiresAt)},
		CreatedAt: Timestamp(pr.CreatedAt),
		UpdatedAt: Timestamp(pr.UpdatedAt),
	}
}

// PaymentRequestEvent is the data of payment_request.paid and payment_request.expired
// (docs/webhooks.md): the payment request resource (with its cart_id), the bookings it concerns — reserved and
// now released (expired), or sold by it (paid) — and, when paid, the sale it created.
type PaymentRequestEvent struct {
	PaymentRequest
	BookingIDs []int64 `json:"booking_ids"`
	SaleID     *int64  `json:"sale_id,omitempty"`
}

// NewPaymentRequestEvent builds the event data; saleID is 0 when there is no sale.
func NewPaymentRequestEvent(pr db.PaymentRequest, bookingIDs []int64, saleID int64) PaymentRequestEvent {
	if bookingIDs == nil {
		bookingIDs = []int64{}
	}
	e := PaymentRequestEvent{PaymentRequest: NewPaymentRequest(pr), BookingIDs: bookingIDs}
	if saleID != 0 {
		e.SaleID = &saleID
	}
	return e
}
