package payments

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// Online checkout statuses, mirrored by the CHECK on online_checkouts.status.
const (
	checkoutCreating   = "creating"   // written before the provider is called
	checkoutOpen       = "open"       // the customer can pay at its URL
	checkoutProcessing = "processing" // complete, the payment not yet confirmed
	checkoutPaid       = "paid"       // settled the request (final)
	checkoutExpired    = "expired"
	checkoutFailed     = "failed"  // the provider refused it, or its payment failed
	checkoutRefused    = "refused" // paid, but not settled: flagged to the owner (final)
)

// Due is what a payment request asks to be paid online: the lines of the hosted checkout and
// their sum. Partial is true when that is less than the request's amount — a deposit for
// services whose online payment is MANDATORY_PARTIAL; the rest is paid at the business.
type Due struct {
	Lines       []CheckoutLine
	AmountCents int64
	Partial     bool
	// Mandatory: a service in the cart must be paid online (MANDATORY_TOTAL or _PARTIAL), so
	// the checkout page does not offer paying at the front desk instead.
	Mandatory bool
	// GiftCents is what gift cards hold for the request (giftcard_online.go): paid, not asked.
	GiftCents int64
}

// DueOnline is what request v asks to be paid online, in lang for the lines' names. Each line
// is a cart item at its unit price less its discount — or, for a MANDATORY_PARTIAL service,
// the service's online amount per unit when that is less. Unit amounts are rounded half up to
// the currency's minor unit (whole pesos for CLP), since a card is charged in those. Money gift
// cards hold for the request is already paid: the checkout asks for the rest, as one line.
func DueOnline(ctx context.Context, q *db.Queries, v RequestView, lang string) (Due, error) {
	d, err := dueBeforeHolds(ctx, q, v, lang)
	if err != nil {
		return d, err
	}
	held, err := heldCents(ctx, q, v.Request.ID)
	if err != nil || held == 0 {
		return d, err
	}
	d.GiftCents = min(held, d.AmountCents)
	d.Lines, d.AmountCents = nil, d.AmountCents-d.GiftCents
	if d.AmountCents > 0 {
		p := i18n.NewPrinter(lang, i18n.Prefs{Currency: v.Currency})
		d.Lines = []CheckoutLine{{Name: p.T("checkout.gift_card_rest"), Quantity: 1, UnitCents: d.AmountCents}}
	}
	return d, nil
}

// dueBeforeHolds is DueOnline before gift cards.
func dueBeforeHolds(ctx context.Context, q *db.Queries, v RequestView, lang string) (Due, error) {
	var ids []int64
	for _, it := range v.Cart.Items {
		if it.Row.ItemType == itemService {
			ids = append(ids, it.Row.ItemID)
		}
	}
	services := map[int64]db.OnlineDueServicesRow{}
	if len(ids) > 0 {
		rows, err := q.OnlineDueServices(ctx, ids)
		if err != nil {
			return Due{}, err
		}
		for _, r := range rows {
			services[r.ID] = r
		}
	}
	p := i18n.NewPrinter(lang, i18n.Prefs{Currency: v.Currency})
	digits := i18n.MinorDigits(v.Currency)
	var d Due
	for _, it := range v.Cart.Items {
		r := it.Row
		unit := r.UnitPriceCents - unitDiscount(r.UnitPriceCents, r.UnitDiscountCents, r.UnitDiscountType)
		name := r.ItemName.String
		if name == "" {
			name = r.ItemType + " " + strconv.FormatInt(r.ItemID, 10)
		}
		s, ok := services[r.ItemID]
		ok = ok && r.ItemType == itemService
		d.Mandatory = d.Mandatory || ok && (s.OnlinePaymentMode == PaymentPartial || s.OnlinePaymentMode == PaymentTotal)
		if ok && s.OnlinePaymentMode == PaymentPartial &&
			s.OnlinePaymentCents.Valid && s.OnlinePaymentCents.Int64 < unit {
			unit, name = s.OnlinePaymentCents.Int64, p.T("checkout.deposit_line", "name", name)
		}
		if unit = roundToMinor(unit, digits); unit <= 0 {
			continue
		}
		d.Lines = append(d.Lines, CheckoutLine{Name: name, Quantity: r.Quantity, UnitCents: unit})
		d.AmountCents += unit * r.Quantity
	}
	if dep := v.Request.DepositCents; dep.Valid && len(d.Lines) > 0 {
		// A deposit a rule asked for (DepositFor): one line, what is asked online, the rest at
		// the business; not to be paid at the desk instead.
		if amount := roundToMinor(dep.Int64, digits); amount > 0 && amount < d.AmountCents {
			d.Lines = []CheckoutLine{{Name: p.T("checkout.deposit_line", "name", d.Lines[0].Name), Quantity: 1, UnitCents: amount}}
			d.AmountCents = amount
		}
		d.Mandatory = true
	}
	d.Partial = d.AmountCents < v.Request.AmountCents
	return d, nil
}

// Service online payment modes that ask for payment online: a deposit, or everything.
const (
	PaymentPartial = "MANDATORY_PARTIAL"
	PaymentTotal   = "MANDATORY_TOTAL"
)

