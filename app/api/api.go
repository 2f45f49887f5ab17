// Package api serves the public JSON API under /v3, compatible with AgendaPro Connect v3 (see
// docs/api.md). Every handler is decode → validate → store → respond; errors become responses only
// in writeError.
package api

import (
	"context"
	"database/sql"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/idempotency"
	"frontdesk/app/keyauth"
	"frontdesk/app/links"
	"frontdesk/app/middleware"
	"frontdesk/db"
)

func init() {
	// CANCEL /v3/bookings/{id} is a custom method Connect v3 clients use as an alias of cancel.
	chi.RegisterMethod("CANCEL")
}

// Options configure the API.
type Options struct {
	Now    func() time.Time
	Log    *slog.Logger
	Limits Limits // used when Keys is nil
	// Keys authenticates and rate-limits API keys. The server shares one with every
	// key-authenticated surface, so a key has one budget; nil makes one from Limits.
	Keys *keyauth.Keys
	// Links is the base of generated absolute links (checkout URLs): the public URL.
	Links links.Base
}

// API holds what the /v3 handlers share.
type API struct {
	db    *db.DB
	now   func() time.Time
	log   *slog.Logger
	keys  *keyauth.Keys
	links links.Base
	// unfinished: idempotency keys a full disk kept from being closed (idempotency.go).
	unfinished idempotency.Unfinished
	answers    answerCache // 200 answers by tag and URL (respcache.go)
	slots      slotAnswers // available_slots answers by schedule version (slotcache.go)
}

// New returns the API over d.
func New(d *db.DB, o Options) *API {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Keys == nil {
		o.Keys = keyauth.New(d, keyauth.Options{Now: o.Now, Log: o.Log, Limits: o.Limits})
	}
	return &API{db: d, now: o.Now, log: o.Log, keys: o.Keys, links: o.Links}
}

// ForgetKept drops the answers kept by tag and by schedule version: an idle appliance gives
// their memory back (app/idlefree.go), and the first requests after the quiet build them again.
func (a *API) ForgetKept() {
	a.answers.clear()
	a.slots.clear()
}

