// Package admin serves the owner-facing UI (SPEC §8): server-rendered HTML from ui's templ
// components, enhanced by htmx, behind scs sessions stored in SQLite and Go's cross-origin
// protection against CSRF. Every page group is one file here (handlers), one .templ file in ui
// (view models and components) and a few lines in Routes — the one route table. ui/README.md
// walks through adding a page.
package admin

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/go-chi/chi/v5"

	"frontdesk/db"
)

// Options configure the admin UI.
type Options struct {
	Now func() time.Time
	Log *slog.Logger
}

// Admin holds what the admin handlers share.
type Admin struct {
	db       *db.DB
	now      func() time.Time
	log      *slog.Logger
	sessions *scs.SessionManager
	throttle *throttle
}

// New returns the admin UI over d.
func New(d *db.DB, o Options) *Admin {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return &Admin{db: d, now: o.Now, log: o.Log, sessions: newSessionManager(d), throttle: newThrottle(o.Now)}
}

// Routes is the whole admin route table, to be mounted at "/". Pages that need a signed-in
// owner go in the second group; tests walk this table to check that each one does.
func (a *Admin) Routes() chi.Router {
	r := chi.NewRouter()
	r.Use(limitBody, pageHeaders, a.loadSession, a.crossOriginProtection)
	r.NotFound(func(w http.ResponseWriter, r *http.Request) { a.renderError(w, r, errNotFound) })
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) { a.renderError(w, r, errMethodNotAllowed) })

	// First run and sign-in: the only pages open without a session.
	r.Get("/setup", a.showSetup)
	r.Post("/setup", a.createFirstOwner)
	r.Get("/login", a.showLogin)
	r.Post("/login", a.login)

	r.Group(func(r chi.Router) {
		r.Use(a.requireOwner)
		r.Post("/logout", a.logout)

		r.Get("/", a.showDashboard)

		r.Get("/account", a.showAccount)
		r.Post("/account/password", a.changePassword)
		r.Get("/owners", a.listOwners)
		r.Post("/owners", a.createOwner)

		r.Get("/settings/business", a.showBusiness)
		r.Post("/settings/business", a.updateBusiness)

		r.Get("/settings/integrations", redirect("/settings/integrations/api-keys"))
		r.Get("/settings/integrations/api-keys", a.listAPIKeys)
		r.Post("/settings/integrations/api-keys", a.createAPIKey)
		r.Get("/settings/integrations/api-keys/{id}/revoke", a.confirmRevokeAPIKey)
		r.Post("/settings/integrations/api-keys/{id}/revoke", a.revokeAPIKey)

		// Places in the navigation whose pages are not built yet. Replace a line with the
		// page group's routes when it arrives.
		r.Get("/settings/integrations/webhooks", a.comingSoon("Webhooks"))
		r.Get("/bookings", a.comingSoon("Bookings"))
		r.Get("/clients", a.comingSoon("Clients"))
		r.Get("/catalog/services", a.comingSoon("Services"))
		r.Get("/catalog/categories", a.comingSoon("Categories"))
		r.Get("/catalog/providers", a.comingSoon("Providers"))
		r.Get("/catalog/locations", a.comingSoon("Locations"))
		r.Get("/catalog/custom-attributes", a.comingSoon("Custom attributes"))
		r.Get("/payments", a.comingSoon("Payments"))
	})
	return r
}
