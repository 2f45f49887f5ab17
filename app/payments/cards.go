package payments

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"frontdesk/app/activity"
	"frontdesk/app/booking"
	"frontdesk/db"
)

// Card on file (docs/payments.md "Card on file"): a service, or the whole business, may require
// a card to be booked online. The booking is then reserved behind a payment request whose
// purpose is PurposeCard — held until the card is saved, and released when the request expires,
// exactly as a request to pay holds its bookings — and the customer saves a card on the
// provider's hosted page in setup mode. When the provider reports the card saved, its brand and
// last four digits are kept on the client and the booking, and the booking is confirmed.

// Purposes of a payment request, mirrored by the CHECK on payment_requests.purpose.
const (
	PurposePayment = "payment" // money to pay (a cart, a deposit)
	PurposeCard    = "card"    // a card to save; amount 0
	PurposeFee     = "fee"     // a cancellation fee the bank would not let us charge off session
)

// CardProvider is a Provider that can save cards and charge them later (Stripe). Like the rest
// of Provider it speaks hundredths and upper-case currency codes.
type CardProvider interface {
	// CreateCustomer makes the provider's customer a client's cards are saved to; the same
	// IdempotencyKey returns the same customer.
	CreateCustomer(ctx context.Context, p CustomerParams) (string, error)
	// CreateSetupCheckout opens a hosted page in setup mode where the customer saves a card.
	CreateSetupCheckout(ctx context.Context, p SetupParams) (CheckoutState, error)
	// SavedCard reads the card a completed setup saved (CheckoutState.SetupRef).
	SavedCard(ctx context.Context, setupRef string) (Card, error)
	// ChargeCard charges a saved card without the customer (off session), idempotent by key.
	ChargeCard(ctx context.Context, p ChargeParams) (ChargeResult, error)
	// PaymentCard reads the card a payment (CheckoutState.PaymentRef) of a checkout that saves
	// one was made with.
	PaymentCard(ctx context.Context, paymentRef string) (Card, error)
}

// CustomerParams is a provider's customer to make for a client.
type CustomerParams struct {
	ClientID       int64
	Name, Email    string
	IdempotencyKey string
}

// SetupParams is one hosted page that saves a card.
type SetupParams struct {
	RequestID      int64
	RequestUUID    string
	CustomerRef    string
	Currency       string
	SuccessURL     string
	CancelURL      string
	ExpiresAt      time.Time
	IdempotencyKey string
	Language       string
}

// Card is a saved card: the provider's customer and payment method, and what may be shown.
type Card struct {
	CustomerRef, PaymentMethodRef string
	Brand, Last4                  string
}

// ChargeParams is an off-session charge of a saved card.
type ChargeParams struct {
	CustomerRef, PaymentMethodRef string
	AmountCents                   int64
	Currency                      string
	Description                   string
	Metadata                      map[string]string
	IdempotencyKey                string
}

// ChargeResult is what the provider did with a charge: Paid; NeedsAuthentication when the bank
// wants the customer present (the charge is then to be paid through a payment link); or
// declined, with DeclineCode.
type ChargeResult struct {
	ID                  string
	Status              string
	Paid                bool
	NeedsAuthentication bool
	DeclineCode         string
	AmountCents         int64
	Currency            string
}

// ErrNotCardRequest: the payment request is not one that saves a card.
var ErrNotCardRequest = errors.New("the payment request does not save a card")

// ErrCardsUnsupported: the active provider cannot save cards.
var ErrCardsUnsupported = errors.New("the payment provider cannot save cards")

// Card setup statuses, mirrored by the CHECK on card_setups.status.
const (
	setupCreating = "creating"
	setupOpen     = "open"
	setupSaved    = "saved"
	setupExpired  = "expired"
	setupFailed   = "failed"
)

// OutcomeCardSaved: a setup checkout saved a card.
const OutcomeCardSaved = "card_saved"

