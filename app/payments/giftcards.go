package payments

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"

	"frontdesk/app/activity"
	"frontdesk/app/fail"
	"frontdesk/app/messages"
	"frontdesk/app/money"
	"frontdesk/app/resource"
	"frontdesk/db"
)

// Gift cards (docs/payments.md "Gift cards"). A card is sold as a cart item of type giftcard
// whose item_id is the card, through a payment request like any other sale: at the desk the
// owner settles it with a desk method, on the booking site the buyer pays it by card through the
// provider. The card is written 'pending' with its cart and becomes 'active' — its value issued
// to its ledger — inside the settlement's transaction (issueGiftCards), so an unpaid card is
// worth nothing.
//
// A card pays like money: at the desk (SettleWithGiftCard: the card's balance first, the rest
// by a desk method, one sale with a transaction for each) and at online checkout (giftcard_
// online.go: the card's part is held on the request and the rest paid by card; settlement
// captures the hold, a closed request releases it). The balance moves only through the ledger
// (gift_card_movements), whose triggers refuse any movement that would take it below zero.

// Gift card statuses, mirrored by the CHECK on gift_cards.status.
const (
	GiftCardPending = "pending"
	GiftCardActive  = "active"
	GiftCardVoid    = "void"
)

// Ledger movement kinds, mirrored by the CHECK on gift_card_movements.kind.
const (
	MoveIssue   = "issue"
	MoveRedeem  = "redeem"
	MoveHold    = "hold"
	MoveCapture = "capture"
	MoveRelease = "release"
	MoveVoid    = "void"
)

// MethodGiftCard is a payment with a gift card (payment_methods row 5).
const MethodGiftCard Method = 5

// itemGiftCard sells a gift card: item_id is the card (gift_cards.id).
const itemGiftCard = "giftcard"

// Sources of a gift card sale.
const (
	GiftSourceDesk = "desk"
	GiftSourceSite = "site"
)

// Who is emailed a card when it is issued.
const (
	SendToBuyer     = "buyer"
	SendToRecipient = "recipient"
	SendToNone      = "none"
)

// Bounds of a card's value, in hundredths.
const (
	giftMinCents = 100
	giftMaxCents = 100_000_000
)

// ErrGiftCardNotFound is a code that names no card.
var ErrGiftCardNotFound = &fail.Error{Code: fail.CodeNotFound, Reason: "gift_card", Message: "gift card not found"}

// Codes of gift card refusals.
const (
	CodeGiftCardUnusable = "gift_card_unusable" // not active: pending, void, or expired
	CodeGiftCardEmpty    = "gift_card_empty"    // no balance left
	CodeGiftCardRest     = "gift_card_rest"     // the card does not cover the amount and no other method pays the rest
)

// codeAlphabet is Crockford's base32: no I, L, O or U, so a code read aloud or typed from paper
// is not mistaken.
const codeAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// newGiftCode is 16 characters of codeAlphabet: 80 random bits, unguessable.
func newGiftCode() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	out := make([]byte, 16)
	for i, c := range b {
		out[i] = codeAlphabet[c&31]
	}
	return string(out)
}

// NormalizeGiftCode reads a code as a person types it: any case, with spaces or dashes, O for
// 0 and I or L for 1. ok is false when it cannot be a code.
func NormalizeGiftCode(s string) (string, bool) {
	var out []byte
	for _, r := range strings.ToUpper(s) {
		switch r {
		case ' ', '-', '\t':
			continue
		case 'O':
			r = '0'
		case 'I', 'L':
			r = '1'
		}
		if r > 127 || !strings.ContainsRune(codeAlphabet, r) {
			return "", false
		}
		out = append(out, byte(r))
	}
	return string(out), len(out) == 16
}

// FormatGiftCode shows a code in four groups: "7K3M-Q9TX-…".
func FormatGiftCode(code string) string {
	if len(code) != 16 {
		return code
	}
	return code[0:4] + "-" + code[4:8] + "-" + code[8:12] + "-" + code[12:16]
}

// GiftCardInput is a gift card to sell, as the desk's form or the booking site's sends it.
type GiftCardInput struct {
	Amount         string // decimal, in the business's currency
	BuyerName      string
	BuyerEmail     string
	RecipientName  string
	RecipientEmail string
	Message        string
	SendTo         string // SendToBuyer, SendToRecipient, SendToNone
}

