package payments

import (
	"context"
	"errors"
	"fmt"
	"time"

	"frontdesk/app/activity"
	"frontdesk/db"
)

// Errors of refunds and balances.
var (
	// ErrNotRefundable: the payment was not taken online (or not at all), so there is nothing
	// to return through a provider.
	ErrNotRefundable = errors.New("this payment cannot be refunded through the payment provider")
	// ErrRefundTooLarge: more than what remains of the payment.
	ErrRefundTooLarge = errors.New("the refund is more than what remains of the payment")
	// ErrNothingPending: the sale has no balance left to collect.
	ErrNothingPending = errors.New("the sale has nothing left to pay")
)

// Who asked for a refund, mirrored by the CHECK on refunds.origin.
const (
	RefundByAdmin    = "admin"
	RefundByProvider = "provider"
)

// Refundable is what of checkout co's payment can still be returned (0 for a checkout that
// took no payment).
func Refundable(ctx context.Context, q *db.Queries, co db.OnlineCheckout) (int64, error) {
	if co.Status != checkoutPaid && co.Status != checkoutRefused || co.PaymentRef == "" || !co.ReceivedCents.Valid {
		return 0, nil
	}
	refunded, err := q.RefundedCents(ctx, co.ID)
	if err != nil {
		return 0, err
	}
	return max(co.ReceivedCents.Int64-refunded, 0), nil
}

// Refund returns amountCents of checkout checkoutID's payment through its provider and records
// the refund on the checkout and its sale (a sale refunded in full becomes refunded). The
// idempotency key is the checkout, the number of the refund and its amount, so an owner who
// submits again after a timeout gets the refund that was made, not a second one.
//
// Errors: ErrNotRefundable, ErrRefundTooLarge, ErrNotConfigured, *ProviderError.
func (o *Online) Refund(ctx context.Context, checkoutID, amountCents int64) (RefundState, error) {
	co, err := o.db.R.GetOnlineCheckout(ctx, checkoutID)
	if db.IsNotFound(err) {
		return RefundState{}, ErrNotRefundable
	} else if err != nil {
		return RefundState{}, err
	}
	defer o.lockRequest(co.PaymentRequestID)()
	left, err := Refundable(ctx, o.db.R, co)
	switch {
	case err != nil:
		return RefundState{}, err
	case left == 0:
		return RefundState{}, ErrNotRefundable
	case amountCents <= 0 || amountCents > left:
		return RefundState{}, ErrRefundTooLarge
	}
	prov, err := o.provider(ctx, o.db.R, co.Provider)
	if err != nil {
		return RefundState{}, err
	}
	made, err := o.db.R.RefundsOfCheckout(ctx, co.ID)
	if err != nil {
		return RefundState{}, err
	}
	st, err := prov.Refund(ctx, RefundParams{
		PaymentRef: co.PaymentRef, AmountCents: amountCents, Currency: co.ReceivedCurrency.String,
		IdempotencyKey: fmt.Sprintf("frontdesk-refund-%d-%d-%d", co.ID, len(made)+1, amountCents),
	})
	if err != nil {
		return RefundState{}, err
	}
	if st.AmountCents == 0 {
		st.AmountCents = amountCents
	}
	err = o.db.InTx(ctx, func(q *db.Queries) error {
		co, err := q.GetOnlineCheckout(ctx, co.ID)
		if err != nil {
			return err
		}
		return recordRefund(ctx, q, o.now(), co, st, RefundByAdmin)
	})
	if err != nil {
		return RefundState{}, err
	}
	o.log.InfoContext(ctx, "refund", "provider", co.Provider, "checkout", co.ID, "refund", st.ID, "amount", st.AmountCents, "status", st.Status)
	return st, nil
}

// CollectBalance records that the rest of partially paid sale saleID (after a deposit paid
// online) was paid at the front desk with method: a transaction for the pending amount, and
// the sale paid in full. Errors: ErrSaleNotFound, ErrNothingPending.
func CollectBalance(ctx context.Context, d *db.DB, saleID int64, method Method, now time.Time) error {
	if !method.Valid() || method == MethodGiftCard { // a card pays through SettleWithGiftCard
		return fmt.Errorf("collect balance of sale %d: unknown payment method %d", saleID, method)
	}
	return d.InTx(ctx, func(q *db.Queries) error {
		sale, err := q.GetSale(ctx, saleID)
		if db.IsNotFound(err) {
			return ErrSaleNotFound
		} else if err != nil {
			return err
		}
		if sale.Status != SaleStatusPartiallyPaid || sale.PendingCents <= 0 {
			return ErrNothingPending
		}
		ms := db.Millis(now)
		if _, err := q.InsertTransaction(ctx, db.InsertTransactionParams{
			SaleID: sale.ID, AmountCents: sale.PendingCents, PaymentMethodID: int64(method), PaidAt: nullInt(ms), CreatedAt: ms,
		}); err != nil {
			return err
		}
		n, err := q.CollectSaleBalance(ctx, db.CollectSaleBalanceParams{UpdatedAt: ms, ID: sale.ID})
		if err == nil && n != 1 {
			err = ErrNothingPending
		}
		return err
	})
}

// ResolveFlag records that the owner dealt with flag id (refunded the payment, or settled the
// request by hand), with its payment_flag.resolved entry in the activity trail. Resolving twice
// is harmless and records nothing the second time.
func ResolveFlag(ctx context.Context, d *db.DB, id int64, now time.Time) error {
	return d.InTx(ctx, func(q *db.Queries) error {
		n, err := q.ResolvePaymentFlag(ctx, db.ResolvePaymentFlagParams{ResolvedAt: nullInt(db.Millis(now)), ID: id})
		if err != nil || n == 0 {
			return err
		}
		f, err := q.GetPaymentFlag(ctx, id)
		if err != nil {
			return err
		}
		ch := activity.Changes{}.Set("resolved_at", nil, now).Set("kind", nil, f.Kind).Set("payment_request_id", nil, f.PaymentRequestID)
		return activity.Record(ctx, q, now, activity.Entry{Action: "payment_flag.resolved", EntityID: id, Changes: ch})
	})
}
