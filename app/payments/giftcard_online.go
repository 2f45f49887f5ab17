package payments

import (
	"context"
	"time"

	"frontdesk/app/activity"
	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// A gift card at online checkout: the customer types its code on the checkout page, and the
// card's balance — up to what is due online — is held on the request (gift_card_holds, a hold
// movement on the card's ledger). The hosted checkout then asks only for the rest (DueOnline
// subtracts the holds). Both parts settle together or neither does:
//
//   - the provider's report that the rest is paid settles the request in one transaction that
//     also captures the holds (settleCheckout): one sale, a gift card transaction and an online
//     one;
//   - a request that closes unpaid — expired, cancelled, paid in full at the desk — releases its
//     holds in the transaction that closes it (release), so the card gets its money back;
//   - a card that covers everything settles the request at once, without the provider.
//
// A hold is only placed while no checkout is open at the provider (one is closed first), so a
// checkout always asks for exactly what the holds leave.

// GiftApplied is what applying a card did.
type GiftApplied struct {
	HeldCents int64 // what the card holds for this request
	Settled   bool  // the cards cover everything due online: the request is paid
}

// ApplyGiftCard holds gift card code's balance for request uuid, up to what is still due online.
//
// Errors: ErrPaymentRequestNotFound, ErrNotPayable, ErrPaymentProcessing, ErrGiftCardNotFound,
// *RefusedError (gift_card_unusable, gift_card_empty, unprocessable_entity when nothing is left
// to pay), *ProviderError when an open checkout cannot be closed.
func (o *Online) ApplyGiftCard(ctx context.Context, uuid, code, lang string) (GiftApplied, error) {
	pv, err := LoadCheckout(ctx, o.db.R, uuid)
	if err != nil {
		return GiftApplied{}, err
	}
	if pv.Status(o.now()) != StatusPending {
		return GiftApplied{}, ErrNotPayable
	}
	defer o.lockRequest(pv.Request.ID)()
	// The open checkout asks for the amount before this card: close it first (a customer who
	// paid it meanwhile has settled the request, which then refuses the card).
	live, err := o.db.R.LiveOnlineCheckout(ctx, pv.Request.ID)
	if err != nil {
		return GiftApplied{}, err
	}
	if len(live) > 0 {
		switch live[0].Status {
		case checkoutProcessing:
			return GiftApplied{}, ErrPaymentProcessing
		case checkoutOpen:
			if err := o.closeCheckout(ctx, live[0]); err != nil {
				return GiftApplied{}, err
			}
		default:
			if err := o.failCheckout(ctx, live[0].ID); err != nil {
				return GiftApplied{}, err
			}
		}
	}
	base, err := dueBeforeHolds(ctx, o.db.R, pv, lang)
	if err != nil {
		return GiftApplied{}, err
	}
	now := o.now()
	var out GiftApplied
	err = o.db.InTx(ctx, func(q *db.Queries) error {
		pr, err := q.GetPaymentRequest(ctx, pv.Request.ID)
		if err != nil {
			return err
		}
		if pr.Status != StatusPending || due(pr, now) {
			return ErrNotPayable
		}
		if live, err := q.LiveOnlineCheckout(ctx, pr.ID); err != nil {
			return err
		} else if len(live) > 0 {
			return ErrPaymentProcessing
		}
		held, err := heldCents(ctx, q, pr.ID)
		if err != nil {
			return err
		}
		left := base.AmountCents - held
		if left <= 0 {
			return refused(CodeUnprocessable, "code", "nothing is left to pay online")
		}
		card, err := usableCard(ctx, q, now, code)
		if err != nil {
			return err
		}
		// The rest is charged by card in whole minor units (whole pesos for CLP).
		take := floorToMinor(min(card.BalanceCents, left), i18n.MinorDigits(pv.Currency))
		if take <= 0 {
			return refused(CodeGiftCardEmpty, "code", "the gift card's balance is too small to pay with")
		}
		ms := db.Millis(now)
		if _, err := q.InsertGiftCardHold(ctx, db.InsertGiftCardHoldParams{
			GiftCardID: card.ID, PaymentRequestID: pr.ID, AmountCents: take, CreatedAt: ms, UpdatedAt: ms,
		}); err != nil {
			if db.IsConstraint(err, "gift_card_holds") {
				return refused(CodeGiftCardUnusable, "code", "the gift card is already applied to this payment")
			}
			return err
		}
		if err := move(ctx, q, now, card.ID, MoveHold, -take, pr.ID, 0); err != nil {
			return err
		}
		out.HeldCents = take
		if take < left {
			return nil
		}
		// The cards cover everything due online: settle now, as the provider's report would.
		saleID, err := settle(ctx, q, now, pr, Payment{Method: MethodGiftCard, AmountCents: held + take})
		if err != nil {
			return err
		}
		out.Settled = true
		return captureGiftHolds(ctx, q, now, pr.ID, saleID)
	})
	return out, err
}

// floorToMinor rounds hundredths down to a currency with digits minor digits.
func floorToMinor(cents int64, digits int) int64 {
	switch digits {
	case 0:
		return cents / 100 * 100
	case 1:
		return cents / 10 * 10
	}
	return cents
}

// heldCents is what gift cards hold for request prID.
func heldCents(ctx context.Context, q *db.Queries, prID int64) (int64, error) {
	holds, err := q.HeldGiftCards(ctx, prID)
	var sum int64
	for _, h := range holds {
		sum += h.AmountCents
	}
	return sum, err
}

// captureGiftHolds makes request prID's holds the payments of sale saleID, inside the
// settlement's transaction q.
func captureGiftHolds(ctx context.Context, q *db.Queries, now time.Time, prID, saleID int64) error {
	holds, err := q.HeldGiftCards(ctx, prID)
	if err != nil {
		return err
	}
	ms := db.Millis(now)
	for _, h := range holds {
		if n, err := q.EndGiftCardHold(ctx, db.EndGiftCardHoldParams{Status: "captured", SaleID: nullInt(saleID), UpdatedAt: ms, ID: h.ID}); err != nil || n != 1 {
			return cmpErr(err, errHoldMoved)
		}
		if err := move(ctx, q, now, h.GiftCardID, MoveCapture, 0, prID, saleID); err != nil {
			return err
		}
		if err := activity.Record(ctx, q, now, activity.Entry{Action: "gift_card.redeemed", Entity: "gift_card", EntityID: h.GiftCardID,
			Changes: activity.Changes{}.Set("amount_cents", nil, h.AmountCents).Set("sale_id", nil, saleID)}); err != nil {
			return err
		}
	}
	return nil
}

// releaseGiftHolds gives request prID's held money back to its cards, inside the transaction q
// that closes the request (or pays it in full another way). Money given back to a card voided
// meanwhile leaves it again, as the void would have taken it.
func releaseGiftHolds(ctx context.Context, q *db.Queries, now time.Time, prID int64) error {
	holds, err := q.HeldGiftCards(ctx, prID)
	if err != nil {
		return err
	}
	ms := db.Millis(now)
	for _, h := range holds {
		if n, err := q.EndGiftCardHold(ctx, db.EndGiftCardHoldParams{Status: "released", UpdatedAt: ms, ID: h.ID}); err != nil || n != 1 {
			return cmpErr(err, errHoldMoved)
		}
		if err := move(ctx, q, now, h.GiftCardID, MoveRelease, h.AmountCents, prID, 0); err != nil {
			return err
		}
		card, err := q.GetGiftCard(ctx, h.GiftCardID)
		if err != nil {
			return err
		}
		if card.Status == GiftCardVoid {
			if err := move(ctx, q, now, h.GiftCardID, MoveVoid, -h.AmountCents, prID, 0); err != nil {
				return err
			}
		}
	}
	return nil
}

// errHoldMoved: a hold read in this transaction was ended by it already (never by another:
// writes are serialized).
var errHoldMoved = errorString("gift card hold is no longer held")

type errorString string

func (e errorString) Error() string { return string(e) }

// GiftHolds are the cards holding money for request id (for the checkout page).
func GiftHolds(ctx context.Context, q *db.Queries, id int64) ([]db.HeldGiftCardsRow, error) {
	return q.HeldGiftCards(ctx, id)
}