// check validates in and returns its value in hundredths; errors are *RefusedError naming the
// field.
func (in *GiftCardInput) check() (int64, error) {
	in.BuyerName, in.BuyerEmail = strings.TrimSpace(in.BuyerName), strings.TrimSpace(in.BuyerEmail)
	in.RecipientName, in.RecipientEmail = strings.TrimSpace(in.RecipientName), strings.TrimSpace(in.RecipientEmail)
	in.Message = strings.TrimSpace(in.Message)
	c, err := money.Parse(strings.TrimSpace(in.Amount))
	switch {
	case err != nil:
		return 0, invalid("amount", "is not an amount")
	case int64(c) < giftMinCents || int64(c) > giftMaxCents:
		return 0, invalid("amount", "must be between 1 and 1000000")
	case in.BuyerName == "" || utf8.RuneCountInString(in.BuyerName) > 200:
		return 0, invalid("buyer_name", "is required (at most 200 characters)")
	case utf8.RuneCountInString(in.RecipientName) > 200:
		return 0, invalid("recipient_name", "is at most 200 characters")
	case utf8.RuneCountInString(in.Message) > 500:
		return 0, invalid("message", "is at most 500 characters")
	case !validEmail(in.BuyerEmail):
		return 0, invalid("buyer_email", "is not an email address")
	case !validEmail(in.RecipientEmail):
		return 0, invalid("recipient_email", "is not an email address")
	}
	switch in.SendTo {
	case SendToBuyer:
		if in.BuyerEmail == "" {
			return 0, invalid("buyer_email", "is required to email the card to the buyer")
		}
	case SendToRecipient:
		if in.RecipientEmail == "" {
			return 0, invalid("recipient_email", "is required to email the card to the recipient")
		}
	case SendToNone, "":
		in.SendTo = SendToNone
	default:
		return 0, invalid("send_to", "must be buyer, recipient or none")
	}
	return int64(c), nil
}

func validEmail(s string) bool {
	if s == "" {
		return true
	}
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && len(s) <= 254
}

// GiftCardSale is a card being sold and the payment request that sells it.
type GiftCardSale struct {
	Card    db.GiftCard
	Request db.PaymentRequest
}

// SellGiftCard writes a pending gift card and the cart and payment request that sell it, in one
// transaction: the desk then settles the request (Settle, with a desk method), the booking site
// sends the buyer to its checkout page. The card is issued when the request is paid.
//
// Errors: *RefusedError (validation; company_payments_disabled for the booking site when the
// business takes no online payments or does not sell cards online).
func SellGiftCard(ctx context.Context, d *db.DB, now time.Time, in GiftCardInput, source, checkoutBase string) (GiftCardSale, error) {
	value, err := in.check()
	if err != nil {
		return GiftCardSale{}, err
	}
	var out GiftCardSale
	err = d.InTx(ctx, func(q *db.Queries) error {
		out, err = sellGiftCard(ctx, q, now, in, value, source, checkoutBase)
		return err
	})
	return out, err
}

// SellGiftCardAtDesk sells a gift card at the desk, paid with desk method, in one transaction:
// the card, its cart and request, the sale, and the card issued. Errors: *RefusedError.
func SellGiftCardAtDesk(ctx context.Context, d *db.DB, now time.Time, in GiftCardInput, method Method) (db.GiftCard, error) {
	if !method.Valid() || method == MethodOnline || method == MethodGiftCard {
		return db.GiftCard{}, invalid("method", "must be a desk payment method")
	}
	value, err := in.check()
	if err != nil {
		return db.GiftCard{}, err
	}
	var card db.GiftCard
	err = d.InTx(ctx, func(q *db.Queries) error {
		sale, err := sellGiftCard(ctx, q, now, in, value, GiftSourceDesk, "")
		if err != nil {
			return err
		}
		if _, err := settle(ctx, q, now, sale.Request, Payment{Method: method, AmountCents: value}); err != nil {
			return err
		}
		card, err = q.GetGiftCard(ctx, sale.Card.ID)
		return err
	})
	return card, err
}

