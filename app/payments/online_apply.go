package payments

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/textproto"
	"time"

	"frontdesk/app/activity"
	"frontdesk/app/input"
	"frontdesk/db"
)

// Outcomes of a provider's report, recorded with each notification (online_payment_events)
// and counted by reconciliation.
const (
	OutcomeSettled        = "settled"         // the request is paid: sale, bookings, event
	OutcomeDuplicate      = "duplicate"       // already known: nothing changed
	OutcomeProcessing     = "processing"      // complete, the payment still settling
	OutcomePaymentFailed  = "payment_failed"  // the payment failed; the request stays pending
	OutcomeRequestExpired = "request_expired" // the checkout lapsed and with it the request
	OutcomeCheckoutClosed = "checkout_closed" // the checkout lapsed; the request was already closed, or lives on
	OutcomeFlagged        = "flagged"         // money taken that could not settle the request
	OutcomeOpen           = "open"            // nothing new
	OutcomeRefund         = "refund"          // a refund was recorded or changed
	OutcomeIgnored        = "ignored"         // not about anything frontdesk made
)

// HandleEvent verifies and applies a notification from provider name: POST /{name}/webhook.
// The event is applied and recorded in one transaction; one that was already recorded changes
// nothing, so a provider's retries and reorderings are harmless.
//
// Errors: ErrUnknownProvider, ErrNotConfigured, ErrBadSignature, ErrUnreadableEvent (nothing is
// written for any of them); others are the database's.
func (o *Online) HandleEvent(ctx context.Context, name string, payload []byte, header textproto.MIMEHeader) (string, error) {
	prov, err := o.provider(ctx, o.db.R, name)
	if err != nil {
		return "", err
	}
	ev, err := prov.ParseEvent(payload, header)
	if err != nil {
		return "", err
	}
	// Signed, but with a key twice in one object: the provider's reader takes one value, and
	// which one the provider meant cannot be known (every JSON surface refuses these, app/input).
	if json.Valid(payload) {
		if path, dup := input.DuplicateKey(payload); dup {
			return "", fmt.Errorf("%w: the key %q appears twice in one object", ErrUnreadableEvent, path)
		}
	}
	// A setup that saved a card is read back (brand, last four) before the transaction.
	card, err := o.savedCardOf(ctx, prov, ev.Checkout)
	if err != nil {
		return "", err
	}
	// So is the card a deposit was paid with, when the request saves it.
	if err := o.paymentCardOf(ctx, prov, ev.Checkout); err != nil {
		return "", err
	}
	now := o.now()
	var outcome string
	err = o.db.InTx(ctx, func(q *db.Queries) error {
		if ev.ID != "" {
			seen, err := q.OnlinePaymentEventSeen(ctx, db.OnlinePaymentEventSeenParams{Provider: name, EventID: ev.ID})
			if err != nil || seen {
				outcome = OutcomeDuplicate
				return err
			}
		}
		var checkoutID sql.NullInt64
		var err error
		switch {
		case ev.Checkout != nil:
			co, err2 := q.OnlineCheckoutBySession(ctx, db.OnlineCheckoutBySessionParams{Provider: name, SessionID: nullString(ev.Checkout.ID)})
			switch {
			case db.IsNotFound(err2):
				cs, err3 := q.CardSetupBySession(ctx, db.CardSetupBySessionParams{Provider: name, SessionID: nullString(ev.Checkout.ID)})
				switch {
				case db.IsNotFound(err3):
					outcome = OutcomeIgnored // another integration's session on the same account
				case err3 != nil:
					return err3
				default:
					outcome, err = o.applyCardSetup(ctx, q, now, name, cs, *ev.Checkout, card)
				}
			case err2 != nil:
				return err2
			default:
				checkoutID = nullInt(co.ID)
				outcome, err = o.applyCheckout(ctx, q, now, co, *ev.Checkout)
			}
		case ev.Refund != nil:
			checkoutID, outcome, err = o.applyRefund(ctx, q, now, name, *ev.Refund)
		case ev.Subscription != nil:
			outcome, err = o.applySubscription(ctx, q, now, name, *ev.Subscription)
		case ev.Charge != nil:
			outcome, err = o.applyCharge(ctx, q, now, *ev.Charge)
		default:
			outcome = OutcomeIgnored
		}
		if err != nil || ev.ID == "" {
			return err
		}
		_, err = q.InsertOnlinePaymentEvent(ctx, db.InsertOnlinePaymentEventParams{
			Provider: name, EventID: ev.ID, Type: ev.Type, CheckoutID: checkoutID, Outcome: outcome, ReceivedAt: db.Millis(now),
		})
		return err
	})
	if err != nil {
		return "", err
	}
	if outcome != OutcomeDuplicate && outcome != OutcomeIgnored {
		o.log.InfoContext(ctx, "payment provider event", "provider", name, "event", ev.ID, "type", ev.Type, "outcome", outcome)
	}
	return outcome, nil
}