// CardRequired reports whether a customer's booking of service must save a card first: the
// business or the service requires one, and online payments are on with a provider (Stripe,
// the one compiled in, saves cards; StartCardSetup refuses for one that cannot).
func CardRequired(ctx context.Context, q *db.Queries, serviceID int64) (bool, error) {
	settings, err := q.CartPaymentSettings(ctx)
	if db.IsNotFound(err) || err == nil && !settings.OnlinePayments {
		return false, nil
	} else if err != nil {
		return false, err
	}
	if s, err := q.GetPaymentProviderSettings(ctx); db.IsNotFound(err) || err == nil && s.Provider == ProviderNone {
		return false, nil
	} else if err != nil {
		return false, err
	}
	return needsCard(ctx, q, serviceID)
}

// NeedsCard reports whether booking service online requires a card on file: the business asks
// it for every booking, or for this service, and a provider that saves cards is switched on.
func (o *Online) NeedsCard(ctx context.Context, q *db.Queries, serviceID int64) (bool, error) {
	if !o.cardsOn(ctx, q) {
		return false, nil
	}
	return needsCard(ctx, q, serviceID)
}

func needsCard(ctx context.Context, q *db.Queries, serviceID int64) (bool, error) {
	pol, err := q.GetCardPolicy(ctx)
	if err != nil && !db.IsNotFound(err) {
		return false, err
	}
	if err == nil && pol.RequireCard {
		return true, nil
	}
	n, err := q.ServiceNeedsCard(ctx, serviceID)
	return n, err
}

// cardsOn reports whether the active provider saves cards.
func (o *Online) cardsOn(ctx context.Context, q *db.Queries) bool {
	name, err := o.ActiveProvider(ctx, q)
	if err != nil || name == ProviderNone {
		return false
	}
	reg := o.regs[name]
	return reg.Cards
}

// cardProvider is the active provider as a CardProvider.
func (o *Online) cardProvider(ctx context.Context, q *db.Queries) (string, CardProvider, error) {
	name, err := o.ActiveProvider(ctx, q)
	if err != nil {
		return "", nil, err
	}
	if name == ProviderNone {
		return "", nil, ErrOnlineOff
	}
	prov, err := o.provider(ctx, q, name)
	if err != nil {
		return "", nil, err
	}
	cp, ok := prov.(CardProvider)
	if !ok {
		return "", nil, ErrCardsUnsupported
	}
	return name, cp, nil
}

// ReserveForCard books what a customer who books a service that needs a card on file asks for:
// like ReserveOnline, the booking reserved, a cart for the client with the service and a
// pending payment request that expires after the business's payment expiry — but the request's
// purpose is PurposeCard and its amount 0: nothing is paid, a card is saved. It joins the
// caller's transaction (db.WithTx) or owns one.
func ReserveForCard(ctx context.Context, d *db.DB, now time.Time, b booking.Prepared, checkoutBase string) (db.PaymentRequest, int64, error) {
	var pr db.PaymentRequest
	var bookingID int64
	err := d.InTx(ctx, func(q *db.Queries) error {
		var err error
		pr, bookingID, err = reserveHeld(ctx, q, now, b, checkoutBase, hold{purpose: PurposeCard})
		return err
	})
	return pr, bookingID, err
}

