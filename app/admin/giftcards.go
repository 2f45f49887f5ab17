package admin

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/payments"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Payments → Gift cards (docs/payments.md "Gift cards"): the cards with their balances, the
// desk's sale form (the card is issued when the sale is recorded, in one transaction), a card's
// page with its ledger and the void button, the settings (expiry, selling online), and paying a
// payment request with a card. Every change goes through app/payments.

const giftCardsPerPage = 25

func sendToOptions(r *http.Request) []ui.Option {
	return []ui.Option{
		{Value: payments.SendToNone, Label: translate(r, "giftcards.send_to.none")},
		{Value: payments.SendToBuyer, Label: translate(r, "giftcards.send_to.buyer")},
		{Value: payments.SendToRecipient, Label: translate(r, "giftcards.send_to.recipient")},
	}
}

func (a *Admin) listGiftCards(w http.ResponseWriter, r *http.Request) {
	a.renderGiftCards(w, r, http.StatusOK, ui.NewForm(nil), nil)
}

func (a *Admin) renderGiftCards(w http.ResponseWriter, r *http.Request, status int, f, settings *ui.Form) {
	ctx := r.Context()
	page := pageNumber(r.URL.Query())
	total, err := a.db.R.CountGiftCards(ctx, "")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	cards, err := a.db.R.ListGiftCards(ctx, db.ListGiftCardsParams{Status: "", Limit: giftCardsPerPage, Offset: (page - 1) * giftCardsPerPage})
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if settings == nil {
		s, err := payments.GetGiftCardSettings(ctx, a.db.R)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		settings = ui.NewForm(nil)
		settings.Set("expiry_months", strconv.FormatInt(s.ExpiryMonths, 10))
		if s.SellOnline {
			settings.Set("sell_online", "on")
		}
	}
	p := i18n.From(ctx)
	now := a.now()
	v := ui.GiftCardsView{Form: f, Methods: methodOptions(r), SendTo: sendToOptions(r), Settings: settings,
		CanSettings: a.mayPost(r, "/payments/giftcards/settings"),
		Pager:       listPager(r.URL, page, giftCardsPerPage, total, translate(r, "pager.gift_cards", "count", total))}
	for _, c := range cards {
		v.Rows = append(v.Rows, ui.GiftCardRow{ID: c.ID, Code: payments.FormatGiftCode(c.Code), Value: p.Money(c.ValueCents),
			Balance: p.Money(c.BalanceCents), State: payments.GiftState(c, now), Buyer: c.BuyerName,
			For: strings.TrimSpace(c.RecipientName), Created: db.Time(c.CreatedAt)})
	}
	a.render(w, r, status, ui.GiftCardsPage(a.page(r, translate(r, "giftcards.title")), v))
}

// sellGiftCard is the desk's sale form, POST /payments/giftcards.
func (a *Admin) sellGiftCard(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	method, ok := deskMethod(r, f)
	if !ok {
		a.renderGiftCards(w, r, http.StatusUnprocessableEntity, f, nil)
		return
	}
	in := payments.GiftCardInput{Amount: f.Get("amount"), BuyerName: f.Get("buyer_name"), BuyerEmail: f.Get("buyer_email"),
		RecipientName: f.Get("recipient_name"), RecipientEmail: f.Get("recipient_email"), Message: f.Get("message"), SendTo: f.Get("send_to")}
	card, err := payments.SellGiftCardAtDesk(r.Context(), a.db, a.now(), in, method)
	var refusal *payments.RefusedError
	if errors.As(err, &refusal) {
		field, _, _ := strings.Cut(refusal.Detail, ":")
		if f.Values.Has(field) {
			f.SetError(field, giftFieldError(r, field))
		} else {
			f.Message = translate(r, "payments.refused.other")
		}
		a.renderGiftCards(w, r, http.StatusUnprocessableEntity, f, nil)
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "giftcards.sold", "code", payments.FormatGiftCode(card.Code)))
	seeOther(w, r, ui.GiftCardURL(card.ID))
}