// applyCheckout applies what the provider says about checkout co, inside transaction q.
// Checkouts only move forward: paid and refused are final, and a report about a closed
// checkout changes nothing unless it says money was taken.
func (o *Online) applyCheckout(ctx context.Context, q *db.Queries, now time.Time, co db.OnlineCheckout, st CheckoutState) (string, error) {
	// Re-read inside the transaction: the row may have moved since it was looked up.
	co, err := q.GetOnlineCheckout(ctx, co.ID)
	if err != nil {
		return "", err
	}
	switch co.Status {
	case checkoutPaid, checkoutRefused:
		return OutcomeDuplicate, nil
	case checkoutExpired, checkoutFailed:
		if !st.Paid {
			return OutcomeDuplicate, nil
		}
	}
	pr, err := q.GetPaymentRequest(ctx, co.PaymentRequestID)
	if err != nil {
		return "", err
	}
	if st.PaymentRef != "" {
		co.PaymentRef = st.PaymentRef
	}
	switch {
	case st.Paid:
		return o.settleCheckout(ctx, q, now, co, pr, st)
	case st.Failed:
		return OutcomePaymentFailed, setCheckout(ctx, q, co, checkoutFailed, now)
	case st.Status == CheckoutComplete:
		if co.Status == checkoutProcessing {
			return OutcomeDuplicate, nil
		}
		return OutcomeProcessing, setCheckout(ctx, q, co, checkoutProcessing, now)
	case st.Status == CheckoutExpired:
		if err := setCheckout(ctx, q, co, checkoutExpired, now); err != nil {
			return "", err
		}
		// The checkout held the request's time when it was to last as long as the request
		// (or the request's time is up anyway): its lapse is the request's expiry.
		if pr.Status == StatusPending && pr.ExpiresAt.Valid && (due(pr, now) || co.ExpiresAt+999 >= pr.ExpiresAt.Int64) {
			if closed, err := expireInTx(ctx, q, now, pr); err != nil || closed {
				return OutcomeRequestExpired, err
			}
		}
		return OutcomeCheckoutClosed, nil
	}
	return OutcomeOpen, nil
}

// settleCheckout settles request pr with the payment checkout co took — exactly as the desk
// does (settle), for the amount the checkout asked — when the amount and currency are the ones
// asked and the request can still be paid. Otherwise the money is not settled and the owner
// is flagged (payment_flags), once per checkout and kind.
func (o *Online) settleCheckout(ctx context.Context, q *db.Queries, now time.Time, co db.OnlineCheckout, pr db.PaymentRequest, st CheckoutState) (string, error) {
	co.ReceivedCents, co.ReceivedCurrency = nullInt(st.AmountCents), nullString(st.Currency)
	if st.AmountCents != co.AmountCents || st.Currency != co.Currency {
		return o.flag(ctx, q, now, co, KindAmountMismatch, st)
	}
	// A request whose time is up but that the expiry has not closed still holds its bookings,
	// so a payment made before the checkout lapsed settles it.
	if pr.Status != StatusPending {
		return o.flag(ctx, q, now, co, KindPaidAfterClose, st)
	}
	// Gift cards held the rest of what was due online: they are paid with the card, together.
	held, err := heldCents(ctx, q, pr.ID)
	if err != nil {
		return "", err
	}
	pays := []Payment{{Method: MethodOnline, AmountCents: co.AmountCents}}
	if held > 0 {
		pays = append([]Payment{{Method: MethodGiftCard, AmountCents: held}}, pays...)
	}
	saleID, err := settle(ctx, q, now, pr, pays...)
	var refusal *RefusedError
	if errors.As(err, &refusal) {
		// The cart was paid another way meanwhile; settle refuses before writing anything.
		return o.flag(ctx, q, now, co, KindPaidAfterClose, st)
	} else if err != nil {
		return "", err
	}
	co.SaleID = nullInt(saleID)
	if err := feePaidByLink(ctx, q, now, pr.ID, saleID); err != nil {
		return "", err
	}
	if st.Card != nil {
		if err := keepPaymentCard(ctx, q, now, co.Provider, pr, *st.Card); err != nil {
			return "", err
		}
	}
	if err := captureGiftHolds(ctx, q, now, pr.ID, saleID); err != nil {
		return "", err
	}
	return OutcomeSettled, setCheckout(ctx, q, co, checkoutPaid, now)
}

