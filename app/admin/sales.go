package admin

import (
	"database/sql"
	"errors"
	"net/http"
	"strings"
	"time"

	"frontdesk/app/payments"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Sales: the list, and one sale with its payments — a balance left after a deposit paid online
// is recorded here when the client pays the rest at the desk — and the refunds of an online
// payment, made through the provider (docs/payments.md "Refunds").

func (a *Admin) listSales(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	page := pageNumber(r.URL.Query())
	sales, total, err := payments.ListSales(ctx, a.db, payments.SaleFilter{}, paymentsPerPage, (page-1)*paymentsPerPage)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	p := i18n.From(ctx)
	v := ui.SalesView{Pager: listPager(r.URL, page, paymentsPerPage, total, translate(r, "pager.sales", "count", total))}
	v.Pager.CSV = csvLink(r.Context(), "/payments/sales/csv", r.URL.Query())
	for _, s := range sales {
		row := ui.SaleRow{ID: s.ID, CartID: s.CartID, Location: s.Location.Name, Status: s.Status}
		sale, err := a.db.R.GetSale(ctx, s.ID)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		row.Amount = p.Money(sale.PaidCents)
		if s.PaidAt != nil {
			row.PaidAt, _ = time.Parse(time.RFC3339, *s.PaidAt)
		}
		var methods []string
		for _, t := range s.Transactions {
			methods = append(methods, methodName(r, t.PaymentMethod.ID))
		}
		row.Methods = strings.Join(methods, ", ")
		if row.Client, err = a.clientName(ctx, s.ClientID); err != nil {
			a.renderError(w, r, err)
			return
		}
		if s.ClientID != nil {
			row.ClientID = *s.ClientID
		}
		v.Rows = append(v.Rows, row)
	}
	a.render(w, r, http.StatusOK, ui.SalesPage(a.page(r, translate(r, "payments.tab.sales")), v))
}

func (a *Admin) showSale(w http.ResponseWriter, r *http.Request) {
	a.renderSale(w, r, http.StatusOK, nil, nil)
}

// renderSale shows sale {id} with the refund and balance forms as given (nil: empty).
func (a *Admin) renderSale(w http.ResponseWriter, r *http.Request, status int, refund, balance *ui.Form) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	ctx := r.Context()
	s, err := payments.GetSale(ctx, a.db.R, id)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	row, err := a.db.R.GetSale(ctx, id)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	p := i18n.From(ctx)
	v := ui.SaleView{ID: s.ID, CartID: s.CartID, Location: s.Location.Name, Status: s.Status, Paid: p.Money(row.PaidCents)}
	if row.PendingCents > 0 {
		v.Pending = p.Money(row.PendingCents)
	}
	if row.PaidAt.Valid {
		v.PaidAt = db.Time(row.PaidAt.Int64)
	}
	if v.Client, err = a.clientName(ctx, s.ClientID); err != nil {
		a.renderError(w, r, err)
		return
	}
	if s.ClientID != nil {
		v.ClientID = *s.ClientID
	}
	transactions, err := a.db.R.SaleTransactions(ctx, []int64{id})
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	for _, t := range transactions {
		tr := ui.SaleTransactionRow{Amount: p.Money(t.AmountCents), Method: methodName(r, t.PaymentMethodID)}
		if t.PaidAt.Valid {
			tr.PaidAt = db.Time(t.PaidAt.Int64)
		}
		v.Transactions = append(v.Transactions, tr)
	}
	if row.Status == payments.SaleStatusPartiallyPaid && row.PendingCents > 0 {
		if balance == nil {
			balance = ui.NewForm(nil)
		}
		v.Balance, v.Methods = balance, methodOptions(r)
	}
	co, err := a.db.R.OnlineCheckoutOfSale(ctx, nullID(id))
	switch {
	case err == nil:
		if v.Online, err = a.saleOnline(r, co, refund); err != nil {
			a.renderError(w, r, err)
			return
		}
		v.RequestID = co.PaymentRequestID
	case !db.IsNotFound(err):
		a.renderError(w, r, err)
		return
	}
	a.render(w, r, status, ui.SalePage(a.page(r, translate(r, "sales.title", "id", id)), v))
}

