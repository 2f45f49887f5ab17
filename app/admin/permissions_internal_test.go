package admin

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/owner"
	"frontdesk/app/staff"
	"frontdesk/db/dbtest"
)

// A route added to the signed-in group without a permission (r.Get instead of t.get) is
// refused to every role, the owner included: forgetting the permission fails closed, and the
// route × role matrix (roles_test.go) then fails on it.
func TestRouteWithoutPermissionRefused(t *testing.T) {
	d := dbtest.Open(t, filepath.Join(t.TempDir(), "test.db"))
	a := New(d, Options{})
	r := chi.NewRouter()
	r.Group(func(r chi.Router) {
		r.Use(a.loadSession, a.localize, a.authorize)
		tb := a.table(r)
		tb.get("/with", staff.SignedIn, func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
		r.Get("/without", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	})
	for _, tc := range []struct {
		path string
		want int
	}{{"/with", http.StatusOK}, {"/without", http.StatusForbidden}} {
		for _, role := range staff.Roles {
			req := httptest.NewRequest(http.MethodGet, tc.path, nil)
			req = req.WithContext(staff.WithAccount(context.Background(), owner.Owner{ID: 1, Role: string(role), ProviderID: 1}))
			rec := httptest.NewRecorder()
			r.ServeHTTP(rec, req)
			if rec.Code != tc.want {
				t.Errorf("GET %s as %s: got %d, want %d", tc.path, role, rec.Code, tc.want)
			}
		}
	}
}
