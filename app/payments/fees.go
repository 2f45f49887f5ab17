package payments

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"frontdesk/app/activity"
	"frontdesk/app/booking"
	"frontdesk/app/fail"
	"frontdesk/app/messages"
	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// Cancellation fees (docs/payments.md "Cancellation fees"): the owner charges a no-show or a
// late cancel the policy's fee with one click, off session, on the card the client saved. Each
// booking and kind is charged at most once: a booking_fees row (unique by booking and kind) is
// written 'charging' with an idempotency key derived from the booking and the kind before the
// provider is called, so a second click finds it and a retry after a timeout repeats the very
// same call, which the provider answers with the same payment. A paid fee is a sale — a cart
// with the fee's line, a payment request settled like any other, so the receipt goes out — and
// a fee the bank wants the client to authenticate becomes a payment request whose link is sent
// to them.

// Booking fee statuses, mirrored by the CHECK on booking_fees.status.
const (
	feeCharging = "charging"
	feePaid     = "paid"
	feeLinkSent = "link_sent"
	feeFailed   = "failed"
)

// What ChargeFee did.
const (
	FeeCharged  = "charged"   // the card was charged: a sale
	FeeLinkSent = "link_sent" // the bank asked for the client: a payment link was sent
	FeeDeclined = "declined"  // the card was declined; the owner may try again
	FeeAlready  = "already"   // charged (or sent) before: nothing more was done
)

// FeeCharge is the outcome of ChargeFee.
type FeeCharge struct {
	Outcome string
	Fee     db.BookingFee
}

// Refusals of ChargeFee.
var (
	ErrFeeNotDue        = fail.Refused("fee_not_due", "the booking was not a no-show or a late cancel by the client")
	ErrFeeOutsidePolicy = fail.Refused("fee_outside_policy", "the cancellation policy charges no such fee for this booking now")
	ErrNoCardOnFile     = fail.Refused("no_card_on_file", "the client has no saved card to charge")
)

// feeLocks serialise fee charges per booking (by id modulo their number) within the process;
// the database's unique (booking, kind) holds across processes.
var feeLocks [32]sync.Mutex

// FeeDue is the fee of kind the policy charges booking b now (0 and the refusal when none).
func FeeDue(p Policy, b db.Booking, kind string, now time.Time) (int64, error) {
	start := db.Time(b.StartAt)
	var c Charge
	switch kind {
	case FeeNoShow:
		if b.StatusID != booking.StatusNoShow {
			return 0, ErrFeeNotDue
		}
		c = p.NoShow
	case FeeLateCancel:
		if b.StatusID != booking.StatusCancelled || b.CancelledBy.String != "client" || !b.CancelledAt.Valid {
			return 0, ErrFeeNotDue
		}
		if !db.Time(b.CancelledAt.Int64).After(start.Add(-p.Notice)) {
			return 0, ErrFeeNotDue // cancelled with the notice the policy asks
		}
		c = p.Late
	default:
		return 0, fail.Invalid("kind", "must be %s or %s", FeeNoShow, FeeLateCancel)
	}
	if now.After(start.AddDate(0, 0, int(p.ChargeDays))) {
		return 0, ErrFeeOutsidePolicy
	}
	fee := c.For(b.PriceCents)
	if fee <= 0 {
		return 0, ErrFeeOutsidePolicy
	}
	return fee, nil
}