func (a *Admin) showGiftCard(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	ctx := r.Context()
	gv, err := payments.LoadGiftCard(ctx, a.db.R, a.now(), id, "")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	p := i18n.From(ctx)
	c := gv.Card
	v := ui.GiftCardView{ID: c.ID, Code: payments.FormatGiftCode(c.Code), Value: p.Money(c.ValueCents), Balance: p.Money(c.BalanceCents),
		State: gv.State, Buyer: c.BuyerName, BuyerMail: c.BuyerEmail, To: c.RecipientName, ToMail: c.RecipientEmail,
		Message: c.Message, SaleID: c.SaleID.Int64, CanVoid: c.Status != payments.GiftCardVoid && a.mayPost(r, "/payments/giftcards/{id}/void")}
	if c.Status != payments.GiftCardPending {
		v.PrintURL = "/gift/" + c.Code
	}
	if c.ExpiresAt.Valid {
		v.Expires = p.Date(time.UnixMilli(c.ExpiresAt.Int64).UTC())
	}
	for _, m := range gv.Movements {
		v.Movements = append(v.Movements, ui.GiftMovementRow{Kind: m.Kind, Amount: p.Money(m.AmountCents), Balance: p.Money(m.BalanceAfter),
			SaleID: m.SaleID.Int64, Request: m.PaymentRequestID.Int64, At: db.Time(m.CreatedAt)})
	}
	a.render(w, r, http.StatusOK, ui.GiftCardPage(a.page(r, translate(r, "giftcards.card", "code", v.Code)), v))
}

func (a *Admin) voidGiftCard(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	err = payments.VoidGiftCard(r.Context(), a.db, a.now(), id)
	var refusal *payments.RefusedError
	if errors.As(err, &refusal) {
		a.flash(r.Context(), ui.FlashError, translate(r, "giftcards.refused.unusable"))
	} else if err != nil {
		a.renderError(w, r, err)
		return
	} else {
		a.flash(r.Context(), ui.FlashSuccess, translate(r, "giftcards.voided"))
	}
	seeOther(w, r, ui.GiftCardURL(id))
}

func (a *Admin) updateGiftCardSettings(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	months, err := strconv.ParseInt(strings.TrimSpace(f.Get("expiry_months")), 10, 64)
	if err != nil || months < 0 || months > 120 {
		f.SetError("expiry_months", translate(r, "form.whole_number", "min", 0, "max", 120))
		a.renderGiftCards(w, r, http.StatusUnprocessableEntity, ui.NewForm(nil), f)
		return
	}
	if err := payments.SaveGiftCardSettings(r.Context(), a.db, a.now(), payments.GiftCardSettings{ExpiryMonths: months, SellOnline: f.Get("sell_online") != ""}); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "giftcards.settings.saved"))
	seeOther(w, r, "/payments/giftcards")
}

// payWithGiftCard settles payment request {id} with a gift card at the desk, POST
// /payments/{id}/giftcard: the card pays what it can, rest_method the rest.
func (a *Admin) payWithGiftCard(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	var rest payments.Method
	if f.Get("rest_method") != "" {
		m, err := strconv.ParseInt(f.Get("rest_method"), 10, 64)
		if err != nil || !isPaymentOption(methodOptions(r), f.Get("rest_method")) {
			f.SetError("rest_method", translate(r, "payments.settle.method_error"))
			a.renderGiftPay(w, r, http.StatusUnprocessableEntity, f)
			return
		}
		rest = payments.Method(m)
	}
	saleID, err := payments.SettleWithGiftCard(r.Context(), a.db, id, f.Get("code"), rest, a.now())
	var refusal *payments.RefusedError
	switch {
	case errors.Is(err, payments.ErrGiftCardNotFound):
		f.SetError("code", translate(r, "giftcards.refused.not_found"))
	case errors.As(err, &refusal) && refusal.Code == payments.CodeGiftCardRest:
		f.SetError("rest_method", translate(r, "giftcards.refused.rest"))
	case errors.As(err, &refusal) && refusal.Code == payments.CodeGiftCardEmpty:
		f.SetError("code", translate(r, "giftcards.refused.empty"))
	case errors.As(err, &refusal) && refusal.Code == payments.CodeGiftCardUnusable:
		f.SetError("code", translate(r, "giftcards.refused.unusable"))
	case a.paymentRefused(r, err):
		seeOther(w, r, ui.PaymentURL(id))
		return
	case err != nil:
		a.renderError(w, r, err)
		return
	default:
		a.flash(r.Context(), ui.FlashSuccess, translate(r, "payments.settled", "sale", saleID))
		seeOther(w, r, ui.PaymentURL(id))
		return
	}
	a.renderGiftPay(w, r, http.StatusUnprocessableEntity, f)
}

// giftFieldError says what is wrong with a field of the sale form.
func giftFieldError(r *http.Request, field string) string {
	switch field {
	case "amount":
		return translate(r, "giftcards.error.amount")
	case "buyer_name":
		return translate(r, "giftcards.error.buyer_name")
	case "buyer_email":
		return translate(r, "giftcards.error.buyer_email")
	case "recipient_name":
		return translate(r, "giftcards.error.recipient_name")
	case "recipient_email":
		return translate(r, "giftcards.error.recipient_email")
	case "message":
		return translate(r, "giftcards.error.message")
	case "send_to":
		return translate(r, "giftcards.error.send_to")
	}
	return translate(r, "giftcards.error.method")
}