// sellGiftCard is SellGiftCard inside transaction q.
func sellGiftCard(ctx context.Context, q *db.Queries, now time.Time, in GiftCardInput, value int64, source, checkoutBase string) (GiftCardSale, error) {
	var out GiftCardSale
	err := func() error {
		if source == GiftSourceSite {
			settings, err := q.GetGiftCardSettings(ctx)
			if err != nil {
				return err
			}
			pay, err := q.CartPaymentSettings(ctx)
			if err != nil && !db.IsNotFound(err) {
				return err
			}
			if !settings.SellOnline || !pay.OnlinePayments {
				return refused(CodePaymentsDisabled, "", "gift cards are not sold online")
			}
		}
		location, err := q.FirstActiveLocation(ctx)
		if db.IsNotFound(err) {
			return refused(CodeUnprocessable, "location_id", "the business has no location to record the sale at")
		} else if err != nil {
			return err
		}
		ms := db.Millis(now)
		cartID, err := q.InsertCart(ctx, db.InsertCartParams{
			UUID: newUUID(), LocationID: nullInt(location), CreatedAt: ms, UpdatedAt: ms, ExpiresAt: db.Millis(now.Add(24 * time.Hour)),
		})
		if err != nil {
			return err
		}
		card, err := insertGiftCard(ctx, q, now, in, value, source, cartID)
		if err != nil {
			return err
		}
		name := "Gift card " + FormatGiftCode(card.Code)[:4]
		if err := insertItems(ctx, q, cartID, []line{{row: db.InsertCartItemParams{
			ItemID: card.ID, ItemType: itemGiftCard, ItemName: sql.NullString{String: name, Valid: true},
			Quantity: 1, UnitPriceCents: value, InstancesJSON: "[]",
		}}}); err != nil {
			return err
		}
		uuid := newUUID()
		prID, err := q.InsertPaymentRequest(ctx, db.InsertPaymentRequestParams{
			UUID: uuid, CartID: cartID, AmountCents: value, CheckoutURL: checkoutBase + "/pay/" + uuid, CreatedAt: ms, UpdatedAt: ms,
		})
		if err != nil {
			return fmt.Errorf("insert payment request: %w", err)
		}
		out.Card = card
		out.Request, err = q.GetPaymentRequest(ctx, prID)
		return err
	}()
	return out, err
}

// insertGiftCard writes a pending card with a fresh code (a collision, one in 2^80, is tried
// again).
func insertGiftCard(ctx context.Context, q *db.Queries, now time.Time, in GiftCardInput, value int64, source string, cartID int64) (db.GiftCard, error) {
	ms := db.Millis(now)
	for range 3 {
		card, err := q.InsertGiftCard(ctx, db.InsertGiftCardParams{
			Code: newGiftCode(), ValueCents: value, Source: source,
			BuyerName: in.BuyerName, BuyerEmail: in.BuyerEmail, RecipientName: in.RecipientName, RecipientEmail: in.RecipientEmail,
			Message: in.Message, SendTo: in.SendTo, CartID: cartID, CreatedAt: ms, UpdatedAt: ms,
		})
		if db.IsConstraint(err, "gift_cards.code") {
			continue
		}
		return card, err
	}
	return db.GiftCard{}, errors.New("gift card: no free code")
}

// issueGiftCards activates the cards cart c sells, inside settlement's transaction q: each
// gets its expiry (the owner's setting) and its value issued to its ledger.
func issueGiftCards(ctx context.Context, q *db.Queries, now time.Time, c db.Cart, saleID int64) error {
	cards, err := q.PendingGiftCardsOfCart(ctx, c.ID)
	if err != nil || len(cards) == 0 {
		return err
	}
	settings, err := q.GetGiftCardSettings(ctx)
	if err != nil {
		return err
	}
	var expires sql.NullInt64
	if settings.ExpiryMonths > 0 {
		expires = nullInt(db.Millis(now.AddDate(0, int(settings.ExpiryMonths), 0)))
	}
	ms := db.Millis(now)
	for _, card := range cards {
		n, err := q.ActivateGiftCard(ctx, db.ActivateGiftCardParams{SaleID: nullInt(saleID), IssuedAt: nullInt(ms), ExpiresAt: expires, UpdatedAt: ms, ID: card.ID})
		if err != nil || n != 1 {
			return cmpErr(err, fmt.Errorf("gift card %d is no longer pending", card.ID))
		}
		if err := move(ctx, q, now, card.ID, MoveIssue, card.ValueCents, 0, saleID); err != nil {
			return err
		}
		if err := activity.Record(ctx, q, now, activity.Entry{Action: "gift_card.issued", Entity: "gift_card", EntityID: card.ID,
			Changes: activity.Changes{}.Set("value_cents", nil, card.ValueCents).Set("sale_id", nil, saleID).Set("source", nil, card.Source)}); err != nil {
			return err
		}
		// The card is emailed, once it is worth its value, to whom the buyer chose.
		if card.SendTo != "none" {
			if err := messages.GiftCardIssued(ctx, q, now, card.ID); err != nil {
				return err
			}
		}
	}
	return nil
}

func cmpErr(err, otherwise error) error {
	if err != nil {
		return err
	}
	return otherwise
}