// StartCardSetup returns the URL of the hosted page where the customer of card request uuid
// saves a card: its open setup, or a new one. As for StartCheckout, a new setup is first written
// 'creating' with its idempotency key, so a retry after a timeout repeats the very same calls
// (the customer's, then the session's) and gets the same page.
//
// Errors: ErrPaymentRequestNotFound, ErrNotCardRequest, ErrNotPayable, ErrOnlineOff,
// ErrNotConfigured, ErrCardsUnsupported, *ProviderError.
func (o *Online) StartCardSetup(ctx context.Context, uuid, lang string) (string, error) {
	pv, err := LoadCheckout(ctx, o.db.R, uuid)
	if err != nil {
		return "", err
	}
	if pv.Request.Purpose != PurposeCard {
		return "", ErrNotCardRequest
	}
	if pv.Status(o.now()) != StatusPending {
		return "", ErrNotPayable
	}
	defer o.lockRequest(pv.Request.ID)()
	name, prov, err := o.cardProvider(ctx, o.db.R)
	if err != nil {
		return "", err
	}
	for range 3 {
		live, err := o.db.R.LiveCardSetup(ctx, pv.Request.ID)
		if err != nil {
			return "", err
		}
		var cs db.CardSetup
		switch {
		case len(live) == 0:
			if cs, err = o.newCardSetup(ctx, name, pv); err != nil {
				return "", err
			}
		case live[0].Status == setupOpen && live[0].Provider == name && o.now().Before(db.Time(live[0].ExpiresAt).Add(-time.Minute)):
			return live[0].URL, nil
		case live[0].Status == setupOpen || live[0].Provider != name:
			// About to lapse, or made with another provider: a new page (a card saved on the
			// old one meanwhile is still applied by its notification).
			if err := o.endCardSetup(ctx, live[0].ID, setupExpired); err != nil {
				return "", err
			}
			continue
		default:
			cs = live[0] // 'creating': the calls did not come back; make the same calls
		}
		url, err := o.createSetupAtProvider(ctx, prov, pv, cs, lang)
		var pe *ProviderError
		if errors.As(err, &pe) && !pe.Temporary {
			o.log.WarnContext(ctx, "payment provider refused a card setup", "payment_request", pv.Request.ID, "err", err)
			if err := o.endCardSetup(ctx, cs.ID, setupFailed); err != nil {
				return "", err
			}
			if pe.Code == "idempotency_error" {
				continue
			}
		}
		return url, err
	}
	return "", fmt.Errorf("payment request %d: could not start a card setup", pv.Request.ID)
}

func (o *Online) newCardSetup(ctx context.Context, name string, pv RequestView) (db.CardSetup, error) {
	now := o.now()
	var id int64
	err := o.db.InTx(ctx, func(q *db.Queries) error {
		pr, err := q.GetPaymentRequest(ctx, pv.Request.ID)
		if err != nil {
			return err
		}
		if pr.Status != StatusPending || due(pr, now) {
			return ErrNotPayable
		}
		n, err := q.CountCardSetups(ctx, db.CountCardSetupsParams{PaymentRequestID: pr.ID, Provider: name})
		if err != nil {
			return err
		}
		// A customer the client already has at this provider is reused.
		customer := ""
		if pv.Cart.Cart.ClientID.Valid {
			if c, err := q.GetClientCard(ctx, pv.Cart.Cart.ClientID.Int64); err == nil && c.Provider == name {
				customer = c.CustomerRef
			} else if err != nil && !db.IsNotFound(err) {
				return err
			}
		}
		id, err = q.InsertCardSetup(ctx, db.InsertCardSetupParams{
			PaymentRequestID: pr.ID, Provider: name, Attempt: n + 1,
			IdempotencyKey: fmt.Sprintf("frontdesk-card-%s-%d", pr.UUID, n+1), CustomerRef: customer,
			ExpiresAt: db.Millis(checkoutExpiry(now, pr, o.regs[name])), CreatedAt: db.Millis(now), UpdatedAt: db.Millis(now),
		})
		return err
	})
	if err != nil {
		return db.CardSetup{}, err
	}
	return o.db.R.GetCardSetup(ctx, id)
}

