package site

import (
	"errors"
	"net/http"
	"strings"

	"frontdesk/app/payments"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// The booking site sells gift cards (docs/payments.md "Gift cards") when the owner switched it
// on: GET /book/gift-card is the form, POST makes the pending card and its payment request and
// sends the buyer to the request's checkout page, where they pay by card; the card is issued when
// the payment settles. A card that is never paid is worth nothing.

func giftSendTo(p *i18n.Printer) []ui.Option {
	return []ui.Option{
		{Value: payments.SendToBuyer, Label: p.T("giftcards.send_to.buyer")},
		{Value: payments.SendToRecipient, Label: p.T("giftcards.send_to.recipient")},
	}
}

// sellsGiftCards reports whether the site sells cards now.
func (s *Site) sellsGiftCards(r *http.Request) (bool, error) {
	st, err := payments.GetGiftCardSettings(r.Context(), s.db.R)
	return st.SellOnline, err
}

func (s *Site) showGiftCardForm(w http.ResponseWriter, r *http.Request) {
	if ok, err := s.sellsGiftCards(r); err != nil || !ok {
		s.renderError(w, r, cmpErr(err, errNotFound))
		return
	}
	f := ui.NewForm(nil)
	f.Set("send_to", payments.SendToBuyer)
	p := i18n.From(r.Context())
	s.render(w, r, http.StatusOK, ui.SiteGiftCard(s.page(r, p.T("site.giftcard.title")), ui.SiteGiftCardView{Form: f, SendTo: giftSendTo(p)}))
}

func (s *Site) buyGiftCard(w http.ResponseWriter, r *http.Request) {
	if ok, err := s.sellsGiftCards(r); err != nil || !ok {
		s.renderError(w, r, cmpErr(err, errNotFound))
		return
	}
	f := ui.NewForm(r.PostForm)
	p := i18n.From(r.Context())
	in := payments.GiftCardInput{Amount: f.Get("amount"), BuyerName: f.Get("buyer_name"), BuyerEmail: f.Get("buyer_email"),
		RecipientName: f.Get("recipient_name"), RecipientEmail: f.Get("recipient_email"), Message: f.Get("message"), SendTo: f.Get("send_to")}
	if strings.TrimSpace(in.BuyerEmail) == "" {
		f.SetError("buyer_email", p.T("giftcards.error.buyer_email"))
	}
	if f.OK() {
		sale, err := payments.SellGiftCard(r.Context(), s.db, s.now(), in, payments.GiftSourceSite, s.checkoutBase())
		var refusal *payments.RefusedError
		switch {
		case errors.As(err, &refusal) && refusal.Code == payments.CodePaymentsDisabled:
			s.renderError(w, r, errNotFound)
			return
		case errors.As(err, &refusal):
			field, _, _ := strings.Cut(refusal.Detail, ":")
			f.SetError(field, siteGiftError(p, field))
		case err != nil:
			s.renderError(w, r, err)
			return
		default:
			http.Redirect(w, r, "/pay/"+sale.Request.UUID, http.StatusSeeOther)
			return
		}
	}
	s.render(w, r, http.StatusUnprocessableEntity, ui.SiteGiftCard(s.page(r, p.T("site.giftcard.title")), ui.SiteGiftCardView{Form: f, SendTo: giftSendTo(p)}))
}

// siteGiftError says what is wrong with a field of the gift card form.
func siteGiftError(p *i18n.Printer, field string) string {
	switch field {
	case "amount":
		return p.T("giftcards.error.amount")
	case "buyer_name":
		return p.T("giftcards.error.buyer_name")
	case "recipient_name":
		return p.T("giftcards.error.recipient_name")
	case "recipient_email":
		return p.T("giftcards.error.recipient_email")
	case "message":
		return p.T("giftcards.error.message")
	case "send_to":
		return p.T("giftcards.error.send_to")
	}
	return p.T("giftcards.error.buyer_email")
}

func cmpErr(err, otherwise error) error {
	if err != nil {
		return err
	}
	return otherwise
}