// Routes is the whole /v3 route table, to be mounted at /v3.
func (a *API) Routes() http.Handler {
	r := chi.NewRouter()
	r.NotFound(func(w http.ResponseWriter, r *http.Request) { a.writeError(w, r, notFound("route")) })
	r.MethodNotAllowed(func(w http.ResponseWriter, req *http.Request) {
		// RFC 9110 §15.5.6: a 405 says which methods the path has.
		path := routePath(req)
		for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPatch, "CANCEL"} {
			if (m == http.MethodHead && r.Match(chi.NewRouteContext(), http.MethodGet, path)) || r.Match(chi.NewRouteContext(), m, path) {
				w.Header().Add("Allow", m)
			}
		}
		a.writeError(w, req, newError(http.StatusMethodNotAllowed, "method_not_allowed", req.Method))
	})
	r.Use(middleware.HeadAsGet, a.rejectBadQuery) // HEAD here too when the API is served on its own (tests)
	r.Get("/openapi.json", a.getOpenAPI)

	r.Group(func(r chi.Router) {
		r.Use(a.authenticate, a.rateLimit)
		// Every route checks its scope (requireScope), then conditional GET and kept answers
		// (etag.go, respcache.go) on the routes taggedRoutes names.

		r.Get("/available_slots", a.requireScope("bookings:read", a.listAvailableSlots))

		r.Get("/bookings", a.requireScope("bookings:read", a.listBookings))
		r.Post("/bookings", a.requireScope("bookings:write", a.idempotent(a.createBooking)))
		r.Get("/bookings/{id}", a.requireScope("bookings:read", a.getBooking))
		r.Patch("/bookings/{id}", a.requireScope("bookings:write", a.updateBooking))
		r.Patch("/bookings/{id}/cancel", a.requireScope("bookings:write", a.idempotent(a.cancelBooking)))
		r.Method("CANCEL", "/bookings/{id}", a.requireScope("bookings:write", a.idempotent(a.cancelBooking)))

		r.Get("/clients", a.requireScope("clients:read", a.listClients))
		r.Post("/clients", a.requireScope("clients:write", a.idempotent(a.createClient)))
		r.Get("/clients/quick-search", a.requireScope("clients:read", a.quickSearchClients))
		r.Get("/clients/{id}", a.requireScope("clients:read", a.getClient))
		r.Patch("/clients/{id}", a.requireScope("clients:write", a.updateClient))
		r.Patch("/clients/{id}/deactivate", a.requireScope("clients:write", a.deactivateClient))
		r.Post("/clients/{id}/erase", a.requireScope("clients:write", a.eraseClient))
		r.Get("/clients/{id}/custom_attributes", a.requireScope("clients:read", a.listClientCustomAttributes))

		r.Get("/custom_attributes", a.requireScope("custom_attributes:read", a.listCustomAttributeTemplates))

		r.Get("/locations", a.requireScope("locations:read", a.listLocations))
		r.Get("/locations/{id}", a.requireScope("locations:read", a.getLocation))

		r.Get("/services", a.requireScope("services:read", a.listServices))
		r.Get("/services/{id}", a.requireScope("services:read", a.getService))
		r.Get("/categories", a.requireScope("services:read", a.listCategories))

		r.Get("/providers", a.requireScope("providers:read", a.listProviders))
		r.Get("/providers/{id}", a.requireScope("providers:read", a.getProvider))

		r.Get("/sales", a.requireScope("sales:read", a.listSales))
		r.Get("/sales/{id}", a.requireScope("sales:read", a.getSale))

		r.Post("/carts", a.requireScope("carts:write", a.idempotent(a.createCart)))
		r.Get("/carts/{id}", a.requireScope("carts:write", a.getCart))
		r.Patch("/carts/{id}", a.requireScope("carts:write", a.updateCart))
		r.Post("/carts/{id}/payment_requests", a.requireScope("carts:write", a.idempotent(a.createPaymentRequest)))
		r.Patch("/payment_requests/{id}/cancel", a.requireScope("payment_requests:write", a.idempotent(a.cancelPaymentRequest)))

		// Products (products.go; docs/api.md, "Products"): an addition, with its own scope.
		r.Get("/products", a.requireScope("products:read", a.listProducts))
		r.Get("/products/{id}", a.requireScope("products:read", a.getProduct))
		// Classes and session packs (classes.go, docs/classes.md): additions to Connect v3.
		r.Get("/clients/{id}/packs", a.requireScope("clients:read", a.listClientPacks))
		// Gift cards and memberships (money.go, docs/payments.md): additions to Connect v3.
		r.Get("/gift_cards/{code}", a.requireScope("sales:read", a.getGiftCard))
		r.Get("/memberships", a.requireScope("sales:read", a.listMemberships))
		r.Get("/clients/{id}/memberships", a.requireScope("clients:read", a.listClientMemberships))
		// Visits (visits.go, docs/visits.md): several services booked as one, an addition.
		r.Post("/visits", a.requireScope("bookings:write", a.idempotent(a.createVisit)))
		r.Get("/visits/{id}", a.requireScope("bookings:read", a.getVisit))
		r.Patch("/visits/{id}", a.requireScope("bookings:write", a.moveVisit))
		r.Patch("/visits/{id}/cancel", a.requireScope("bookings:write", a.idempotent(a.cancelVisit)))
		r.Post("/waitlist", a.requireScope("bookings:write", a.idempotent(a.joinWaitlist)))
		r.Get("/waitlist/{id}", a.requireScope("bookings:read", a.getWaitlistEntry))
		r.Patch("/waitlist/{id}/cancel", a.requireScope("bookings:write", a.idempotent(a.leaveWaitlist)))
		// Series and the waitlist for appointments (additions; docs/visits.md).
		r.Post("/booking_series/check", a.requireScope("bookings:read", a.checkSeries))
		r.Post("/booking_series", a.requireScope("bookings:write", a.idempotent(a.createSeries)))
		r.Post("/appointment_waitlist", a.requireScope("bookings:write", a.idempotent(a.joinAppointmentWaitlist)))
		r.Get("/appointment_waitlist/{id}", a.requireScope("bookings:read", a.getAppointmentWait))
		r.Patch("/appointment_waitlist/{id}/cancel", a.requireScope("bookings:write", a.idempotent(a.leaveAppointmentWaitlist)))
		r.Post("/appointment_waitlist/claims", a.requireScope("bookings:write", a.idempotent(a.claimAppointmentOffer)))
	})
	return r
}

// routePath is the path this router matches r by: what is left after the mount ("/v3").
func routePath(r *http.Request) string {
	if p := chi.RouteContext(r.Context()).RoutePath; p != "" {
		return p
	}
	return r.URL.Path
}

// rejectBadQuery refuses query strings Go would silently trim (a pair with ';' or a bad escape
// is dropped by URL.Query), so a filter the client sent is never ignored without a word.
func (a *API) rejectBadQuery(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.RawQuery == "" {
			next.ServeHTTP(w, r)
			return
		}
		q, err := url.ParseQuery(r.URL.RawQuery)
		if err != nil {
			a.writeError(w, r, badRequest("invalid_query"))
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), queryKey{}, q)))
	})
}

func nullMillis(t time.Time) sql.NullInt64 { return sql.NullInt64{Int64: db.Millis(t), Valid: true} }