// createSetupAtProvider makes setup cs at the provider (its customer first, when the client has
// none there yet) and opens it.
func (o *Online) createSetupAtProvider(ctx context.Context, prov CardProvider, pv RequestView, cs db.CardSetup, lang string) (string, error) {
	customer := cs.CustomerRef
	if customer == "" {
		var err error
		customer, err = prov.CreateCustomer(ctx, CustomerParams{
			ClientID: pv.Cart.Cart.ClientID.Int64, Name: pv.ClientName,
			IdempotencyKey: cs.IdempotencyKey + "-customer",
		})
		if err != nil {
			return "", err
		}
	}
	uuid := pv.Request.UUID
	st, err := prov.CreateSetupCheckout(ctx, SetupParams{
		RequestID: pv.Request.ID, RequestUUID: uuid, CustomerRef: customer, Currency: pv.Currency,
		SuccessURL:     o.links.URL("/pay/"+uuid, url.Values{"checkout": {"done"}}),
		CancelURL:      o.links.URL("/pay/"+uuid, url.Values{"checkout": {"cancelled"}}),
		ExpiresAt:      db.Time(cs.ExpiresAt),
		IdempotencyKey: cs.IdempotencyKey, Language: lang,
	})
	if err != nil {
		return "", err
	}
	expires := st.ExpiresAt
	if expires.IsZero() {
		expires = db.Time(cs.ExpiresAt)
	}
	err = o.db.InTx(ctx, func(q *db.Queries) error {
		return q.OpenCardSetup(ctx, db.OpenCardSetupParams{
			SessionID: nullString(st.ID), URL: st.URL, ExpiresAt: db.Millis(expires), UpdatedAt: db.Millis(o.now()), ID: cs.ID,
		})
	})
	return st.URL, err
}

// endCardSetup gives up setup id (never one that saved a card: a trigger keeps that final).
func (o *Online) endCardSetup(ctx context.Context, id int64, status string) error {
	return o.db.InTx(ctx, func(q *db.Queries) error {
		cs, err := q.GetCardSetup(ctx, id)
		if err != nil || cs.Status != setupCreating && cs.Status != setupOpen {
			return err
		}
		_, err = q.SetCardSetupStatus(ctx, db.SetCardSetupStatusParams{Status: status, UpdatedAt: db.Millis(o.now()), ID: id})
		return err
	})
}

// savedCardOf reads, before the transaction that applies it, the card a setup-mode checkout
// saved (nil when st is not a completed setup).
func (o *Online) savedCardOf(ctx context.Context, prov Provider, st *CheckoutState) (*Card, error) {
	if st == nil || st.Mode != "setup" || st.Status != CheckoutComplete || st.SetupRef == "" {
		return nil, nil
	}
	cp, ok := prov.(CardProvider)
	if !ok {
		return nil, nil
	}
	c, err := cp.SavedCard(ctx, st.SetupRef)
	if err != nil {
		return nil, err
	}
	if c.CustomerRef == "" {
		c.CustomerRef = st.CustomerRef
	}
	return &c, nil
}

// applyCardSetup applies what the provider says about setup cs inside transaction q: a saved
// card is kept on the client and on the bookings the request holds, which are confirmed and
// the request done; a lapsed setup that held the request's time expires the request. A saved
// setup is final, so a redelivery or a late report changes nothing.
func (o *Online) applyCardSetup(ctx context.Context, q *db.Queries, now time.Time, name string, cs db.CardSetup, st CheckoutState, card *Card) (string, error) {
	cs, err := q.GetCardSetup(ctx, cs.ID)
	if err != nil {
		return "", err
	}
	if cs.Status == setupSaved {
		return OutcomeDuplicate, nil
	}
	pr, err := q.GetPaymentRequest(ctx, cs.PaymentRequestID)
	if err != nil {
		return "", err
	}
	setStatus := func(s string) error {
		_, err := q.SetCardSetupStatus(ctx, db.SetCardSetupStatusParams{Status: s, UpdatedAt: db.Millis(now), ID: cs.ID})
		return err
	}
	switch {
	case card != nil:
		if err := setStatus(setupSaved); err != nil {
			return "", err
		}
		return OutcomeCardSaved, saveCard(ctx, q, now, name, pr, *card)
	case st.Status == CheckoutExpired:
		if cs.Status == setupExpired || cs.Status == setupFailed {
			return OutcomeDuplicate, nil
		}
		if err := setStatus(setupExpired); err != nil {
			return "", err
		}
		if pr.Status == StatusPending && pr.ExpiresAt.Valid && (due(pr, now) || cs.ExpiresAt+999 >= pr.ExpiresAt.Int64) {
			if closed, err := expireInTx(ctx, q, now, pr); err != nil || closed {
				return OutcomeRequestExpired, err
			}
		}
		return OutcomeCheckoutClosed, nil
	}
	return OutcomeOpen, nil
}

