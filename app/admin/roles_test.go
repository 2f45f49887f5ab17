package admin_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/admin"
	"frontdesk/app/owner"
	"frontdesk/app/staff"
	"frontdesk/db"
)

// staffPassword is every test account's password.
const staffPassword = "staff password 1"

// addStaff makes an account with role through the real invitation path (app/staff) and
// returns a client signed in as it.
func addStaff(t *testing.T, ts *testServer, d *db.DB, email string, role staff.Role, providerID int64) *client {
	t.Helper()
	ctx := context.Background()
	me, err := owner.Authenticate(ctx, d, ownerEmail, ownerPassword)
	if err != nil {
		t.Fatal(err)
	}
	token, _, err := staff.Invite(ctx, d, me, email, role, providerID, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := staff.Accept(ctx, d, token, "Test "+string(role), staffPassword, time.Now()); err != nil {
		t.Fatal(err)
	}
	c := ts.newClient(t)
	c.login(t, email, staffPassword)
	return c
}

// signedInRoutes walks the admin route table itself and returns each route behind a session
// with the permission it carries; a route without one fails the test.
func signedInRoutes(t *testing.T) map[string]staff.Permission {
	t.Helper()
	a := admin.New(nil, admin.Options{})
	out := map[string]staff.Permission{}
	err := chi.Walk(a.Routes(), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		key := method + " " + route
		p, ok := a.RoutePermission(method, route)
		switch {
		case publicRoutes[key]:
			if ok {
				t.Errorf("%s is public but carries permission %q", key, p)
			}
		case !ok:
			t.Errorf("%s has no permission: every signed-in route needs one (t.get/t.post in Routes)", key)
		default:
			out[key] = p
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 100 {
		t.Fatalf("walked %d signed-in routes, want the whole table", len(out))
	}
	return out
}

// The route × role matrix: for every signed-in route of the table and every role, a route the
// role's permissions allow answers anything but 403 (a not-found or a validation error of the
// fixture included) and never a 5xx; every other route answers 403 — for GET and POST, plain
// and as htmx requests.
func TestRoleRouteMatrix(t *testing.T) {
	routes := signedInRoutes(t)
	ts := startServer(t)
	ownerClient := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	clients := map[staff.Role]*client{
		staff.RoleOwner:     ownerClient,
		staff.RoleManager:   addStaff(t, ts, d, "manager@example.com", staff.RoleManager, 0),
		staff.RoleReception: addStaff(t, ts, d, "reception@example.com", staff.RoleReception, 0),
		staff.RoleProvider:  addStaff(t, ts, d, "ana@example.com", staff.RoleProvider, w.anaID),
	}
	// Sign-out last, so every other route is asked with a live session.
	keys := make([]string, 0, len(routes))
	for k := range routes {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if (keys[i] == "POST /logout") != (keys[j] == "POST /logout") {
			return keys[j] == "POST /logout"
		}
		return keys[i] < keys[j]
	})
	param := regexp.MustCompile(`\{[^}]+\}`)
	for _, role := range []staff.Role{staff.RoleProvider, staff.RoleReception, staff.RoleManager, staff.RoleOwner} {
		c := clients[role]
		t.Run(string(role), func(t *testing.T) {
			for _, key := range keys {
				method, pattern, _ := strings.Cut(key, " ")
				path := param.ReplaceAllString(pattern, "999999")
				allowed := staff.Can(role, routes[key])
				for _, htmx := range []bool{false, true} {
					if key == "POST /logout" && !htmx {
						continue // once is enough: it ends the session
					}
					h := http.Header{"Sec-Fetch-Site": {"same-origin"}, "Origin": {ts.URL}}
					if htmx {
						h.Set("HX-Request", "true")
					}
					var res response
					if method == http.MethodGet {
						req, err := http.NewRequest(method, ts.URL+path, nil)
						if err != nil {
							t.Fatal(err)
						}
						req.Header = h
						res = c.do(t, req)
					} else {
						res = c.postWith(t, path, url.Values{"name": {"x"}}, h)
					}
					switch {
					case res.Status >= 500:
						t.Errorf("%s %s (htmx %v) as %s: got %d, want no server error; body:\n%.500s", method, path, htmx, role, res.Status, res.Body)
					case allowed && res.Status == http.StatusForbidden:
						t.Errorf("%s %s (htmx %v) as %s: got 403, want it allowed (permission %s)", method, path, htmx, role, routes[key])
					case !allowed && res.Status != http.StatusForbidden:
						t.Errorf("%s %s (htmx %v) as %s: got %d, want 403 (permission %s)", method, path, htmx, role, res.Status, routes[key])
					case key != "POST /logout" && res.Status == http.StatusSeeOther && strings.HasPrefix(res.Header.Get("Location"), "/login"):
						t.Errorf("%s %s (htmx %v) as %s: signed out (to %s)", method, path, htmx, role, res.Header.Get("Location"))
					}
				}
			}
		})
	}
}
