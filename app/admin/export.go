package admin

import (
	"context"
	"net/http"
	"net/url"

	"frontdesk/app/booking"
	"frontdesk/app/errpage"
	"frontdesk/app/export"
	"frontdesk/app/staff"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// CSV downloads of the lists (docs/data.md): each list page links to its own with the page's
// filters; app/export writes the file, streamed as it is read.

// csvLink is the download of the list at path with the page's query, less its page number;
// empty (no link shown) for a role that may not download lists (docs/roles.md, Exports).
func csvLink(ctx context.Context, path string, q url.Values) string {
	if !can(ctx, staff.Exports) {
		return ""
	}
	return csvPath(path, q)
}

// csvPath is the download at path with the list page's query, less its page number.
func csvPath(path string, q url.Values) string {
	q = cloneQuery(q)
	q.Del("page")
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

func cloneQuery(q url.Values) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = append([]string(nil), v...)
	}
	return out
}

// badDate is the answer to a download whose from or to is not a date.
var badDate = &errpage.Error{Status: http.StatusBadRequest, Msg: i18n.M("bookings.date.error")}

// exportDates reads from and to (YYYY-MM-DD, inclusive).
func exportDates(q url.Values) (from, to *booking.Date, ok bool) {
	for name, dst := range map[string]**booking.Date{"from": &from, "to": &to} {
		s := q.Get(name)
		if s == "" {
			continue
		}
		d, err := booking.ParseDate(s)
		if err != nil {
			return nil, nil, false
		}
		*dst = &d
	}
	return from, to, true
}

func (a *Admin) exportBookings(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var filter booking.Filter
	filter.LocationID, filter.ProviderID, filter.ClientID = queryID(q, "location"), queryID(q, "provider"), queryID(q, "client")
	if n := queryID(q, "status"); n <= booking.StatusCancelled {
		filter.StatusID = n
	}
	var ok bool
	if filter.From, filter.To, ok = exportDates(q); !ok {
		a.renderError(w, r, badDate)
		return
	}
	// The same client search as the list: one match filters by it, none or several match nothing.
	if err := a.filterClient(r, ui.NewForm(nil), &filter, &ui.BookingsView{}); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.writeCSV(w, r, "bookings", export.Filter{Bookings: filter})
}

func (a *Admin) exportClients(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	a.writeCSV(w, r, "clients", export.Filter{ClientStatus: q.Get("status"), ClientSearch: searchText(q.Get("q"))})
}

func (a *Admin) exportSales(w http.ResponseWriter, r *http.Request) {
	from, to, ok := exportDates(r.URL.Query())
	if !ok {
		a.renderError(w, r, badDate)
		return
	}
	a.writeCSV(w, r, "sales", export.Filter{From: from, To: to})
}

func (a *Admin) exportPayments(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	from, to, ok := exportDates(q)
	if !ok {
		a.renderError(w, r, badDate)
		return
	}
	status := q.Get("status")
	if !isPaymentOption(paymentStatusOptions(r), status) {
		status = ""
	}
	a.writeCSV(w, r, "payments", export.Filter{From: from, To: to, PaymentStatus: status})
}

// writeCSV answers the file of kind. Once the first bytes are sent an error can only cut the
// file short: it is logged, and the missing end of the last record shows it is incomplete.
func (a *Admin) writeCSV(w http.ResponseWriter, r *http.Request, kind string, f export.Filter) {
	ctx := r.Context()
	zone, err := export.BusinessZone(ctx, a.db)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	name := kind + "-" + booking.DateOf(a.now().In(zone)).String() + ".csv"
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.Header().Set("Cache-Control", "no-store")
	cw, err := export.NewWriter(w, export.Options{Excel: r.URL.Query().Get("excel") == "1", Lang: i18n.From(ctx).Lang()})
	if err == nil {
		err = export.Write(ctx, a.db, kind, f, cw)
	}
	if err != nil {
		a.log.ErrorContext(ctx, "csv export cut short", "kind", kind, "err", err)
	}
}

func (a *Admin) exportMessages(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	from, to, ok := exportDates(q)
	if !ok {
		a.renderError(w, r, badDate)
		return
	}
	a.writeCSV(w, r, "messages", export.Filter{From: from, To: to, MessageState: q.Get("state"), MessageKind: q.Get("kind"),
		MessageSearch: q.Get("q")})
}
