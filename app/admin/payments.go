package admin

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"frontdesk/app/payments"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Payments: the list of payment requests (with the online payments that need the owner), one
// request with its settle form (the owner records a payment taken at the front desk: cash, card
// terminal or bank transfer) and what happened online, cancel, and the flags. Every change goes
// through app/payments, which writes the request, the sale, the bookings and the webhook events
// in one transaction.

const paymentsPerPage = 25

func paymentStatusOptions(r *http.Request) []ui.Option {
	return []ui.Option{
		{Value: "", Label: translate(r, "payments.filter.all")},
		{Value: payments.StatusPending, Label: translate(r, "payments.status.pending")},
		{Value: payments.StatusPaid, Label: translate(r, "payments.status.paid")},
		{Value: payments.StatusExpired, Label: translate(r, "payments.status.expired")},
		{Value: payments.StatusCancelled, Label: translate(r, "payments.status.cancelled")},
	}
}

// methodOptions are the ways the owner can take a payment at the front desk.
func methodOptions(r *http.Request) []ui.Option {
	return []ui.Option{
		{Value: "", Label: translate(r, "payments.settle.choose")},
		{Value: methodValue(payments.MethodCash), Label: translate(r, "payments.method.cash")},
		{Value: methodValue(payments.MethodCardTerminal), Label: translate(r, "payments.method.card_terminal")},
		{Value: methodValue(payments.MethodBankTransfer), Label: translate(r, "payments.method.bank_transfer")},
	}
}

// methodName is a payment method in words (the /v3 API keeps the catalogue's English names).
func methodName(r *http.Request, id int64) string {
	switch payments.Method(id) {
	case payments.MethodCash:
		return translate(r, "payments.method.cash")
	case payments.MethodCardTerminal:
		return translate(r, "payments.method.card_terminal")
	case payments.MethodBankTransfer:
		return translate(r, "payments.method.bank_transfer")
	case payments.MethodGiftCard:
		return translate(r, "payments.method.gift_card")
	}
	return translate(r, "payments.method.online")
}

func methodValue(m payments.Method) string { return strconv.FormatInt(int64(m), 10) }

// deskMethod reads a desk payment method from form f, or records the problem in it.
func deskMethod(r *http.Request, f *ui.Form) (payments.Method, bool) {
	method, err := strconv.ParseInt(f.Get("method"), 10, 64)
	if err != nil || f.Get("method") == "" || !isPaymentOption(methodOptions(r), f.Get("method")) {
		f.SetError("method", translate(r, "payments.settle.method_error"))
		return 0, false
	}
	return payments.Method(method), true
}

func (a *Admin) listPaymentRequests(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	status := r.URL.Query().Get("status")
	statuses := paymentStatusOptions(r)
	if !isPaymentOption(statuses, status) {
		status = ""
	}
	filter := ui.NewForm(nil)
	filter.Set("status", status)
	page := pageNumber(r.URL.Query())
	total, err := a.db.R.CountPaymentRequestsAdmin(ctx, status)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	rows, err := a.db.R.ListPaymentRequestsAdmin(ctx, db.ListPaymentRequestsAdminParams{
		Status: status, Lim: paymentsPerPage, Off: (page - 1) * paymentsPerPage,
	})
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	p := i18n.From(ctx)
	now := a.now()
	v := ui.PaymentsView{Filter: filter, Statuses: statuses, Pager: listPager(r.URL, page, paymentsPerPage, total, translate(r, "pager.payment_requests", "count", total))}
	v.Pager.CSV = csvLink(r.Context(), "/payments/csv", r.URL.Query())
	for _, pr := range rows {
		row := ui.PaymentRequestRow{
			ID: pr.ID, CartID: pr.CartID, Amount: p.Money(pr.AmountCents), Status: pr.Status,
			Created: db.Time(pr.CreatedAt), Client: strings.TrimSpace(pr.ClientFirstName.String + " " + pr.ClientLastName.String),
		}
		if pr.ExpiresAt.Valid {
			row.ExpiresAt = db.Time(pr.ExpiresAt.Int64)
			if pr.Status == payments.StatusPending && !now.Before(row.ExpiresAt) {
				row.Status = payments.StatusExpired // the worker is about to record it
			}
		}
		v.Rows = append(v.Rows, row)
	}
	if a.online != nil {
		if v.Flags, err = a.openFlags(r); err != nil {
			a.renderError(w, r, err)
			return
		}
		name, err := a.online.ActiveProvider(ctx, a.db.R)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		v.Online = name != payments.ProviderNone
	}
	a.render(w, r, http.StatusOK, ui.PaymentsPage(a.page(r, translate(r, "nav.payments")), v))
}

func (a *Admin) showPaymentRequest(w http.ResponseWriter, r *http.Request) {
	a.renderPaymentRequest(w, r, http.StatusOK, ui.NewForm(nil))
}

// renderGiftPay shows request {id} with form f in its gift card box (giftcards.go).
func (a *Admin) renderGiftPay(w http.ResponseWriter, r *http.Request, status int, f *ui.Form) {
	a.renderPaymentRequestForms(w, r, status, ui.NewForm(nil), f)
}

// renderPaymentRequest shows request {id} with form f in its settle box.
func (a *Admin) renderPaymentRequest(w http.ResponseWriter, r *http.Request, status int, f *ui.Form) {
	a.renderPaymentRequestForms(w, r, status, f, ui.NewForm(nil))
}