// roundToMinor rounds hundredths half up to a currency with digits minor digits.
func roundToMinor(cents int64, digits int) int64 {
	switch digits {
	case 0:
		return (cents + 50) / 100 * 100
	case 1:
		return (cents + 5) / 10 * 10
	}
	return cents
}

// StartCheckout returns the URL of a hosted checkout where the customer pays request uuid: the
// open one it already has, or a new one. A new checkout is first written as 'creating' with its
// idempotency key and expiry, then created at the provider, then opened — so a retry after a
// crash or a timeout repeats the very same call and gets the same checkout, never a second one.
//
// Errors: ErrPaymentRequestNotFound, ErrOnlineOff, ErrNotConfigured, ErrNotPayable,
// ErrPaymentProcessing, ErrNothingDue, *ProviderError.
func (o *Online) StartCheckout(ctx context.Context, uuid, lang string) (string, error) {
	pv, err := LoadCheckout(ctx, o.db.R, uuid)
	if err != nil {
		return "", err
	}
	if pv.Status(o.now()) != StatusPending {
		return "", ErrNotPayable
	}
	defer o.lockRequest(pv.Request.ID)()
	name, err := o.ActiveProvider(ctx, o.db.R)
	if err != nil {
		return "", err
	}
	if name == ProviderNone {
		return "", ErrOnlineOff
	}
	prov, err := o.provider(ctx, o.db.R, name)
	if err != nil {
		return "", err
	}
	// Two rounds at most: an old checkout is closed, or a stale 'creating' one is replaced,
	// and then a new one is made.
	for range 3 {
		now := o.now()
		live, err := o.db.R.LiveOnlineCheckout(ctx, pv.Request.ID)
		if err != nil {
			return "", err
		}
		var co db.OnlineCheckout
		switch {
		case len(live) == 0:
			if co, err = o.newCheckout(ctx, name, pv, lang); err != nil {
				return "", err
			}
		case live[0].Status == checkoutProcessing:
			return "", ErrPaymentProcessing
		case live[0].Status == checkoutOpen && live[0].Provider == name && now.Before(db.Time(live[0].ExpiresAt).Add(-time.Minute)):
			return live[0].URL, nil
		case live[0].Status == checkoutOpen:
			// About to lapse, or made with another provider: close it, then start again (the
			// customer may have paid it meanwhile, which settles the request).
			if err := o.closeCheckout(ctx, live[0]); err != nil {
				return "", err
			}
			if pr, err := o.db.R.GetPaymentRequest(ctx, pv.Request.ID); err != nil {
				return "", err
			} else if pr.Status != StatusPending {
				return "", ErrNotPayable
			}
			continue
		case live[0].Provider != name:
			if err := o.failCheckout(ctx, live[0].ID); err != nil {
				return "", err
			}
			continue
		default:
			co = live[0] // a 'creating' checkout whose call did not come back: make the same call
		}
		url, retry, err := o.createAtProvider(ctx, prov, pv, co, lang)
		if retry {
			continue
		}
		return url, err
	}
	return "", fmt.Errorf("payment request %d: could not start a checkout", pv.Request.ID)
}

// newCheckout writes the 'creating' row of request pv's next checkout at provider name.
func (o *Online) newCheckout(ctx context.Context, name string, pv RequestView, lang string) (db.OnlineCheckout, error) {
	owed, err := DueOnline(ctx, o.db.R, pv, lang)
	if err != nil {
		return db.OnlineCheckout{}, err
	}
	if owed.AmountCents <= 0 {
		return db.OnlineCheckout{}, ErrNothingDue
	}
	now := o.now()
	var id int64
	err = o.db.InTx(ctx, func(q *db.Queries) error {
		pr, err := q.GetPaymentRequest(ctx, pv.Request.ID)
		if err != nil {
			return err
		}
		if pr.Status != StatusPending || due(pr, now) {
			return ErrNotPayable
		}
		n, err := q.CountOnlineCheckouts(ctx, db.CountOnlineCheckoutsParams{PaymentRequestID: pr.ID, Provider: name})
		if err != nil {
			return err
		}
		id, err = q.InsertOnlineCheckout(ctx, db.InsertOnlineCheckoutParams{
			PaymentRequestID: pr.ID, Provider: name, Attempt: n + 1,
			IdempotencyKey: fmt.Sprintf("frontdesk-%s-%d", pr.UUID, n+1),
			AmountCents:    owed.AmountCents, Currency: pv.Currency,
			ExpiresAt: db.Millis(checkoutExpiry(now, pr, o.regs[name])), CreatedAt: db.Millis(now), UpdatedAt: db.Millis(now),
		})
		return err
	})
	if err != nil {
		return db.OnlineCheckout{}, err
	}
	return o.db.R.GetOnlineCheckout(ctx, id)
}

