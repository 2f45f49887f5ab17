package api

import (
	_ "embed"
	"net/http"
)

// openAPIDocument is the OpenAPI 3.1 description of /v3, written by hand from the Connect v3
// reference plus frontdesk's additions. Tests validate real responses against it, which is what
// keeps it true.
//
//go:embed openapi.json
var openAPIDocument []byte

// getOpenAPI serves the document without authentication: it describes the API, not the data.
func (a *API) getOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	w.Write(openAPIDocument)
}
