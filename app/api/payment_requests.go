package api

import (
	"net/http"
	"strings"

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
	pr, err := payments.CreatePaymentRequest(r.Context(), a.db, a.now(), id, checkoutBase(r))
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

// checkoutBase is the scheme and host of checkout URLs: the address the client used to reach
// the API (Host, and https when the connection or a proxy's X-Forwarded-Proto says so), so the
// URL works wherever the API does. A Host that is not a plain host[:port] is replaced by
// localhost rather than copied into a URL.
func checkoutBase(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		scheme = "https"
	}
	host := r.Host
	if !plainHost(host) {
		host = "localhost"
	}
	return scheme + "://" + host
}

func plainHost(h string) bool {
	if h == "" || len(h) > 255 {
		return false
	}
	for _, c := range h {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.ContainsRune(".-:[]", c)) {
			return false
		}
	}
	return true
}