// move writes one ledger movement of card id: amount is the signed change of its balance.
// The ledger's triggers refuse it when the card is not usable or would be overdrawn; those
// refusals come back as *RefusedError.
func move(ctx context.Context, q *db.Queries, now time.Time, id int64, kind string, amount, prID, saleID int64) error {
	_, err := q.InsertGiftCardMovement(ctx, db.InsertGiftCardMovementParams{
		GiftCardID: id, Kind: kind, AmountCents: amount,
		PaymentRequestID: sql.NullInt64{Int64: prID, Valid: prID != 0}, SaleID: sql.NullInt64{Int64: saleID, Valid: saleID != 0},
		CreatedAt: db.Millis(now),
	})
	return giftWriteError(err)
}

// giftWriteError translates the ledger triggers' refusals.
func giftWriteError(err error) error {
	switch {
	case err == nil:
		return nil
	case db.IsConstraint(err, "gift_card_overdrawn"):
		return refused(CodeGiftCardEmpty, "code", "the gift card's balance does not cover this")
	case db.IsConstraint(err, "gift_card_not_active"), db.IsConstraint(err, "gift_card_expired"):
		return refused(CodeGiftCardUnusable, "code", "the gift card cannot be used")
	}
	return err
}

// usableCard finds the card with code (as typed) and checks it can pay now: active, not
// expired, with a balance.
func usableCard(ctx context.Context, q *db.Queries, now time.Time, code string) (db.GiftCard, error) {
	norm, ok := NormalizeGiftCode(code)
	if !ok {
		return db.GiftCard{}, ErrGiftCardNotFound
	}
	card, err := q.GiftCardByCode(ctx, norm)
	switch {
	case db.IsNotFound(err):
		return card, ErrGiftCardNotFound
	case err != nil:
		return card, err
	case card.Status != GiftCardActive || card.ExpiresAt.Valid && card.ExpiresAt.Int64 <= db.Millis(now):
		return card, refused(CodeGiftCardUnusable, "code", "the gift card is %s", giftState(card, now))
	case card.BalanceCents <= 0:
		return card, refused(CodeGiftCardEmpty, "code", "the gift card has no balance left")
	}
	return card, nil
}

// GiftState is what a card is now: pending, active, void or expired.
func GiftState(card db.GiftCard, now time.Time) string { return giftState(card, now) }

func giftState(card db.GiftCard, now time.Time) string {
	if card.Status == GiftCardActive && card.ExpiresAt.Valid && card.ExpiresAt.Int64 <= db.Millis(now) {
		return "expired"
	}
	return card.Status
}

// SettleWithGiftCard settles pending request id at the desk with the gift card code: the card
// pays as much as its balance allows (all of the request at most), and rest, a desk method,
// pays what is left — one sale with a transaction for each, the card's redemption on its
// ledger, all in one transaction. rest may be 0 when the card covers everything.
//
// Errors: ErrPaymentRequestNotFound, ErrGiftCardNotFound, *RefusedError
// (payment_request_invalid_status, gift_card_unusable, gift_card_empty, gift_card_rest,
// cart_paid).
func SettleWithGiftCard(ctx context.Context, d *db.DB, id int64, code string, rest Method, now time.Time) (int64, error) {
	if rest != 0 && (!rest.Valid() || rest == MethodOnline || rest == MethodGiftCard) {
		return 0, invalid("method", "must be a desk payment method")
	}
	var saleID int64
	var refusal error
	err := d.InTx(ctx, func(q *db.Queries) error {
		pr, expired, err := openAtDesk(ctx, q, id, now)
		if err != nil || expired != nil {
			refusal = expired
			return err
		}
		card, err := usableCard(ctx, q, now, code)
		if err != nil {
			return err
		}
		take := min(card.BalanceCents, pr.AmountCents)
		pays := []Payment{{Method: MethodGiftCard, AmountCents: take}}
		if left := pr.AmountCents - take; left > 0 {
			if rest == 0 {
				return refused(CodeGiftCardRest, "method", "the gift card covers %s of %s; choose how the rest is paid",
					money.Cents(take), money.Cents(pr.AmountCents))
			}
			pays = append(pays, Payment{Method: rest, AmountCents: left})
		}
		if saleID, err = settle(ctx, q, now, pr, pays...); err != nil {
			return err
		}
		if err := move(ctx, q, now, card.ID, MoveRedeem, -take, pr.ID, saleID); err != nil {
			return err
		}
		return activity.Record(ctx, q, now, activity.Entry{Action: "gift_card.redeemed", Entity: "gift_card", EntityID: card.ID,
			Changes: activity.Changes{}.Set("amount_cents", nil, take).Set("sale_id", nil, saleID)})
	})
	if err == nil {
		err = refusal
	}
	return saleID, err
}