// saveCard keeps card on request pr's client and, while pr is pending, on the bookings it holds,
// which are confirmed; the request is then done. A card saved after the request closed is kept
// on the client only: its bookings were released.
func saveCard(ctx context.Context, q *db.Queries, now time.Time, name string, pr db.PaymentRequest, card Card) error {
	c, err := q.GetCart(ctx, pr.CartID)
	if err != nil {
		return err
	}
	if !c.ClientID.Valid {
		return nil
	}
	ms := db.Millis(now)
	if err := q.SaveClientCard(ctx, db.SaveClientCardParams{
		ClientID: c.ClientID.Int64, Provider: name, CustomerRef: card.CustomerRef, PaymentMethodRef: card.PaymentMethodRef,
		Brand: card.Brand, Last4: card.Last4, SavedAt: ms,
	}); err != nil {
		return err
	}
	ch := activity.Changes{}.Set("card", nil, card.Brand+" "+card.Last4)
	if err := activity.Record(ctx, q, now, activity.Entry{Action: "client.card_saved", EntityID: c.ClientID.Int64, Changes: ch}); err != nil {
		return err
	}
	if pr.Status != StatusPending {
		return nil
	}
	bs, err := q.PaymentRequestBookings(ctx, nullInt(pr.ID))
	if err != nil {
		return err
	}
	jctx, d := joined(ctx, q)
	for _, b := range bs {
		if b.StatusID != booking.StatusReserved {
			continue
		}
		if err := q.SaveBookingCard(ctx, db.SaveBookingCardParams{
			BookingID: b.ID, ClientID: c.ClientID.Int64, Provider: name, CustomerRef: card.CustomerRef,
			PaymentMethodRef: card.PaymentMethodRef, Brand: card.Brand, Last4: card.Last4, SavedAt: ms,
		}); err != nil {
			return err
		}
		if err := booking.Confirm(jctx, d, now, b.ID); err != nil {
			return fmt.Errorf("confirm booking %d: %w", b.ID, err)
		}
	}
	n, err := q.MarkPaymentRequestDone(ctx, db.MarkPaymentRequestDoneParams{PaidAt: nullInt(ms), UpdatedAt: ms, ID: pr.ID})
	if err != nil {
		return err
	}
	if n != 1 {
		return fmt.Errorf("payment request %d: no longer pending", pr.ID)
	}
	return nil
}

// CardSetupOf is card request id's live setup, if it has one (for the pages).
func (o *Online) CardSetupOf(ctx context.Context, id int64) (db.CardSetup, bool, error) {
	live, err := o.db.R.LiveCardSetup(ctx, id)
	if err != nil || len(live) == 0 {
		return db.CardSetup{}, false, err
	}
	return live[0], true, nil
}

// refreshCardSetup asks the provider about request id's open setup and applies the answer (the
// customer is back from the provider's page).
func (o *Online) refreshCardSetup(ctx context.Context, id int64) error {
	live, err := o.db.R.LiveCardSetup(ctx, id)
	if err != nil || len(live) == 0 || !live[0].SessionID.Valid {
		return err
	}
	cs := live[0]
	prov, err := o.provider(ctx, o.db.R, cs.Provider)
	if err != nil {
		return err
	}
	st, err := prov.Checkout(ctx, cs.SessionID.String)
	if err != nil {
		return err
	}
	card, err := o.savedCardOf(ctx, prov, &st)
	if err != nil {
		return err
	}
	now := o.now()
	return o.db.InTx(ctx, func(q *db.Queries) error {
		_, err := o.applyCardSetup(ctx, q, now, cs.Provider, cs, st, card)
		return err
	})
}

