package customer

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/errpage"
	"frontdesk/app/middleware"
	"frontdesk/app/payments"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// applyGiftCard is the checkout page's gift card form, POST /pay/{uuid}/giftcard: the card's
// balance pays what it can of what is due online (payments.Online.ApplyGiftCard), and the page
// says what happened (?gift=…). The request's UUID is the credential, the code the card's.
func (c *Customer) applyGiftCard(w http.ResponseWriter, r *http.Request) {
	uuid := chi.URLParam(r, "uuid")
	if c.online == nil {
		c.renderError(w, r, errpage.NotFound)
		return
	}
	f, err := parseForm(r)
	if err != nil {
		c.renderError(w, r, err)
		return
	}
	page := "/pay/" + strings.ToLower(uuid)
	_, err = c.online.ApplyGiftCard(r.Context(), uuid, f.Get("code"), business(r.Context()).Language)
	var refusal *payments.RefusedError
	switch {
	case errors.Is(err, payments.ErrPaymentRequestNotFound):
		c.renderError(w, r, errpage.NotFound)
	case errors.Is(err, payments.ErrGiftCardNotFound):
		seeOther(w, r, page+"?gift=not_found")
	case errors.As(err, &refusal) && refusal.Code == payments.CodeGiftCardEmpty:
		seeOther(w, r, page+"?gift=empty")
	case errors.As(err, &refusal):
		seeOther(w, r, page+"?gift=unusable")
	case errors.Is(err, payments.ErrNotPayable), errors.Is(err, payments.ErrPaymentProcessing):
		seeOther(w, r, page)
	case err != nil:
		c.log.WarnContext(r.Context(), "apply gift card", "payment_request", uuid, "err", err)
		seeOther(w, r, page+"?checkout=unavailable")
	default:
		seeOther(w, r, page+"?gift=applied")
	}
}

// showGiftCard is a gift card's printable page, GET /gift/{code}: the business, the value, the
// balance, the expiry, the message and the code — the link the buyer or the recipient is given.
// The code is the credential; an unknown one is the 404 page. Never cached or indexed.
func (c *Customer) showGiftCard(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	v, err := payments.LoadGiftCard(ctx, c.db.R, c.now(), 0, chi.URLParam(r, "code"))
	if errors.Is(err, payments.ErrGiftCardNotFound) || err == nil && v.Card.Status == payments.GiftCardPending {
		c.renderError(w, r, errpage.NotFound)
		return
	} else if err != nil {
		c.renderError(w, r, err)
		return
	}
	p := i18n.From(ctx)
	view := ui.GiftCardPrint{
		Business: c.businessName(r), Code: payments.FormatGiftCode(v.Card.Code), Value: p.Money(v.Card.ValueCents),
		Balance: p.Money(v.Card.BalanceCents), State: v.State, To: v.Card.RecipientName, From: v.Card.BuyerName, Message: v.Card.Message,
	}
	if v.Card.ExpiresAt.Valid {
		view.Expires = p.Date(time.UnixMilli(v.Card.ExpiresAt.Int64).UTC())
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Robots-Tag", "noindex")
	w.Header().Set("Referrer-Policy", "no-referrer")
	c.render(w, r, http.StatusOK, ui.GiftCardPrintPage(ui.Page{Title: i18n.T(ctx, "giftcards.print.title"), Path: "/gift"}, view))
}

// showMembership is a membership's page, GET /membership/{uuid}: where the provider sends the
// client back after signing up or managing it, with its plan and status and the button to the
// provider's page. The UUID is the credential.
func (c *Customer) showMembership(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	m, err := payments.LoadMembership(ctx, c.db.R, chi.URLParam(r, "uuid"))
	if errors.Is(err, payments.ErrMembershipNotFound) {
		c.renderError(w, r, errpage.NotFound)
		return
	} else if err != nil {
		c.renderError(w, r, err)
		return
	}
	p := i18n.From(ctx)
	v := ui.MembershipPublic{
		Business: c.businessName(r), Plan: m.Plan.Name, Price: p.Money(m.Plan.PriceCents), Status: m.Membership.Status,
		Notice: r.URL.Query().Get("checkout"), CanManage: m.Membership.CustomerRef.Valid && c.online != nil,
		Action: "/membership/" + m.Membership.UUID + "/portal",
	}
	for _, s := range m.Services {
		v.Includes = append(v.Includes, i18n.T(ctx, "memberships.includes_line", "count", s.Sessions, "service", s.ServiceName))
	}
	if m.Plan.DiscountBp > 0 {
		v.Includes = append(v.Includes, i18n.T(ctx, "memberships.discount_line", "percent", m.Plan.DiscountBp/100))
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	if v.CanManage {
		if name, err := c.online.ActiveProvider(ctx, c.db.R); err == nil {
			if reg, ok := c.online.Registration(name); ok {
				// The manage form is answered with a redirect to the provider's portal.
				w.Header().Set("Content-Security-Policy", strings.Replace(middleware.PagePolicy,
					"form-action 'self'", "form-action 'self' "+strings.Join(reg.CheckoutOrigins, " "), 1))
			}
		}
	}
	c.render(w, r, http.StatusOK, ui.MembershipPublicPage(ui.Page{Title: v.Business, Path: "/membership"}, v))
}

// membershipPortal sends the client to the provider's page for their membership, POST
// /membership/{uuid}/portal.
func (c *Customer) membershipPortal(w http.ResponseWriter, r *http.Request) {
	uuid := chi.URLParam(r, "uuid")
	if c.online == nil {
		c.renderError(w, r, errpage.NotFound)
		return
	}
	to, err := c.online.MembershipPortal(r.Context(), uuid)
	switch {
	case errors.Is(err, payments.ErrMembershipNotFound):
		c.renderError(w, r, errpage.NotFound)
	case err != nil:
		c.log.WarnContext(r.Context(), "membership portal", "membership", uuid, "err", err)
		seeOther(w, r, "/membership/"+strings.ToLower(uuid)+"?checkout=unavailable")
	default:
		seeOther(w, r, to)
	}
}

// businessName is the business's name for the public pages ("" when it has none yet).
func (c *Customer) businessName(r *http.Request) string {
	name, err := c.db.R.PublicBusinessName(r.Context())
	if err != nil {
		return ""
	}
	return name
}
