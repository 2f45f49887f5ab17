package api

import "net/http"

func (a *API) getOpenAPI(w http.ResponseWriter, r *http.Request) { a.notImplemented(w, r) }
