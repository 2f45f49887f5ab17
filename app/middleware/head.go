package middleware

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

// HeadAsGet routes HEAD to a path's GET handler (RFC 9110 §9.1: a resource that has GET has
// HEAD). The handler runs as for GET, authentication and conditional tags included, and
// net/http sends its status and headers without the body; a path without GET stays a 405.
// Uptime monitors commonly ask with HEAD. Use it on a chi router: routers mounted under it
// route by the same method.
func HeadAsGet(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rctx := chi.RouteContext(r.Context()); r.Method == http.MethodHead && rctx != nil {
			rctx.RouteMethod = http.MethodGet
		}
		next.ServeHTTP(w, r)
	})
}