// saleOnline describes the online payment co behind a sale, its refunds and the refund form.
func (a *Admin) saleOnline(r *http.Request, co db.OnlineCheckout, refund *ui.Form) (*ui.SaleOnline, error) {
	ctx := r.Context()
	p := i18n.From(ctx)
	out := &ui.SaleOnline{Provider: a.providerLabel(co.Provider), Received: p.MoneyIn(co.ReceivedCents.Int64, co.ReceivedCurrency.String),
		PaymentRef: co.PaymentRef}
	refunds, err := a.db.R.RefundsOfCheckout(ctx, co.ID)
	if err != nil {
		return nil, err
	}
	for _, ref := range refunds {
		out.Refunds = append(out.Refunds, ui.RefundRow{Amount: p.MoneyIn(ref.AmountCents, co.ReceivedCurrency.String), Status: ref.Status,
			Origin: ref.Origin, At: db.Time(ref.CreatedAt)})
	}
	left, err := payments.Refundable(ctx, a.db.R, co)
	if err != nil {
		return nil, err
	}
	if left > 0 {
		out.Refundable = p.MoneyIn(left, co.ReceivedCurrency.String)
		if refund == nil {
			refund = ui.NewForm(nil)
		}
		out.Refund = refund
	}
	return out, nil
}

// refundSale refunds part or all of a sale's online payment through the provider.
func (a *Admin) refundSale(w http.ResponseWriter, r *http.Request) {
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
	ctx := r.Context()
	co, err := a.db.R.OnlineCheckoutOfSale(ctx, nullID(id))
	if db.IsNotFound(err) {
		a.flash(ctx, ui.FlashError, translate(r, "sales.refund.not_refundable"))
		seeOther(w, r, ui.SaleURL(id))
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	// The amount is read in the payment's own currency, as the page shows it.
	p := i18n.NewPrinter(business(ctx).Language, i18n.Prefs{Currency: co.ReceivedCurrency.String})
	amount, err := p.ParseMoney(f.Get("amount"))
	if err != nil || amount <= 0 {
		f.SetError("amount", translate(r, "sales.refund.amount_error"))
		a.renderSale(w, r, http.StatusUnprocessableEntity, f, nil)
		return
	}
	if _, err := a.online.Refund(ctx, co.ID, amount); errors.Is(err, payments.ErrRefundTooLarge) {
		f.SetError("amount", translate(r, "sales.refund.too_large"))
		a.renderSale(w, r, http.StatusUnprocessableEntity, f, nil)
		return
	} else if a.refundFailed(r, err) {
		seeOther(w, r, ui.SaleURL(id))
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(ctx, ui.FlashSuccess, translate(r, "sales.refund.done", "amount", p.Money(amount)))
	seeOther(w, r, ui.SaleURL(id))
}

// collectSaleBalance records the rest of a partially paid sale, paid at the desk.
func (a *Admin) collectSaleBalance(w http.ResponseWriter, r *http.Request) {
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
		a.renderSale(w, r, http.StatusUnprocessableEntity, nil, f)
		return
	}
	err = payments.CollectBalance(r.Context(), a.db, id, method, a.now())
	switch {
	case errors.Is(err, payments.ErrNothingPending):
		a.flash(r.Context(), ui.FlashError, translate(r, "sales.balance.nothing"))
	case err != nil:
		a.renderError(w, r, err)
		return
	default:
		a.flash(r.Context(), ui.FlashSuccess, translate(r, "sales.balance.done"))
	}
	seeOther(w, r, ui.SaleURL(id))
}

func nullID(id int64) sql.NullInt64 { return sql.NullInt64{Int64: id, Valid: true} }
