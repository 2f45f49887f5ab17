package api

import "net/http"

func (a *API) listAvailableSlots(w http.ResponseWriter, r *http.Request) { a.notImplemented(w, r) }
