package admin

import (
	"log/slog"
	"net/http"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/errpage"
	"frontdesk/app/staff"
	"frontdesk/ui/i18n"
)

// Permissions (docs/roles.md): every route behind a session carries the staff.Permission it
// needs, registered with it in Routes; authorize checks it for every request, so a page hidden
// from a role's navigation is refused to that role by direct URL too. What a provider may see
// inside a permitted page — only their own bookings and clients — is scope.go's.

var errForbidden = &errpage.Error{Status: http.StatusForbidden, Msg: i18n.M("error.role_forbidden")}

// routeTable registers signed-in routes with their permissions.
type routeTable struct {
	r     chi.Router
	perms map[string]staff.Permission
}

func (a *Admin) table(r chi.Router) routeTable {
	a.perms = map[string]staff.Permission{}
	return routeTable{r: r, perms: a.perms}
}

func (t routeTable) get(pattern string, p staff.Permission, h http.HandlerFunc) {
	t.perms[http.MethodGet+" "+pattern] = p
	t.r.Get(pattern, h)
}

func (t routeTable) post(pattern string, p staff.Permission, h http.HandlerFunc) {
	t.perms[http.MethodPost+" "+pattern] = p
	t.r.Post(pattern, h)
}

// RoutePermission is the permission the route method pattern needs, and false for a route
// that has none (public, or added without one — which authorize refuses to everyone).
func (a *Admin) RoutePermission(method, pattern string) (staff.Permission, bool) {
	if method == http.MethodHead {
		method = http.MethodGet
	}
	p, ok := a.perms[method+" "+pattern]
	return p, ok
}

// authorize lets a request through only if the signed-in account's role has the route's
// permission. It runs after routing (chi runs a group's middleware per route), so the matched
// pattern is known.
func (a *Admin) authorize(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pattern := chi.RouteContext(r.Context()).RoutePattern()
		p, ok := a.RoutePermission(r.Method, pattern)
		if !ok {
			a.log.ErrorContext(r.Context(), "admin route without a permission: refused", slog.String("method", r.Method),
				slog.String("route", pattern))
		}
		me, _ := ownerFrom(r.Context())
		if !ok || !staff.Can(staff.RoleOf(me), p) {
			a.renderError(w, r, errForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// may reports whether the signed-in account may open the page at path (a route pattern with
// no parameters, as the navigation's links are).
func (a *Admin) may(r *http.Request, path string) bool {
	p, ok := a.RoutePermission(http.MethodGet, path)
	me, _ := ownerFrom(r.Context())
	return ok && staff.Can(staff.RoleOf(me), p)
}

// mayPost reports whether the signed-in account may send the form posting to path.
func (a *Admin) mayPost(r *http.Request, path string) bool {
	p, ok := a.RoutePermission(http.MethodPost, path)
	me, _ := ownerFrom(r.Context())
	return ok && staff.Can(staff.RoleOf(me), p)
}
