package api

import (
	"net/http"
	"strconv"

	"frontdesk/app/keyauth"
)

// Limits are the per-key request limits (app/keyauth).
type Limits = keyauth.Limits

// rateLimit counts the request against its key's limits (app/keyauth, shared with every other
// key-authenticated surface) and sets the X-RateLimit-* headers on every answer.
func (a *API) rateLimit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		usage := a.keys.Take(keyFrom(r.Context()).ID)
		usage.SetHeaders(w.Header())
		if detail, wait, over := usage.Exceeded(); over {
			w.Header().Set("Retry-After", strconv.Itoa(wait))
			a.writeError(w, r, newError(http.StatusTooManyRequests, "rate_limited", detail))
			return
		}
		next.ServeHTTP(w, r)
	})
}