// closeCardSetupForExpiry expires request id's open setup at the provider before the request
// expires; a card saved first is applied (and confirms the booking).
func (o *Online) closeCardSetupForExpiry(ctx context.Context, id int64) error {
	live, err := o.db.R.LiveCardSetup(ctx, id)
	if err != nil || len(live) == 0 {
		return err
	}
	cs := live[0]
	if !cs.SessionID.Valid {
		return o.endCardSetup(ctx, cs.ID, setupFailed)
	}
	prov, err := o.provider(ctx, o.db.R, cs.Provider)
	if err != nil {
		return err
	}
	st, err := prov.ExpireCheckout(ctx, cs.SessionID.String)
	if err != nil {
		return err
	}
	card, err := o.savedCardOf(ctx, prov, &st)
	if err != nil {
		return err
	}
	now := o.now()
	return o.db.InTx(ctx, func(q *db.Queries) error {
		_, err := o.applyCardSetup(ctx, q, now, cs.Provider, cs, st, card)
		return err
	})
}

// paymentCardOf reads, before the transaction that settles it, the card a paid checkout of a
// request that saves one was made with, into st.Card (a deposit whose booking also needs a card
// on file: "Card and deposit together" in docs/payments.md).
func (o *Online) paymentCardOf(ctx context.Context, prov Provider, st *CheckoutState) error {
	if st == nil || st.Mode == "setup" || !st.Paid || st.PaymentRef == "" || st.RequestID == 0 || st.Card != nil {
		return nil
	}
	pr, err := o.db.R.GetPaymentRequest(ctx, st.RequestID)
	if db.IsNotFound(err) || err == nil && !pr.SaveCard {
		return nil
	} else if err != nil {
		return err
	}
	cp, ok := prov.(CardProvider)
	if !ok {
		return nil
	}
	c, err := cp.PaymentCard(ctx, st.PaymentRef)
	if err != nil {
		return err
	}
	if c.CustomerRef == "" {
		c.CustomerRef = st.CustomerRef
	}
	st.Card = &c
	return nil
}

// keepPaymentCard keeps card — the one request pr's deposit was paid with — on its client and on
// the bookings it held (settle confirmed them), inside q.
func keepPaymentCard(ctx context.Context, q *db.Queries, now time.Time, name string, pr db.PaymentRequest, card Card) error {
	c, err := q.GetCart(ctx, pr.CartID)
	if err != nil || !c.ClientID.Valid {
		return err
	}
	ms := db.Millis(now)
	if err := q.SaveClientCard(ctx, db.SaveClientCardParams{
		ClientID: c.ClientID.Int64, Provider: name, CustomerRef: card.CustomerRef, PaymentMethodRef: card.PaymentMethodRef,
		Brand: card.Brand, Last4: card.Last4, SavedAt: ms,
	}); err != nil {
		return err
	}
	bs, err := q.PaymentRequestBookings(ctx, nullInt(pr.ID))
	if err != nil {
		return err
	}
	for _, b := range bs {
		if err := q.SaveBookingCard(ctx, db.SaveBookingCardParams{
			BookingID: b.ID, ClientID: c.ClientID.Int64, Provider: name, CustomerRef: card.CustomerRef,
			PaymentMethodRef: card.PaymentMethodRef, Brand: card.Brand, Last4: card.Last4, SavedAt: ms,
		}); err != nil {
			return err
		}
	}
	ch := activity.Changes{}.Set("card", nil, card.Brand+" "+card.Last4)
	return activity.Record(ctx, q, now, activity.Entry{Action: "client.card_saved", EntityID: c.ClientID.Int64, Changes: ch})
}