// checkoutExpiry is when a new checkout for pr lapses: the request's own expiry when the
// provider allows it, else the nearest time it does (docs/payments.md "Expiry"). A request
// that lapses sooner than the provider's minimum has its checkout closed by frontdesk at the
// request's expiry (Expirer); one that lapses later than the maximum, or never, gets a new
// checkout when the customer comes back after it lapsed. A minute of margin on each side
// absorbs the clocks' difference. Whole seconds, as providers take them.
func checkoutExpiry(now time.Time, pr db.PaymentRequest, reg Registration) time.Time {
	lo, hi := now.Add(reg.MinLifetime+time.Minute), now.Add(reg.MaxLifetime-time.Minute)
	at := hi
	if pr.ExpiresAt.Valid {
		at = db.Time(pr.ExpiresAt.Int64)
	}
	switch {
	case at.Before(lo):
		at = lo
	case at.After(hi):
		at = hi
	}
	return at.Truncate(time.Second)
}

// createAtProvider makes checkout co at the provider and opens it. retry is true when co was
// given up (the provider refused a repeat of its call) and a new one should be made.
func (o *Online) createAtProvider(ctx context.Context, prov Provider, pv RequestView, co db.OnlineCheckout, lang string) (string, bool, error) {
	owed, err := DueOnline(ctx, o.db.R, pv, lang)
	if err != nil {
		return "", false, err
	}
	if owed.AmountCents != co.AmountCents || pv.Currency != co.Currency {
		// The business changed something (a service's deposit, the currency) since the row
		// was written: the stored call cannot be repeated as it was.
		return "", true, o.failCheckout(ctx, co.ID)
	}
	uuid := pv.Request.UUID
	st, err := prov.CreateCheckout(ctx, CheckoutParams{
		RequestID: pv.Request.ID, RequestUUID: uuid, Lines: owed.Lines, AmountCents: co.AmountCents, Currency: co.Currency,
		SuccessURL:     o.links.URL("/pay/"+uuid, url.Values{"checkout": {"done"}}),
		CancelURL:      o.links.URL("/pay/"+uuid, url.Values{"checkout": {"cancelled"}}),
		ExpiresAt:      db.Time(co.ExpiresAt),
		IdempotencyKey: co.IdempotencyKey, Language: lang, SaveCard: pv.Request.SaveCard,
	})
	var pe *ProviderError
	if errors.As(err, &pe) && !pe.Temporary {
		o.log.WarnContext(ctx, "payment provider refused a checkout", "provider", co.Provider, "payment_request", pv.Request.ID, "err", err)
		if err := o.failCheckout(ctx, co.ID); err != nil {
			return "", false, err
		}
		// A repeat whose parameters changed (the business's language, say) is refused as an
		// idempotency error: make a fresh attempt (StartCheckout bounds the rounds).
		return "", pe.Code == "idempotency_error", err
	} else if err != nil {
		return "", false, err
	}
	expires := st.ExpiresAt
	if expires.IsZero() {
		expires = db.Time(co.ExpiresAt)
	}
	err = o.db.InTx(ctx, func(q *db.Queries) error {
		_, err := q.OpenOnlineCheckout(ctx, db.OpenOnlineCheckoutParams{
			SessionID: nullString(st.ID), URL: st.URL, ExpiresAt: db.Millis(expires), UpdatedAt: db.Millis(o.now()), ID: co.ID,
		})
		return err
	})
	if err != nil {
		return "", false, err
	}
	return st.URL, false, nil
}

// failCheckout gives up a checkout that never opened or can no longer be used.
func (o *Online) failCheckout(ctx context.Context, id int64) error {
	return o.db.InTx(ctx, func(q *db.Queries) error {
		co, err := q.GetOnlineCheckout(ctx, id)
		if err != nil || co.Status != checkoutCreating && co.Status != checkoutOpen {
			return err
		}
		return setCheckout(ctx, q, co, checkoutFailed, o.now())
	})
}

// Refresh asks the provider about request uuid's live checkout and applies what it says: the
// checkout page does it when the customer comes back from paying, so the page can say "paid"
// without waiting for the notification. A provider that cannot be reached is only logged; the
// notification or the reconciliation will tell.
func (o *Online) Refresh(ctx context.Context, uuid string) {
	pv, err := LoadCheckout(ctx, o.db.R, uuid)
	if err != nil {
		return
	}
	if pv.Request.Purpose == PurposeCard {
		if err := o.refreshCardSetup(ctx, pv.Request.ID); err != nil {
			o.log.WarnContext(ctx, "refresh card setup", "payment_request", pv.Request.ID, "err", err)
		}
		return
	}
	live, err := o.db.R.LiveOnlineCheckout(ctx, pv.Request.ID)
	if err != nil || len(live) == 0 || !live[0].SessionID.Valid {
		return
	}
	if _, err := o.syncCheckout(ctx, live[0]); err != nil {
		o.log.WarnContext(ctx, "refresh checkout", "payment_request", pv.Request.ID, "err", err)
	}
}

// CheckoutOf is request id's live checkout, if it has one (for the pages).
func (o *Online) CheckoutOf(ctx context.Context, id int64) (db.OnlineCheckout, bool, error) {
	live, err := o.db.R.LiveOnlineCheckout(ctx, id)
	if err != nil || len(live) == 0 {
		return db.OnlineCheckout{}, false, err
	}
	return live[0], true, nil
}
