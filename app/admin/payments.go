package admin

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/payments"
	"frontdesk/app/resource"
	"frontdesk/db"
	"frontdesk/ui"
)

// Payments: the list of payment requests, one request with its settle form (the owner records a
// payment taken at the front desk: cash, card terminal or bank transfer), cancel, and the list
// of sales. Every change goes through app/payments, which writes the request, the sale, the
// bookings and the webhook events in one transaction.

const paymentsPerPage = 25

var paymentStatusOptions = []ui.Option{
	{Value: "", Label: "All"}, {Value: payments.StatusPending, Label: "Awaiting payment"}, {Value: payments.StatusPaid, Label: "Paid"},
	{Value: payments.StatusExpired, Label: "Expired"}, {Value: payments.StatusCancelled, Label: "Cancelled"},
}

var methodOptions = []ui.Option{
	{Value: "", Label: "Choose…"}, {Value: methodValue(payments.MethodCash), Label: "Cash"},
	{Value: methodValue(payments.MethodCardTerminal), Label: "Card terminal"},
	{Value: methodValue(payments.MethodBankTransfer), Label: "Bank transfer"},
}

func methodValue(m payments.Method) string { return strconv.FormatInt(int64(m), 10) }

func (a *Admin) listPaymentRequests(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	status := r.URL.Query().Get("status")
	if !isPaymentOption(paymentStatusOptions, status) {
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
	currency, err := a.currency(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	now := a.now()
	v := ui.PaymentsView{Filter: filter, Statuses: paymentStatusOptions, Pager: listPager(r.URL, page, paymentsPerPage, total, "payment request")}
	for _, pr := range rows {
		row := ui.PaymentRequestRow{
			ID: pr.ID, CartID: pr.CartID, Amount: paymentAmount(pr.AmountCents, currency), Status: pr.Status,
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
	a.render(w, r, http.StatusOK, ui.PaymentsPage(a.page(r, "Payments"), v))
}

func (a *Admin) showPaymentRequest(w http.ResponseWriter, r *http.Request) {
	a.renderPaymentRequest(w, r, http.StatusOK, ui.NewForm(nil))
}

// renderPaymentRequest shows request {id} with form f in its settle box.
func (a *Admin) renderPaymentRequest(w http.ResponseWriter, r *http.Request, status int, f *ui.Form) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	pv, err := payments.LoadRequest(r.Context(), a.db.R, id)
	if err != nil {
		a.renderError(w, r, paymentPageError(err))
		return
	}
	pr := pv.Request
	v := ui.PaymentRequestView{
		ID: pr.ID, CartID: pr.CartID, Status: pv.Status(a.now()), Amount: paymentAmount(pr.AmountCents, pv.Currency),
		CheckoutURL: pr.CheckoutURL, Client: pv.ClientName, ClientID: pv.Cart.Cart.ClientID.Int64, Location: pv.LocationName,
		Created: db.Time(pr.CreatedAt), Lines: paymentLines(pv), SaleID: pv.SaleID, Form: f, Methods: methodOptions,
	}
	if pr.ExpiresAt.Valid {
		v.ExpiresAt = db.Time(pr.ExpiresAt.Int64)
	}
	if pr.PaidAt.Valid {
		v.PaidAt = db.Time(pr.PaidAt.Int64)
	}
	for _, b := range pv.Bookings {
		v.Bookings = append(v.Bookings, ui.PaymentBooking{ID: b.ID, Status: paymentBookingStatus(b.StatusID)})
	}
	a.render(w, r, status, ui.PaymentRequestPage(a.page(r, "Payment request #"+strconv.FormatInt(id, 10)), v))
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
	method, err := strconv.ParseInt(f.Get("method"), 10, 64)
	if err != nil || !isPaymentOption(methodOptions, f.Get("method")) || f.Get("method") == "" {
		f.SetError("method", "Choose how the client paid.")
		a.renderPaymentRequest(w, r, http.StatusUnprocessableEntity, f)
		return
	}
	saleID, err := payments.Settle(r.Context(), a.db, id, payments.Method(method), a.now())
	if a.paymentRefused(r, err) {
		seeOther(w, r, ui.PaymentURL(id))
		return
	} else if err != nil {
		a.renderError(w, r, paymentPageError(err))
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, "Payment recorded: sale #"+strconv.FormatInt(saleID, 10)+". Its bookings are confirmed.")
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
		a.renderError(w, r, paymentPageError(err))
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, "Payment request cancelled; the bookings it held are released.")
	seeOther(w, r, ui.PaymentURL(id))
}

// paymentRefused flashes a refusal (the request is no longer pending, the cart is paid) and
// reports whether err was one.
func (a *Admin) paymentRefused(r *http.Request, err error) bool {
	var refusal *payments.RefusedError
	if !errors.As(err, &refusal) {
		return false
	}
	msg := refusal.Detail
	if msg != "" {
		msg = strings.ToUpper(msg[:1]) + msg[1:] + "."
	}
	a.flash(r.Context(), ui.FlashError, msg)
	return true
}

func (a *Admin) listSales(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	page := pageNumber(r.URL.Query())
	sales, total, err := payments.ListSales(ctx, a.db, payments.SaleFilter{}, paymentsPerPage, (page-1)*paymentsPerPage)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	currency, err := a.currency(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.SalesView{Pager: listPager(r.URL, page, paymentsPerPage, total, "sale")}
	for _, s := range sales {
		row, err := a.saleRow(ctx, s, currency)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		v.Rows = append(v.Rows, row)
	}
	a.render(w, r, http.StatusOK, ui.SalesPage(a.page(r, "Sales"), v))
}

func (a *Admin) saleRow(ctx context.Context, s resource.Sale, currency string) (ui.SaleRow, error) {
	row := ui.SaleRow{ID: s.ID, CartID: s.CartID, Location: s.Location.Name, Amount: s.PaidAmount + " " + currency, Status: s.Status}
	if s.PaidAt != nil {
		row.PaidAt, _ = time.Parse(time.RFC3339, *s.PaidAt)
	}
	var methods []string
	for _, t := range s.Transactions {
		methods = append(methods, t.PaymentMethod.Name)
	}
	row.Methods = strings.Join(methods, ", ")
	if s.ClientID != nil {
		n, err := a.db.R.CartClientName(ctx, *s.ClientID)
		if err != nil {
			return row, err
		}
		row.ClientID, row.Client = *s.ClientID, strings.TrimSpace(n.FirstName+" "+n.LastName.String)
	}
	return row, nil
}

// paymentLines describes a cart's lines for the pages, with the times of the bookings they sell
// in the cart location's zone.
func paymentLines(v payments.RequestView) []ui.PaymentLine {
	out := make([]ui.PaymentLine, 0, len(v.Cart.Items))
	for _, it := range v.Cart.Items {
		l := ui.PaymentLine{
			Name: it.Row.ItemName.String, Quantity: it.Row.Quantity,
			Total: paymentAmount(it.Amounts.GrossCents-it.Amounts.DiscountCents, v.Currency),
		}
		if l.Name == "" {
			l.Name = it.Row.ItemType + " " + strconv.FormatInt(it.Row.ItemID, 10)
		}
		for _, in := range it.Instances {
			if in.Data == nil {
				continue
			}
			if t, err := time.Parse(time.RFC3339, in.Data.StartTime); err == nil {
				l.Bookings = append(l.Bookings, t.In(v.Zone).Format("Mon 2 Jan 2006, 15:04")+" ("+v.Zone.String()+")")
			}
		}
		out = append(out, l)
	}
	return out
}

func paymentAmount(cents int64, currency string) string {
	return strings.TrimSpace(resource.Money(cents) + " " + currency)
}

func (a *Admin) currency(ctx context.Context) (string, error) {
	c, err := a.db.R.GetCompany(ctx)
	if db.IsNotFound(err) {
		return "", nil
	}
	return c.Currency, err
}

func paymentBookingStatus(id int64) string {
	switch id {
	case booking.StatusConfirmed:
		return "confirmed"
	case booking.StatusReserved:
		return "reserved"
	case booking.StatusAttended:
		return "attended"
	case booking.StatusNoShow:
		return "no show"
	case booking.StatusCancelled:
		return "cancelled"
	}
	return ""
}

func isPaymentOption(options []ui.Option, v string) bool {
	for _, o := range options {
		if o.Value == v {
			return true
		}
	}
	return false
}

// paymentPageError: a request that is not there is the usual 404 page.
func paymentPageError(err error) error {
	if errors.Is(err, payments.ErrPaymentRequestNotFound) || errors.Is(err, payments.ErrCartNotFound) {
		return errNotFound
	}
	return err
}
