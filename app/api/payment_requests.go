package api

import (
	"net/http"

	"frontdesk/app/payments"
	"frontdesk/app/resource"
)

func (a *API) createPaymentRequest(w http.ResponseWriter, r *http.Request) {
	id, err := pathCartID(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if err := readIgnoredBody(r); err != nil {
		a.writeError(w, r, err)
		return
	}
	pr, err := payments.CreatePaymentRequest(r.Context(), a.db, a.now(), id, a.links.String())
	if err != nil {
		a.writeError(w, r, paymentError(err))
		return
	}
	writeJSON(w, http.StatusCreated, resource.NewPaymentRequest(pr))
}

func (a *API) cancelPaymentRequest(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "payment_request")
	if err != nil {
		a.writeError(w, r, newError(http.StatusNotFound, "payment_request_not_found", ""))
		return
	}
	if err := readIgnoredBody(r); err != nil {
		a.writeError(w, r, err)
		return
	}
	pr, err := payments.Cancel(r.Context(), a.db, a.now(), id)
	if err != nil {
		a.writeError(w, r, paymentError(err))
		return
	}
	writeJSON(w, http.StatusOK, resource.NewPaymentRequest(pr))
}