// GiftCardSettings are the owner's gift card settings.
type GiftCardSettings struct {
	ExpiryMonths int64 // 0: cards never expire
	SellOnline   bool
}

// GetGiftCardSettings reads the settings.
func GetGiftCardSettings(ctx context.Context, q *db.Queries) (GiftCardSettings, error) {
	s, err := q.GetGiftCardSettings(ctx)
	return GiftCardSettings{ExpiryMonths: s.ExpiryMonths, SellOnline: s.SellOnline}, err
}

// SaveGiftCardSettings stores the settings, on the activity trail.
func SaveGiftCardSettings(ctx context.Context, d *db.DB, now time.Time, in GiftCardSettings) error {
	if in.ExpiryMonths < 0 || in.ExpiryMonths > 120 {
		return invalid("expiry_months", "must be between 0 (never) and 120")
	}
	return d.InTx(ctx, func(q *db.Queries) error {
		old, err := q.GetGiftCardSettings(ctx)
		if err != nil {
			return err
		}
		if err := q.UpdateGiftCardSettings(ctx, db.UpdateGiftCardSettingsParams{ExpiryMonths: in.ExpiryMonths, SellOnline: in.SellOnline, UpdatedAt: db.Millis(now)}); err != nil {
			return err
		}
		ch := activity.Changes{}
		if old.ExpiryMonths != in.ExpiryMonths {
			ch.Set("expiry_months", old.ExpiryMonths, in.ExpiryMonths)
		}
		if old.SellOnline != in.SellOnline {
			ch.Set("sell_online", old.SellOnline, in.SellOnline)
		}
		if len(ch) == 0 {
			return nil
		}
		return activity.Record(ctx, q, now, activity.Entry{Action: "gift_card.settings_changed", Entity: "settings", Changes: ch})
	})
}

// VoidGiftCard cancels card id: what is left of its balance leaves the ledger and the card can
// no longer pay. Money held for an online payment in progress stays held until that request
// ends. Errors: ErrGiftCardNotFound, *RefusedError when it is already void.
func VoidGiftCard(ctx context.Context, d *db.DB, now time.Time, id int64) error {
	return d.InTx(ctx, func(q *db.Queries) error {
		card, err := q.GetGiftCard(ctx, id)
		if db.IsNotFound(err) {
			return ErrGiftCardNotFound
		} else if err != nil {
			return err
		}
		if card.Status == GiftCardVoid {
			return refused(CodeGiftCardUnusable, "", "the gift card is already void")
		}
		if card.BalanceCents > 0 {
			if err := move(ctx, q, now, id, MoveVoid, -card.BalanceCents, 0, 0); err != nil {
				return err
			}
		}
		if _, err := q.VoidGiftCard(ctx, db.VoidGiftCardParams{UpdatedAt: db.Millis(now), ID: id}); err != nil {
			return err
		}
		return activity.Record(ctx, q, now, activity.Entry{Action: "gift_card.voided", Entity: "gift_card", EntityID: id,
			Changes: activity.Changes{}.Set("status", card.Status, GiftCardVoid).Set("balance_cents", card.BalanceCents, 0)})
	})
}

// GiftCardView is a card with its ledger.
type GiftCardView struct {
	Card      db.GiftCard
	State     string // GiftState
	Movements []db.GiftCardMovement
}

// LoadGiftCard reads card id (or, with id 0, the card with code) and its ledger.
func LoadGiftCard(ctx context.Context, q *db.Queries, now time.Time, id int64, code string) (GiftCardView, error) {
	var card db.GiftCard
	var err error
	if id != 0 {
		card, err = q.GetGiftCard(ctx, id)
	} else if norm, ok := NormalizeGiftCode(code); ok {
		card, err = q.GiftCardByCode(ctx, norm)
	} else {
		return GiftCardView{}, ErrGiftCardNotFound
	}
	if db.IsNotFound(err) {
		return GiftCardView{}, ErrGiftCardNotFound
	} else if err != nil {
		return GiftCardView{}, err
	}
	moves, err := q.GiftCardMovements(ctx, card.ID)
	return GiftCardView{Card: card, State: giftState(card, now), Movements: moves}, err
}

// GiftCardByCode is the gift card whose code is code (typed as people type it), as /v3 and
// MCP show it. Errors: ErrGiftCardNotFound.
func GiftCardByCode(ctx context.Context, q *db.Queries, now time.Time, code string) (resource.GiftCard, error) {
	v, err := LoadGiftCard(ctx, q, now, 0, code)
	if err != nil {
		return resource.GiftCard{}, err
	}
	return resource.NewGiftCard(v.Card, v.State, FormatGiftCode(v.Card.Code)), nil
}
