package api

import (
	"net/http"

	"frontdesk/app/payments"
	"frontdesk/app/resource"
)

// listSales serves GET /v3/sales. paid_at_start and paid_at_end are dates in each sale's
// location zone, inclusive.
func (a *API) listSales(w http.ResponseWriter, r *http.Request) {
	p, err := queryPaging(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	f, err := parseSaleFilter(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	sales, total, err := payments.ListSales(r.Context(), a.db, f, p.Limit(), p.Offset())
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, resource.List[resource.Sale]{Data: sales, Pagination: p.Pagination(total)})
}

func parseSaleFilter(r *http.Request) (payments.SaleFilter, error) {
	var f payments.SaleFilter
	var err error
	if f.ClientID, _, err = queryID(r, "client_id"); err != nil {
		return f, err
	}
	if f.LocationID, _, err = queryID(r, "location_id"); err != nil {
		return f, err
	}
	if d, ok, err := queryBookingDate(r, "paid_at_start"); err != nil {
		return f, err
	} else if ok {
		f.PaidFrom = &d
	}
	if d, ok, err := queryBookingDate(r, "paid_at_end"); err != nil {
		return f, err
	} else if ok {
		f.PaidTo = &d
	}
	if f.PaidFrom != nil && f.PaidTo != nil && f.PaidTo.Before(*f.PaidFrom) {
		return f, badRequest("paid_at_end_before_paid_at_start")
	}
	return f, nil
}

func (a *API) getSale(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "sale")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	s, err := payments.GetSale(r.Context(), a.db.R, id)
	if err != nil {
		a.writeError(w, r, paymentError(err))
		return
	}
	writeJSON(w, http.StatusOK, s)
}