// Kinds of payment flags, mirrored by the CHECK on payment_flags.kind.
const (
	KindAmountMismatch = "amount_mismatch"  // paid another amount or currency than asked
	KindPaidAfterClose = "paid_after_close" // paid for a request already expired, cancelled or paid
)

// flag records money that was taken but not settled, for the owner to refund or settle by hand.
func (o *Online) flag(ctx context.Context, q *db.Queries, now time.Time, co db.OnlineCheckout, kind string, st CheckoutState) (string, error) {
	if err := setCheckout(ctx, q, co, checkoutRefused, now); err != nil {
		return "", err
	}
	_, err := q.InsertPaymentFlag(ctx, db.InsertPaymentFlagParams{
		PaymentRequestID: co.PaymentRequestID, CheckoutID: co.ID, Kind: kind,
		ExpectedCents: co.AmountCents, ExpectedCurrency: co.Currency, ReceivedCents: st.AmountCents, ReceivedCurrency: st.Currency,
		CreatedAt: db.Millis(now),
	})
	if err != nil {
		return "", err
	}
	o.log.WarnContext(ctx, "online payment not settled: flagged for the owner", "kind", kind, "payment_request", co.PaymentRequestID,
		"checkout", co.ID, "expected", co.AmountCents, "expected_currency", co.Currency, "received", st.AmountCents, "received_currency", st.Currency)
	return OutcomeFlagged, nil
}

// setCheckout writes checkout co with status.
func setCheckout(ctx context.Context, q *db.Queries, co db.OnlineCheckout, status string, now time.Time) error {
	return q.SetOnlineCheckoutStatus(ctx, db.SetOnlineCheckoutStatusParams{
		Status: status, PaymentRef: co.PaymentRef, ReceivedCents: co.ReceivedCents, ReceivedCurrency: co.ReceivedCurrency,
		SaleID: co.SaleID, UpdatedAt: db.Millis(now), ID: co.ID,
	})
}

// syncCheckout asks the provider for checkout co's state and applies it in its own transaction.
func (o *Online) syncCheckout(ctx context.Context, co db.OnlineCheckout) (string, error) {
	prov, err := o.provider(ctx, o.db.R, co.Provider)
	if err != nil {
		return "", err
	}
	st, err := prov.Checkout(ctx, co.SessionID.String)
	if err != nil {
		return "", err
	}
	if err := o.paymentCardOf(ctx, prov, &st); err != nil {
		return "", err
	}
	return o.applyState(ctx, co, st)
}

// closeCheckout expires checkout co at the provider (it may turn out paid) and applies the
// answer. A checkout that never opened is simply given up.
func (o *Online) closeCheckout(ctx context.Context, co db.OnlineCheckout) error {
	if !co.SessionID.Valid {
		return o.failCheckout(ctx, co.ID)
	}
	prov, err := o.provider(ctx, o.db.R, co.Provider)
	if err != nil {
		return err
	}
	st, err := prov.ExpireCheckout(ctx, co.SessionID.String)
	if err != nil {
		return err
	}
	if err := o.paymentCardOf(ctx, prov, &st); err != nil {
		return err
	}
	_, err = o.applyState(ctx, co, st)
	return err
}

// applyState applies a state read from the provider (not a notification) in one transaction.
func (o *Online) applyState(ctx context.Context, co db.OnlineCheckout, st CheckoutState) (string, error) {
	now := o.now()
	var outcome string
	err := o.db.InTx(ctx, func(q *db.Queries) error {
		var err error
		outcome, err = o.applyCheckout(ctx, q, now, co, st)
		return err
	})
	return outcome, err
}

