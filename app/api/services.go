package api

import "net/http"

func (a *API) listServices(w http.ResponseWriter, r *http.Request) { a.notImplemented(w, r) }

func (a *API) getService(w http.ResponseWriter, r *http.Request) { a.notImplemented(w, r) }
