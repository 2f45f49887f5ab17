package api

import "net/http"

func (a *API) listClients(w http.ResponseWriter, r *http.Request) { a.notImplemented(w, r) }

func (a *API) createClient(w http.ResponseWriter, r *http.Request) { a.notImplemented(w, r) }

func (a *API) quickSearchClients(w http.ResponseWriter, r *http.Request) { a.notImplemented(w, r) }

func (a *API) getClient(w http.ResponseWriter, r *http.Request) { a.notImplemented(w, r) }

func (a *API) updateClient(w http.ResponseWriter, r *http.Request) { a.notImplemented(w, r) }

func (a *API) deactivateClient(w http.ResponseWriter, r *http.Request) { a.notImplemented(w, r) }

func (a *API) listClientCustomAttributes(w http.ResponseWriter, r *http.Request) {
	a.notImplemented(w, r)
}