// ChargeFee charges booking id the policy's fee of kind on the client's saved card, once.
//
// Errors: fail not_found (booking); ErrFeeNotDue, ErrFeeOutsidePolicy, ErrNoCardOnFile;
// ErrOnlineOff, ErrNotConfigured, ErrCardsUnsupported; *ProviderError when the provider could
// not be reached (the fee stays 'charging': trying again repeats the same call).
func (o *Online) ChargeFee(ctx context.Context, id int64, kind string) (FeeCharge, error) {
	if kind != FeeNoShow && kind != FeeLateCancel {
		return FeeCharge{}, fail.Invalid("kind", "must be %s or %s", FeeNoShow, FeeLateCancel)
	}
	m := &feeLocks[id%int64(len(feeLocks))]
	m.Lock()
	defer m.Unlock()
	name, prov, err := o.cardProvider(ctx, o.db.R)
	if err != nil {
		return FeeCharge{}, err
	}
	now := o.now()
	var fee db.BookingFee
	var card db.BookingCard
	var b db.Booking
	done := false
	err = o.db.InTx(ctx, func(q *db.Queries) error {
		var err error
		if b, err = q.GetBookingRow(ctx, id); db.IsNotFound(err) {
			return fail.NotFound("booking")
		} else if err != nil {
			return err
		}
		if card, err = cardOfBooking(ctx, q, b, name); err != nil {
			return err
		}
		fee, err = q.GetBookingFee(ctx, db.GetBookingFeeParams{BookingID: id, Kind: kind})
		switch {
		case err == nil && (fee.Status == feePaid || fee.Status == feeLinkSent):
			done = true
			return nil
		case err == nil && fee.Status == feeCharging:
			return nil // a call that did not come back: repeat it as it was
		case err != nil && !db.IsNotFound(err):
			return err
		}
		pol, err := LoadPolicy(ctx, q)
		if err != nil {
			return err
		}
		amount, err := FeeDue(pol, b, kind, now)
		if err != nil {
			return err
		}
		settings, err := q.CartPaymentSettings(ctx)
		if err != nil {
			return err
		}
		ms := db.Millis(now)
		if fee.ID == 0 {
			_, err = q.InsertBookingFee(ctx, db.InsertBookingFeeParams{
				BookingID: id, Kind: kind, AmountCents: amount, Currency: settings.Currency, Attempt: 1,
				IdempotencyKey: feeKey(id, kind, 1), CreatedAt: ms, UpdatedAt: ms,
			})
		} else { // declined before: a new attempt, a new key
			_, err = q.RetryBookingFee(ctx, db.RetryBookingFeeParams{
				IdempotencyKey: feeKey(id, kind, fee.Attempt+1), AmountCents: amount, UpdatedAt: ms, ID: fee.ID,
			})
		}
		if err != nil {
			return err
		}
		fee, err = q.GetBookingFee(ctx, db.GetBookingFeeParams{BookingID: id, Kind: kind})
		return err
	})
	if err != nil {
		return FeeCharge{}, err
	}
	if done {
		return FeeCharge{Outcome: FeeAlready, Fee: fee}, nil
	}
	res, err := prov.ChargeCard(ctx, ChargeParams{
		CustomerRef: card.CustomerRef, PaymentMethodRef: card.PaymentMethodRef, AmountCents: fee.AmountCents, Currency: fee.Currency,
		Description: "frontdesk " + kind + " fee, booking " + strconv.FormatInt(id, 10),
		Metadata: map[string]string{"booking_id": strconv.FormatInt(id, 10), "fee": kind,
			"fee_attempt": strconv.FormatInt(fee.Attempt, 10)},
		IdempotencyKey: fee.IdempotencyKey,
	})
	if err != nil {
		return FeeCharge{}, err
	}
	var outcome string
	err = o.db.InTx(ctx, func(q *db.Queries) error {
		cur, err := q.GetBookingFee(ctx, db.GetBookingFeeParams{BookingID: id, Kind: kind})
		if err != nil {
			return err
		}
		if cur.Status != feeCharging || cur.Attempt != fee.Attempt {
			// The provider's notification of this charge came first (applyCharge).
			outcome, fee = FeeAlready, cur
			return nil
		}
		if outcome, err = o.recordFee(ctx, q, now, b, fee, res); err != nil {
			return err
		}
		fee, err = q.GetBookingFee(ctx, db.GetBookingFeeParams{BookingID: id, Kind: kind})
		return err
	})
	if err != nil {
		return FeeCharge{}, err
	}
	return FeeCharge{Outcome: outcome, Fee: fee}, nil
}

// Outcomes of a provider's report about a fee's off-session charge.
const (
	OutcomeFeeCharged  = "fee_" + FeeCharged
	OutcomeFeeLinkSent = "fee_" + FeeLinkSent
	OutcomeFeeDeclined = "fee_" + FeeDeclined
)

// ChargeEvent is what a provider reports about an off-session charge: its result, and the
// booking, fee kind and attempt ChargeFee put in its metadata (0 and "" for a charge frontdesk
// did not make).
type ChargeEvent struct {
	ChargeResult
	BookingID int64
	Fee       string
	Attempt   int64
}

// applyCharge applies a provider's report about a fee's off-session charge inside HandleEvent's
// transaction q. A fee still 'charging' in the reported attempt — the owner's call has not come
// back, or never will — is recorded as the report says, exactly as ChargeFee records an answer
// (a sale, a payment link, or declined); a fee already recorded, or a report of an earlier
// attempt, changes nothing. So each charge is recorded once, whichever of the answer and the
// notifications comes first and however often they come.
func (o *Online) applyCharge(ctx context.Context, q *db.Queries, now time.Time, ev ChargeEvent) (string, error) {
	if ev.BookingID == 0 || ev.Fee != FeeNoShow && ev.Fee != FeeLateCancel {
		return OutcomeIgnored, nil
	}
	if !ev.Paid && !ev.NeedsAuthentication && ev.DeclineCode == "" {
		return OutcomeIgnored, nil // still processing: its final report follows
	}
	fee, err := q.GetBookingFee(ctx, db.GetBookingFeeParams{BookingID: ev.BookingID, Kind: ev.Fee})
	if db.IsNotFound(err) {
		return OutcomeIgnored, nil
	} else if err != nil {
		return "", err
	}
	if fee.Status != feeCharging || fee.Attempt != ev.Attempt {
		return OutcomeDuplicate, nil
	}
	b, err := q.GetBookingRow(ctx, fee.BookingID)
	if err != nil {
		return "", err
	}
	outcome, err := o.recordFee(ctx, q, now, b, fee, ev.ChargeResult)
	if err != nil {
		return "", err
	}
	return "fee_" + outcome, nil
}