// renderPaymentRequestForms shows request {id} with form f in its settle box and gift in its
// gift card box.
func (a *Admin) renderPaymentRequestForms(w http.ResponseWriter, r *http.Request, status int, f, gift *ui.Form) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	ctx := r.Context()
	pv, err := payments.LoadRequest(ctx, a.db.R, id)
	if err == nil {
		err = pv.AtDesk(ctx, a.db.R, a.now()) // what the settle form charges
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	pr := pv.Request
	p := i18n.From(ctx)
	v := ui.PaymentRequestView{
		ID: pr.ID, CartID: pr.CartID, Status: pv.Status(a.now()), Amount: p.Money(pr.AmountCents),
		CheckoutURL: pr.CheckoutURL, Client: pv.ClientName, ClientID: pv.Cart.Cart.ClientID.Int64, Location: pv.LocationName,
		Created: db.Time(pr.CreatedAt), Lines: paymentLines(r, pv), SaleID: pv.SaleID, Form: f, Methods: methodOptions(r),
		GiftForm: gift,
	}
	if pr.ExpiresAt.Valid {
		v.ExpiresAt = db.Time(pr.ExpiresAt.Int64)
	}
	if pr.PaidAt.Valid {
		v.PaidAt = db.Time(pr.PaidAt.Int64)
	}
	for _, b := range pv.Bookings {
		v.Bookings = append(v.Bookings, ui.PaymentBooking{ID: b.ID, Status: bookingStatusName(r.Context(), b.StatusID)})
	}
	if err := a.onlineOfRequest(r, pr.ID, &v); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.render(w, r, status, ui.PaymentRequestPage(a.page(r, translate(r, "payments.request", "id", id)), v))
}

// onlineOfRequest fills in what happened online for request id: its checkouts, the provider's
// notifications, and its flags.
func (a *Admin) onlineOfRequest(r *http.Request, id int64, v *ui.PaymentRequestView) error {
	ctx := r.Context()
	p := i18n.From(ctx)
	checkouts, err := a.db.R.OnlineCheckoutsOfRequest(ctx, id)
	if err != nil {
		return err
	}
	for _, co := range checkouts {
		row := ui.OnlineCheckoutRow{
			Provider: a.providerLabel(co.Provider), Status: co.Status, Amount: p.MoneyIn(co.AmountCents, co.Currency),
			SessionID: co.SessionID.String, Created: db.Time(co.CreatedAt), ExpiresAt: db.Time(co.ExpiresAt),
		}
		if co.ReceivedCents.Valid {
			row.Received = p.MoneyIn(co.ReceivedCents.Int64, co.ReceivedCurrency.String)
		}
		v.Checkouts = append(v.Checkouts, row)
	}
	events, err := a.db.R.OnlinePaymentEventsOfRequest(ctx, id)
	if err != nil {
		return err
	}
	for _, e := range events {
		v.Events = append(v.Events, ui.OnlineEventRow{Provider: a.providerLabel(e.Provider), ID: e.EventID, Type: e.Type, Outcome: e.Outcome, At: db.Time(e.ReceivedAt)})
	}
	flags, err := a.db.R.PaymentFlagsOfRequest(ctx, id)
	if err != nil {
		return err
	}
	for _, f := range flags {
		row, err := a.flagRow(r, f)
		if err != nil {
			return err
		}
		v.Flags = append(v.Flags, row)
	}
	return nil
}

// providerLabel is how a provider is named ("Stripe"); a provider no longer compiled in keeps
// its stored name.
func (a *Admin) providerLabel(name string) string {
	if a.online != nil {
		if reg, ok := a.online.Registration(name); ok {
			return reg.Label
		}
	}
	return name
}

func (a *Admin) settlePaymentRequest(w http.ResponseWriter, r *http.Request) {
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
	method, ok := deskMethod(r, f)
	if !ok {
		a.renderPaymentRequest(w, r, http.StatusUnprocessableEntity, f)
		return
	}
	saleID, err := payments.Settle(r.Context(), a.db, id, method, a.now())
	if a.paymentRefused(r, err) {
		seeOther(w, r, ui.PaymentURL(id))
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "payments.settled", "sale", saleID))
	seeOther(w, r, ui.PaymentURL(id))
}

func (a *Admin) cancelPaymentRequest(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	_, err = payments.Cancel(r.Context(), a.db, a.now(), id)
	if a.paymentRefused(r, err) {
		seeOther(w, r, ui.PaymentURL(id))
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "payments.cancelled"))
	seeOther(w, r, ui.PaymentURL(id))
}

// paymentRefused flashes a refusal (the request is no longer pending, the cart is paid) and
// reports whether err was one.
func (a *Admin) paymentRefused(r *http.Request, err error) bool {
	var refusal *payments.RefusedError
	if !errors.As(err, &refusal) {
		return false
	}
	msg := translate(r, "payments.refused.other")
	switch refusal.Code {
	case payments.CodeInvalidStatus:
		msg = translate(r, "payments.refused.not_pending")
	case payments.CodeCartPaid:
		msg = translate(r, "payments.refused.cart_paid")
	}
	a.flash(r.Context(), ui.FlashError, msg)
	return true
}

// paymentLines are v's items as the page lists them (payments.RequestView.Lines).
func paymentLines(r *http.Request, v payments.RequestView) []ui.PaymentLine {
	lines := v.Lines(i18n.From(r.Context()))
	out := make([]ui.PaymentLine, len(lines))
	for i, l := range lines {
		out[i] = ui.PaymentLine(l)
	}
	return out
}

func isPaymentOption(options []ui.Option, v string) bool {
	for _, o := range options {
		if o.Value == v {
			return true
		}
	}
	return false
}

// clientName is a client's name for the pages ("" when there is none).
func (a *Admin) clientName(ctx context.Context, id *int64) (string, error) {
	if id == nil {
		return "", nil
	}
	n, err := a.db.R.CartClientName(ctx, *id)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(n.FirstName + " " + n.LastName.String), nil
}
