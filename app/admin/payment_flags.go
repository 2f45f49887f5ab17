package admin

import (
	"errors"
	"net/http"

	"frontdesk/app/errpage"
	"frontdesk/app/payments"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Flags: money taken online that could not settle a request (another amount or currency than
// asked, or a request already closed; docs/payments.md "Flags"). The owner refunds it through
// the provider or deals with it by hand, and marks it so.

// openFlags are the flags the owner has not dealt with, newest first.
func (a *Admin) openFlags(r *http.Request) ([]ui.FlagRow, error) {
	rows, err := a.db.R.OpenPaymentFlags(r.Context(), 50)
	if err != nil {
		return nil, err
	}
	out := make([]ui.FlagRow, 0, len(rows))
	for _, f := range rows {
		row, err := a.flagRow(r, f)
		if err != nil {
			return nil, err
		}
		out = append(out, row)
	}
	return out, nil
}

func (a *Admin) flagRow(r *http.Request, f db.PaymentFlag) (ui.FlagRow, error) {
	ctx := r.Context()
	p := i18n.From(ctx)
	co, err := a.db.R.GetOnlineCheckout(ctx, f.CheckoutID)
	if err != nil {
		return ui.FlagRow{}, err
	}
	row := ui.FlagRow{
		ID: f.ID, RequestID: f.PaymentRequestID, Kind: f.Kind, Provider: a.providerLabel(co.Provider),
		Expected: p.MoneyIn(f.ExpectedCents, f.ExpectedCurrency), Received: p.MoneyIn(f.ReceivedCents, f.ReceivedCurrency),
		Created: db.Time(f.CreatedAt), Resolved: f.ResolvedAt.Valid,
	}
	if left, err := payments.Refundable(ctx, a.db.R, co); err != nil {
		return row, err
	} else if left > 0 && !co.SaleID.Valid {
		row.Refundable = p.MoneyIn(left, co.ReceivedCurrency.String)
	}
	return row, nil
}

// resolvePaymentFlag records that the owner dealt with a flag.
func (a *Admin) resolvePaymentFlag(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	flag, err := a.db.R.GetPaymentFlag(r.Context(), id)
	if db.IsNotFound(err) {
		err = errpage.NotFound
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if err := payments.ResolveFlag(r.Context(), a.db, id, a.now()); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "payments.flag.resolved_now"))
	seeOther(w, r, ui.PaymentURL(flag.PaymentRequestID))
}

// refundFlaggedPayment returns in full, through the provider, money taken that settled
// nothing, and resolves the flag.
func (a *Admin) refundFlaggedPayment(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	ctx := r.Context()
	flag, err := a.db.R.GetPaymentFlag(ctx, id)
	if db.IsNotFound(err) {
		err = errpage.NotFound
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	co, err := a.db.R.GetOnlineCheckout(ctx, flag.CheckoutID)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	left, err := payments.Refundable(ctx, a.db.R, co)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if co.SaleID.Valid || left == 0 {
		a.flash(ctx, ui.FlashError, translate(r, "sales.refund.not_refundable"))
		seeOther(w, r, ui.PaymentURL(flag.PaymentRequestID))
		return
	}
	if _, err := a.online.Refund(ctx, co.ID, left); a.refundFailed(r, err) {
		seeOther(w, r, ui.PaymentURL(flag.PaymentRequestID))
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	if err := payments.ResolveFlag(ctx, a.db, id, a.now()); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(ctx, ui.FlashSuccess, translate(r, "sales.refund.done", "amount", i18n.From(ctx).MoneyIn(left, co.ReceivedCurrency.String)))
	seeOther(w, r, ui.PaymentURL(flag.PaymentRequestID))
}

// refundFailed flashes why a refund was not made and reports whether err was such a reason.
func (a *Admin) refundFailed(r *http.Request, err error) bool {
	var pe *payments.ProviderError
	switch {
	case errors.Is(err, payments.ErrNotRefundable):
		a.flash(r.Context(), ui.FlashError, translate(r, "sales.refund.not_refundable"))
	case errors.Is(err, payments.ErrRefundTooLarge):
		a.flash(r.Context(), ui.FlashError, translate(r, "sales.refund.too_large"))
	case errors.Is(err, payments.ErrNotConfigured):
		a.flash(r.Context(), ui.FlashError, translate(r, "sales.refund.not_configured"))
	case errors.As(err, &pe):
		a.flash(r.Context(), ui.FlashError, translate(r, "sales.refund.provider_error", "message", pe.Message))
	default:
		return false
	}
	return true
}