// applyRefund records what the provider says about a refund: a change of one frontdesk made, or
// a refund made in the provider's own dashboard for a payment of ours.
func (o *Online) applyRefund(ctx context.Context, q *db.Queries, now time.Time, name string, st RefundState) (sql.NullInt64, string, error) {
	ref, err := q.RefundByProviderID(ctx, st.ID)
	if err == nil {
		if ref.Status == st.Status {
			return nullInt(ref.CheckoutID), OutcomeDuplicate, nil
		}
		if err := q.SetRefundStatus(ctx, db.SetRefundStatusParams{Status: st.Status, UpdatedAt: db.Millis(now), ID: ref.ID}); err != nil {
			return sql.NullInt64{}, "", err
		}
		return nullInt(ref.CheckoutID), OutcomeRefund, updateSaleAfterRefunds(ctx, q, now, ref.SaleID)
	} else if !db.IsNotFound(err) {
		return sql.NullInt64{}, "", err
	}
	if st.PaymentRef == "" {
		return sql.NullInt64{}, OutcomeIgnored, nil
	}
	co, err := q.OnlineCheckoutByPaymentRef(ctx, db.OnlineCheckoutByPaymentRefParams{Provider: name, PaymentRef: st.PaymentRef})
	if db.IsNotFound(err) {
		return sql.NullInt64{}, OutcomeIgnored, nil
	} else if err != nil {
		return sql.NullInt64{}, "", err
	}
	if err := recordRefund(ctx, q, now, co, st, RefundByProvider); err != nil {
		return sql.NullInt64{}, "", err
	}
	return nullInt(co.ID), OutcomeRefund, nil
}

// recordRefund writes refund st of checkout co's payment and updates its sale.
func recordRefund(ctx context.Context, q *db.Queries, now time.Time, co db.OnlineCheckout, st RefundState, origin string) error {
	if _, err := q.RefundByProviderID(ctx, st.ID); err == nil {
		return nil // the same refund again (an idempotent retry)
	} else if !db.IsNotFound(err) {
		return err
	}
	_, err := q.InsertRefund(ctx, db.InsertRefundParams{
		CheckoutID: co.ID, SaleID: co.SaleID, AmountCents: st.AmountCents, ProviderRefundID: st.ID, Status: st.Status,
		Origin: origin, CreatedAt: db.Millis(now), UpdatedAt: db.Millis(now),
	})
	if db.IsConstraint(err, "refund_exceeds_payment") {
		return fmt.Errorf("refund %s of checkout %d: %w", st.ID, co.ID, ErrRefundTooLarge)
	} else if err != nil {
		return err
	}
	ch := activity.Changes{}.Set("amount_cents", nil, st.AmountCents).Set("status", nil, st.Status).Set("origin", nil, origin).
		Set("checkout_id", nil, co.ID)
	if err := activity.Record(ctx, q, now, activity.Entry{Action: "sale.refunded", EntityID: co.SaleID.Int64, Changes: ch}); err != nil {
		return err
	}
	return updateSaleAfterRefunds(ctx, q, now, co.SaleID)
}

// updateSaleAfterRefunds marks a sale refunded when its payment has been returned in full, and
// back to paid when a refund failed.
func updateSaleAfterRefunds(ctx context.Context, q *db.Queries, now time.Time, saleID sql.NullInt64) error {
	if !saleID.Valid {
		return nil
	}
	sale, err := q.GetSale(ctx, saleID.Int64)
	if err != nil {
		return err
	}
	co, err := q.OnlineCheckoutOfSale(ctx, saleID)
	if err != nil {
		return err
	}
	refunded, err := q.RefundedCents(ctx, co.ID)
	if err != nil {
		return err
	}
	status := SaleStatusPaid
	switch {
	case refunded >= sale.PaidCents:
		status = SaleStatusRefunded
	case sale.PendingCents > 0:
		status = SaleStatusPartiallyPaid
	}
	if status == sale.Status {
		return nil
	}
	return q.SetSaleStatus(ctx, db.SetSaleStatusParams{Status: status, UpdatedAt: db.Millis(now), ID: sale.ID})
}

func nullString(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }
