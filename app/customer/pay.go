package customer

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/errpage"
	"frontdesk/app/managelink"
	"frontdesk/app/middleware"
	"frontdesk/app/payments"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// showCheckout is the public checkout page of a payment request, GET /pay/{uuid}: the link a
// client is given to see what they owe, until when, and to pay — by card through the payment
// provider when one is set up (Settings → Payments), else at the front desk. It needs no
// session — the random v4 UUID in the URL is the credential — and shows nothing about the
// client. An unknown UUID is the usual 404 page.
//
// Coming back from the provider's page (?checkout=done) it first asks the provider about the
// payment, so a paid request shows as paid without waiting for the provider's notification.
func (c *Customer) showCheckout(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	uuid := chi.URLParam(r, "uuid")
	notice := r.URL.Query().Get("checkout")
	if notice == "done" && c.online != nil {
		c.online.Refresh(ctx, uuid)
	}
	pv, err := payments.LoadCheckout(ctx, c.db.R, uuid)
	if err != nil {
		c.renderError(w, r, err)
		return
	}
	now := c.now()
	pr := pv.Request
	p := i18n.From(ctx)
	v := ui.CheckoutView{
		Business: pv.BusinessName, Location: pv.LocationName, Status: pv.Status(now),
		Lines: paymentLines(p, pv), Total: p.Money(pr.AmountCents),
	}
	switch notice {
	case "done", "cancelled", "unavailable":
		v.Notice = notice
	}
	switch gift := r.URL.Query().Get("gift"); gift {
	case "applied", "not_found", "empty", "unusable":
		v.GiftNotice = gift
	}
	if v.Business == "" {
		v.Business = i18n.T(ctx, "checkout.title")
	}
	if pr.ExpiresAt.Valid && v.Status == payments.StatusPending {
		at := pv.Request.ExpiresAt.Int64
		local := time.UnixMilli(at).In(pv.Zone)
		v.ExpiresAt = p.Time(local) + " (" + p.Offset(local) + ")"
		v.MinutesLeft = (at - now.UnixMilli() + 59_999) / 60_000
	}
	if v.Status == payments.StatusPending {
		card, origins, err := c.cardPayment(r, pv)
		if err != nil {
			c.renderError(w, r, err)
			return
		}
		v.Card = card
		if len(origins) > 0 {
			// The pay form is answered with a redirect to the provider's page: the policy's
			// form-action must allow it there (browsers check redirects of form posts).
			w.Header().Set("Content-Security-Policy", strings.Replace(middleware.PagePolicy,
				"form-action 'self'", "form-action 'self' "+strings.Join(origins, " "), 1))
		}
	}
	// A customer who just booked a service paid online on the booking site arrives with the
	// manage link of their booking, which the page offers once it checks out.
	if token := r.URL.Query().Get("manage"); token != "" {
		id, err := managelink.Find(r.Context(), c.db.R, token, now)
		if err == nil && slices.ContainsFunc(pv.Bookings, func(b db.PaymentRequestBookingsRow) bool { return b.ID == id }) {
			v.ManageURL = managelink.Path(token)
			w.Header().Set("Referrer-Policy", "no-referrer")
		}
	}
	// The owner's session, if any, is not this page's business: it renders without navigation.
	c.render(w, r, http.StatusOK, ui.PayPage(ui.Page{Title: v.Business, Path: r.URL.Path}, v))
}

// cardPayment is how request pv can be paid online, or nil when it cannot (no provider, or
// nothing to pay online), with the origins of the provider's checkout pages.
func (c *Customer) cardPayment(r *http.Request, pv payments.RequestView) (*ui.CardPayment, []string, error) {
	if c.online == nil {
		return nil, nil, nil
	}
	ctx := r.Context()
	name, err := c.online.ActiveProvider(ctx, c.db.R)
	if err != nil || name == payments.ProviderNone {
		return nil, nil, err
	}
	reg, _ := c.online.Registration(name)
	if pv.Request.Purpose == payments.PurposeCard {
		return c.cardSetup(r, pv, reg)
	}
	due, err := payments.DueOnline(ctx, c.db.R, pv, business(ctx).Language)
	if err != nil || due.AmountCents <= 0 {
		return nil, nil, err
	}
	p := i18n.From(ctx)
	card := &ui.CardPayment{
		Provider: reg.Label, Action: "/pay/" + pv.Request.UUID + "/checkout", Amount: p.Money(due.AmountCents),
		Partial: due.Partial, Rest: p.Money(max(pv.Request.AmountCents-due.AmountCents-due.GiftCents, 0)), Mandatory: due.Mandatory,
		GiftAction: "/pay/" + pv.Request.UUID + "/giftcard",
	}
	if due.GiftCents > 0 {
		card.Gift = p.Money(due.GiftCents)
	}
	if pv.Request.SaveCard && reg.Cards {
		// The deposit's card is kept for the cancellation policy: stated before they pay.
		pol, err := payments.LoadPolicy(ctx, c.db.R)
		if err != nil {
			return nil, nil, err
		}
		card.KeepsCard, card.Policy = true, pol.Statement(p, pv.Request.AmountCents)
	}
	if co, ok, err := c.online.CheckoutOf(ctx, pv.Request.ID); err != nil {
		return nil, nil, err
	} else if ok && co.Status == "processing" {
		card.Processing = true
	}
	return card, reg.CheckoutOrigins, nil
}

// startCheckout is the pay button, POST /pay/{uuid}/checkout: it sends the customer to the
// provider's checkout page (the open one, or a new one). Public like the page; the UUID is the
// credential and the request's own state decides everything. When the provider cannot be
// reached the customer is sent back to the page, which says so.
func (c *Customer) startCheckout(w http.ResponseWriter, r *http.Request) {
	uuid := chi.URLParam(r, "uuid")
	if c.online == nil {
		c.renderError(w, r, errpage.NotFound)
		return
	}
	page := "/pay/" + strings.ToLower(uuid)
	start := c.online.StartCheckout
	if pv, err := payments.LoadCheckout(r.Context(), c.db.R, uuid); err == nil && pv.Request.Purpose == payments.PurposeCard {
		start = c.online.StartCardSetup
	}
	to, err := start(r.Context(), uuid, business(r.Context()).Language)
	switch {
	case errors.Is(err, payments.ErrPaymentRequestNotFound):
		c.renderError(w, r, errpage.NotFound)
	case errors.Is(err, payments.ErrNotPayable), errors.Is(err, payments.ErrOnlineOff), errors.Is(err, payments.ErrNothingDue),
		errors.Is(err, payments.ErrPaymentProcessing), errors.Is(err, payments.ErrCardsUnsupported):
		seeOther(w, r, page) // the page says why
	case err != nil:
		c.log.WarnContext(r.Context(), "start online checkout", "payment_request", uuid, "err", err)
		seeOther(w, r, page+"?checkout=unavailable")
	default:
		seeOther(w, r, to)
	}
}

// paymentLines are pv's items as the page lists them (payments.RequestView.Lines).
func paymentLines(p *i18n.Printer, pv payments.RequestView) []ui.PaymentLine {
	lines := pv.Lines(p)
	out := make([]ui.PaymentLine, len(lines))
	for i, l := range lines {
		out[i] = ui.PaymentLine(l)
	}
	return out
}

// cardSetup is saving a card for card request pv on the provider's page, under the business's
// cancellation policy, stated before the customer agrees.
func (c *Customer) cardSetup(r *http.Request, pv payments.RequestView, reg payments.Registration) (*ui.CardPayment, []string, error) {
	if !reg.Cards {
		return nil, nil, nil
	}
	ctx := r.Context()
	pol, err := payments.LoadPolicy(ctx, c.db.R)
	if err != nil {
		return nil, nil, err
	}
	p := i18n.From(ctx)
	var price int64
	if len(pv.Cart.Items) > 0 {
		price = pv.Cart.Items[0].Row.UnitPriceCents
	}
	return &ui.CardPayment{
		Provider: reg.Label, Action: "/pay/" + pv.Request.UUID + "/checkout", SaveCard: true, Mandatory: true,
		Policy: pol.Statement(p, price),
	}, reg.CheckoutOrigins, nil
}
