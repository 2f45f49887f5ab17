package api

import "net/http"

func (a *API) listProviders(w http.ResponseWriter, r *http.Request) { a.notImplemented(w, r) }

func (a *API) getProvider(w http.ResponseWriter, r *http.Request) { a.notImplemented(w, r) }