// feeKey is the provider's idempotency key of a fee's attempt: the booking and the kind, so
// however often the owner clicks or a call is retried, one attempt is one payment.
func feeKey(bookingID int64, kind string, attempt int64) string {
	return fmt.Sprintf("frontdesk-fee-%d-%s-%d", bookingID, kind, attempt)
}

// cardOfBooking is the card booking b was made with, else the client's saved card, at provider.
func cardOfBooking(ctx context.Context, q *db.Queries, b db.Booking, provider string) (db.BookingCard, error) {
	c, err := q.GetBookingCard(ctx, b.ID)
	if err == nil && c.Provider == provider {
		return c, nil
	} else if err != nil && !db.IsNotFound(err) {
		return db.BookingCard{}, err
	}
	cc, err := q.GetClientCard(ctx, b.ClientID)
	if db.IsNotFound(err) || err == nil && cc.Provider != provider {
		return db.BookingCard{}, ErrNoCardOnFile
	} else if err != nil {
		return db.BookingCard{}, err
	}
	return db.BookingCard{BookingID: b.ID, ClientID: cc.ClientID, Provider: cc.Provider, CustomerRef: cc.CustomerRef,
		PaymentMethodRef: cc.PaymentMethodRef, Brand: cc.Brand, Last4: cc.Last4, SavedAt: cc.SavedAt}, nil
}

// recordFee writes what the provider did with fee's charge, inside q.
func (o *Online) recordFee(ctx context.Context, q *db.Queries, now time.Time, b db.Booking, fee db.BookingFee, res ChargeResult) (string, error) {
	set := func(status, ref string, prID, saleID int64, failure string) error {
		n, err := q.SetBookingFeeResult(ctx, db.SetBookingFeeResultParams{
			Status: status, PaymentRef: ref, PaymentRequestID: optInt(prID), SaleID: optInt(saleID), Failure: failure,
			UpdatedAt: db.Millis(now), ID: fee.ID,
		})
		if err == nil && n != 1 {
			err = fmt.Errorf("booking fee %d is no longer being charged", fee.ID)
		}
		return err
	}
	ch := activity.Changes{}.Set("kind", nil, fee.Kind).Set("amount_cents", nil, fee.AmountCents)
	record := func(action string) error {
		return activity.Record(ctx, q, now, activity.Entry{Action: action, EntityID: b.ID, Changes: ch})
	}
	switch {
	case res.Paid:
		if res.AmountCents != fee.AmountCents || res.Currency != fee.Currency {
			return "", fmt.Errorf("booking fee %d: the provider charged %d %s, not %d %s", fee.ID, res.AmountCents, res.Currency, fee.AmountCents, fee.Currency)
		}
		pr, err := o.feeRequest(ctx, q, now, b, fee)
		if err != nil {
			return "", err
		}
		saleID, err := settle(ctx, q, now, pr, Payment{Method: MethodOnline, AmountCents: fee.AmountCents})
		if err != nil {
			return "", err
		}
		if err := set(feePaid, res.ID, pr.ID, saleID, ""); err != nil {
			return "", err
		}
		ch.Set("sale_id", nil, saleID)
		return FeeCharged, record("booking.fee_charged")
	case res.NeedsAuthentication:
		pr, err := o.feeRequest(ctx, q, now, b, fee)
		if err != nil {
			return "", err
		}
		// The client authenticates with their bank on the hosted checkout the link opens.
		if err := messages.PaymentRequestCreated(ctx, q, now, pr.ID); err != nil {
			return "", err
		}
		if err := set(feeLinkSent, res.ID, pr.ID, 0, ""); err != nil {
			return "", err
		}
		ch.Set("payment_request_id", nil, pr.ID)
		return FeeLinkSent, record("booking.fee_link_sent")
	}
	if err := set(feeFailed, res.ID, 0, 0, res.DeclineCode); err != nil {
		return "", err
	}
	ch.Set("failure", nil, res.DeclineCode)
	return FeeDeclined, record("booking.fee_declined")
}

