package admin

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/payments"
	"frontdesk/ui"
)

// showCheckout is the public checkout page of a payment request, GET /pay/{uuid}: the link a
// client is given to see what they owe and until when. It needs no session — the random v4 UUID
// in the URL is the credential — and shows nothing about the client. An unknown UUID is the
// usual 404 page.
func (a *Admin) showCheckout(w http.ResponseWriter, r *http.Request) {
	pv, err := payments.LoadCheckout(r.Context(), a.db.R, chi.URLParam(r, "uuid"))
	if err != nil {
		a.renderError(w, r, paymentPageError(err))
		return
	}
	now := a.now()
	pr := pv.Request
	v := ui.CheckoutView{
		Business: pv.BusinessName, Location: pv.LocationName, Status: pv.Status(now),
		Lines: paymentLines(pv), Total: paymentAmount(pr.AmountCents, pv.Currency),
	}
	if v.Business == "" {
		v.Business = "Payment"
	}
	if pr.ExpiresAt.Valid && v.Status == payments.StatusPending {
		at := pv.Request.ExpiresAt.Int64
		v.ExpiresAt = timeIn(at, pv).Format("15:04") + " (" + pv.Zone.String() + ")"
		v.MinutesLeft = (at - now.UnixMilli() + 59_999) / 60_000
	}
	// The owner's session, if any, is not this page's business: it renders without navigation.
	a.render(w, r, http.StatusOK, ui.PayPage(ui.Page{Title: v.Business, Path: r.URL.Path}, v))
}

func timeIn(ms int64, pv payments.RequestView) time.Time { return time.UnixMilli(ms).In(pv.Zone) }
