package api

import "net/http"

func (a *API) listCustomAttributeTemplates(w http.ResponseWriter, r *http.Request) {
	a.notImplemented(w, r)
}