// feeRequest writes the fee's cart — one line, the fee, named for the booking's service in the
// business's language — and a pending payment request for it with no expiry (it holds nothing).
func (o *Online) feeRequest(ctx context.Context, q *db.Queries, now time.Time, b db.Booking, fee db.BookingFee) (db.PaymentRequest, error) {
	svc, err := q.GetService(ctx, b.ServiceID)
	if err != nil {
		return db.PaymentRequest{}, err
	}
	lang, err := q.FeeCompanyLanguage(ctx)
	if err != nil && !db.IsNotFound(err) {
		return db.PaymentRequest{}, err
	}
	p := i18n.NewPrinter(lang, i18n.Prefs{Currency: fee.Currency})
	ms := db.Millis(now)
	cartID, err := q.InsertCart(ctx, db.InsertCartParams{
		UUID: newUUID(), ClientID: nullInt(b.ClientID), LocationID: nullInt(b.LocationID),
		CreatedAt: ms, UpdatedAt: ms, ExpiresAt: db.Millis(now.Add(CartTTL)),
	})
	if err != nil {
		return db.PaymentRequest{}, err
	}
	if err := q.InsertCartItem(ctx, db.InsertCartItemParams{
		CartID: cartID, ItemID: svc.Service.ID, ItemType: itemService,
		ItemName: sql.NullString{String: p.T("fees.line."+fee.Kind, "name", svc.Service.Name), Valid: true},
		ItemUUID: sql.NullString{String: svc.Service.UUID, Valid: true},
		Quantity: 1, UnitPriceCents: fee.AmountCents, InstancesJSON: "[]",
	}); err != nil {
		return db.PaymentRequest{}, err
	}
	uuid := newUUID()
	prID, err := q.InsertPaymentRequest(ctx, db.InsertPaymentRequestParams{
		UUID: uuid, CartID: cartID, AmountCents: fee.AmountCents, CheckoutURL: o.links.URL("/pay/"+uuid, nil),
		CreatedAt: ms, UpdatedAt: ms,
	})
	if err != nil {
		return db.PaymentRequest{}, err
	}
	if err := q.SetPaymentRequestPurpose(ctx, db.SetPaymentRequestPurposeParams{Purpose: PurposeFee, ID: prID}); err != nil {
		return db.PaymentRequest{}, err
	}
	return q.GetPaymentRequest(ctx, prID)
}

// feeLine is the name of a fee's line on its sale.
func feeLine(p *i18n.Printer, kind, service string) string {
	if kind == FeeNoShow {
		return p.T("fees.line.no_show", "name", service)
	}
	return p.T("fees.line.late_cancel", "name", service)
}

// feePaidByLink marks the fee a paid request was sent for as paid by sale saleID (the client
// paid the link after authenticating).
func feePaidByLink(ctx context.Context, q *db.Queries, now time.Time, prID, saleID int64) error {
	fees, err := q.BookingFeeOfRequest(ctx, nullInt(prID))
	if err != nil {
		return err
	}
	for _, f := range fees {
		if err := q.SetBookingFeePaid(ctx, db.SetBookingFeePaidParams{SaleID: nullInt(saleID), UpdatedAt: db.Millis(now), ID: f.ID}); err != nil {
			return err
		}
	}
	return nil
}

// FeesOf are booking id's fees (for its page).
func FeesOf(ctx context.Context, q *db.Queries, id int64) ([]db.BookingFee, error) {
	return q.BookingFeesOfBooking(ctx, id)
}

func optInt(v int64) sql.NullInt64 { return sql.NullInt64{Int64: v, Valid: v != 0} }

// FeeOptions is what booking id's page offers about fees: the card it would be charged to
// (nil: none on file), the fees the policy lets the owner charge now (by kind, with their
// amounts), and the fees charged or sent so far.
type FeeOptions struct {
	Card *db.BookingCard
	Due  map[string]int64
	Fees []db.BookingFee
}

// FeeOptionsOf reads booking id's FeeOptions at now with the active provider name.
func FeeOptionsOf(ctx context.Context, q *db.Queries, id int64, provider string, now time.Time) (FeeOptions, error) {
	out := FeeOptions{Due: map[string]int64{}}
	b, err := q.GetBookingRow(ctx, id)
	if err != nil {
		return out, err
	}
	if out.Fees, err = q.BookingFeesOfBooking(ctx, id); err != nil {
		return out, err
	}
	card, err := cardOfBooking(ctx, q, b, provider)
	if errors.Is(err, ErrNoCardOnFile) {
		return out, nil
	} else if err != nil {
		return out, err
	}
	out.Card = &card
	pol, err := LoadPolicy(ctx, q)
	if err != nil {
		return out, err
	}
	taken := map[string]bool{}
	for _, f := range out.Fees {
		taken[f.Kind] = f.Status == feePaid || f.Status == feeLinkSent
	}
	for _, kind := range []string{FeeNoShow, FeeLateCancel} {
		if amount, err := FeeDue(pol, b, kind, now); err == nil && !taken[kind] {
			out.Due[kind] = amount
		}
	}
	return out, nil
}
