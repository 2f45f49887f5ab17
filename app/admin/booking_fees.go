package admin

import (
	"errors"
	"net/http"

	"frontdesk/app/fail"
	"frontdesk/app/payments"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// bookingFees is the booking page's card on file and the cancellation fees the owner may charge
// now (docs/payments.md "Cancellation fees"); nil without a provider that saves cards.
func (a *Admin) bookingFees(r *http.Request, id int64) (*ui.BookingFees, error) {
	if a.online == nil {
		return nil, nil
	}
	ctx := r.Context()
	name, err := a.online.ActiveProvider(ctx, a.db.R)
	if err != nil {
		return nil, err
	}
	if reg, ok := a.online.Registration(name); !ok || !reg.Cards {
		return nil, nil
	}
	opts, err := payments.FeeOptionsOf(ctx, a.db.R, id, name, a.now())
	if err != nil {
		return nil, err
	}
	p := i18n.From(ctx)
	v := &ui.BookingFees{Action: ui.BookingURL(id) + "/fee"}
	if opts.Card != nil {
		v.Card = p.T("fees.card_on_file", "brand", opts.Card.Brand, "last4", opts.Card.Last4)
	}
	for _, f := range opts.Fees {
		v.Done = append(v.Done, feeStatusText(p, f.Status, feeKindName(p, f.Kind), p.Money(f.AmountCents)))
	}
	for _, kind := range []string{payments.FeeNoShow, payments.FeeLateCancel} {
		if amount, ok := opts.Due[kind]; ok {
			v.Charges = append(v.Charges, ui.FeeCharge{Kind: kind, Label: feeChargeLabel(p, kind), Amount: p.Money(amount)})
		}
	}
	return v, nil
}

// chargeFee is "Charge no-show fee" / "Charge late-cancel fee" on a booking's page, POST
// /bookings/{id}/fee: the fee charged off session on the saved card, once however often it is
// clicked (payments.ChargeFee); the page says what happened.
func (a *Admin) chargeFee(w http.ResponseWriter, r *http.Request) {
	v, ok := a.loadBooking(w, r)
	if !ok {
		return
	}
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	ctx := r.Context()
	if a.online == nil {
		a.renderError(w, r, fail.NotFound("payment provider"))
		return
	}
	res, err := a.online.ChargeFee(ctx, v.Booking.ID, f.Get("kind"))
	p := i18n.From(ctx)
	var fe *fail.Error
	var pe *payments.ProviderError
	switch {
	case errors.As(err, &fe) && fe.Code != fail.CodeNotFound:
		reason := fe.Reason
		a.flash(ctx, ui.FlashError, feeRefusal(p, reason))
	case errors.As(err, &pe), errors.Is(err, payments.ErrOnlineOff), errors.Is(err, payments.ErrNotConfigured),
		errors.Is(err, payments.ErrCardsUnsupported):
		a.flash(ctx, ui.FlashError, p.T("fees.refused.unavailable"))
	case err != nil:
		a.renderError(w, r, err)
		return
	default:
		amount := p.Money(res.Fee.AmountCents)
		kind := ui.FlashSuccess
		if res.Outcome == payments.FeeDeclined {
			kind = ui.FlashError
		}
		a.flash(ctx, kind, feeResult(p, res.Outcome, amount, res.Fee.Failure))
	}
	seeOther(w, r, ui.BookingURL(v.Booking.ID))
}

// The fees' words.

func feeKindName(p *i18n.Printer, kind string) string {
	if kind == payments.FeeNoShow {
		return p.T("fees.kind.no_show")
	}
	return p.T("fees.kind.late_cancel")
}

func feeChargeLabel(p *i18n.Printer, kind string) string {
	if kind == payments.FeeNoShow {
		return p.T("fees.charge.no_show")
	}
	return p.T("fees.charge.late_cancel")
}

func feeStatusText(p *i18n.Printer, status, kind, amount string) string {
	switch status {
	case "paid":
		return p.T("fees.status.paid", "kind", kind, "amount", amount)
	case "link_sent":
		return p.T("fees.status.link_sent", "kind", kind, "amount", amount)
	case "failed":
		return p.T("fees.status.failed", "kind", kind, "amount", amount)
	}
	return p.T("fees.status.charging", "kind", kind, "amount", amount)
}

func feeResult(p *i18n.Printer, outcome, amount, reason string) string {
	switch outcome {
	case payments.FeeCharged:
		return p.T("fees.result.charged", "amount", amount)
	case payments.FeeLinkSent:
		return p.T("fees.result.link_sent", "amount", amount)
	case payments.FeeDeclined:
		return p.T("fees.result.declined", "reason", reason)
	}
	return p.T("fees.result.already")
}

func feeRefusal(p *i18n.Printer, reason string) string {
	switch reason {
	case "fee_not_due":
		return p.T("fees.refused.fee_not_due")
	case "fee_outside_policy":
		return p.T("fees.refused.fee_outside_policy")
	case "no_card_on_file":
		return p.T("fees.refused.no_card_on_file")
	}
	return p.T("fees.refused.invalid")
}
