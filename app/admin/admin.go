// Package admin serves the owner-facing UI (docs/contract.md): server-rendered HTML from ui's templ
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

	"frontdesk/app/errpage"
	"frontdesk/app/links"
	"frontdesk/app/messages"
	"frontdesk/app/messages/mailer"
	"frontdesk/app/middleware"
	"frontdesk/app/payments"
	"frontdesk/db"
)

// Options configure the admin UI.
type Options struct {
	Now      func() time.Time
	Log      *slog.Logger
	Webhooks WebhookOptions
	// Messages is customer messaging (docs/messages.md); nil: one without a key for passwords.
	Messages *mailer.Mailer
	// Online is online payments through a provider (Settings → Payments, refunds); nil in
	// tests that do not need it.
	Online *payments.Online
	// Links is the base of generated links; when it is not a configured public URL, every
	// owner page says so (docs/deploy.md "Public URL").
	Links links.Base
}

// Admin holds what the admin handlers share.
type Admin struct {
	db       *db.DB
	now      func() time.Time
	log      *slog.Logger
	sessions *scs.SessionManager
	throttle *throttle
	devices  *devices
	hooks    webhookPages
	msgs     *mailer.Mailer
	online   *payments.Online
	links    links.Base
}

// New returns the admin UI over d.
func New(d *db.DB, o Options) *Admin {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Messages == nil {
		o.Messages = mailer.New(d, mailer.Options{Messages: messages.Options{Now: o.Now, Log: o.Log}})
	}
	return &Admin{db: d, now: o.Now, log: o.Log, sessions: newSessionManager(d), throttle: newThrottle(o.Now),
		devices: &devices{db: d, now: o.Now}, hooks: newWebhookPages(d, o.Now, o.Webhooks), msgs: o.Messages, online: o.Online, links: o.Links}
}

// Routes is the whole admin route table, to be mounted at "/". Pages that need a signed-in
// owner go in the second group; tests walk this table to check that each one does.
func (a *Admin) Routes() chi.Router {
	r := chi.NewRouter()
	r.Use(limitBody, middleware.PageHeaders, a.loadSession, a.localize, a.crossOriginProtection, a.readForm)
	r.NotFound(func(w http.ResponseWriter, r *http.Request) { a.renderError(w, r, errpage.NotFound) })
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) { a.renderError(w, r, errpage.MethodNotAllowed) })

	// First run and sign-in: the only pages open without a session. (The pages customers open
	// from a link, /pay and /messages/unsubscribe, are app/customer's.)
	r.Get("/setup", a.showSetup)
	r.Post("/setup", a.createFirstOwner)
	r.Get("/login", a.showLogin)
	r.Post("/login", a.login)

	r.Group(func(r chi.Router) {
		r.Use(a.requireOwner)
		r.Post("/logout", a.logout)

		r.Get("/", a.showDashboard)
		// Hiding the no-public-URL notice for a week (notices.go).
		r.Post("/notices/public-url/hide", a.hidePublicURLNotice)

		r.Get("/account", a.showAccount)
		r.Post("/account/password", a.changePassword)
		r.Post("/account/language", a.setLanguage)
		r.Get("/owners", a.listOwners)
		r.Post("/owners", a.createOwner)
		// Removing an owner (owner_remove.go).
		r.Get("/owners/{id}/remove", a.confirmRemoveOwner)
		r.Post("/owners/{id}/remove", a.removeOwner)

		r.Get("/settings/business", a.showBusiness)
		r.Post("/settings/business", a.updateBusiness)

		// Booking site settings (site_settings.go; docs/booking-site.md).
		r.Get("/settings/booking-site", a.showSiteSettings)
		r.Post("/settings/booking-site", a.updateSiteSettings)

		r.Get("/settings/integrations", redirect("/settings/integrations/api-keys"))
		r.Get("/settings/integrations/api-keys", a.listAPIKeys)
		r.Post("/settings/integrations/api-keys", a.createAPIKey)
		r.Get("/settings/integrations/api-keys/{id}/revoke", a.confirmRevokeAPIKey)
		r.Post("/settings/integrations/api-keys/{id}/revoke", a.revokeAPIKey)
		// MCP endpoint (docs/mcp.md): the channel switch and per-key permission (mcp.go).
		r.Get("/settings/integrations/mcp", a.showMCP)
		r.Post("/settings/integrations/mcp", a.switchMCP)
		r.Post("/settings/integrations/api-keys/{id}/mcp", a.switchKeyMCP)

		// Catalog (services.go, categories.go, locations.go, providers.go, attributes.go).
		r.Get("/catalog/services", a.listServices)
		r.Get("/catalog/services/new", a.newService)
		r.Post("/catalog/services", a.createService)
		r.Get("/catalog/services/{id}", a.showService)
		r.Post("/catalog/services/{id}", a.updateService)
		r.Get("/catalog/categories", a.listCategories)
		r.Post("/catalog/categories", a.createCategory)
		r.Get("/catalog/categories/{id}", a.showCategory)
		r.Post("/catalog/categories/{id}", a.updateCategory)
		r.Get("/catalog/categories/{id}/delete", a.confirmDeleteCategory)
		r.Post("/catalog/categories/{id}/delete", a.deleteCategory)
		r.Get("/catalog/locations", a.listLocations)
		r.Get("/catalog/locations/new", a.newLocation)
		r.Post("/catalog/locations", a.createLocation)
		r.Get("/catalog/locations/{id}", a.showLocation)
		r.Post("/catalog/locations/{id}", a.updateLocation)
		r.Post("/catalog/locations/{id}/closures", a.addClosure)
		r.Post("/catalog/locations/{id}/closures/{closure}/delete", a.removeClosure)
		r.Post("/catalog/locations/{id}/feed", a.issueFeed) // calendar feed (feeds.go)
		r.Post("/catalog/locations/{id}/feed/details", a.setFeedDetails)
		r.Post("/catalog/locations/{id}/feed/off", a.turnOffFeed)
		r.Get("/catalog/providers", a.listProviders)
		r.Get("/catalog/providers/new", a.newProvider)
		r.Post("/catalog/providers", a.createProvider)
		r.Get("/catalog/providers/{id}", a.showProvider)
		r.Post("/catalog/providers/{id}", a.updateProvider)
		r.Post("/catalog/providers/{id}/time-off", a.addTimeOff)
		r.Post("/catalog/providers/{id}/time-off/{off}/delete", a.removeTimeOff)
		r.Post("/catalog/providers/{id}/feed", a.issueFeed) // calendar feed (feeds.go)
		r.Post("/catalog/providers/{id}/feed/details", a.setFeedDetails)
		r.Post("/catalog/providers/{id}/feed/off", a.turnOffFeed)
		r.Get("/catalog/custom-attributes", a.listAttributes)
		r.Get("/catalog/custom-attributes/new", a.newAttribute)
		r.Post("/catalog/custom-attributes", a.createAttribute)
		r.Get("/catalog/custom-attributes/{id}", a.showAttribute)
		r.Post("/catalog/custom-attributes/{id}", a.updateAttribute)
		r.Get("/catalog/custom-attributes/{id}/delete", a.confirmDeleteAttribute)
		r.Post("/catalog/custom-attributes/{id}/delete", a.deleteAttribute)

		// Products (products.go; docs/api.md, "Products").
		r.Get("/catalog/products", a.listProducts)
		r.Get("/catalog/products/new", a.newProduct)
		r.Post("/catalog/products", a.createProduct)
		r.Get("/catalog/products/{id}", a.showProduct)
		r.Post("/catalog/products/{id}", a.updateProduct)

		// Webhooks (webhooks.go, webhook_deliveries.go).
		r.Get("/settings/integrations/webhooks", a.listWebhooks)
		r.Get("/settings/integrations/webhooks/new", a.newWebhook)
		r.Post("/settings/integrations/webhooks", a.createWebhook)
		r.Get("/settings/integrations/webhooks/{id}", a.showWebhook)
		r.Post("/settings/integrations/webhooks/{id}", a.updateWebhook)
		r.Get("/settings/integrations/webhooks/{id}/edit", a.editWebhook)
		r.Get("/settings/integrations/webhooks/{id}/delete", a.confirmDeleteWebhook)
		r.Post("/settings/integrations/webhooks/{id}/delete", a.deleteWebhook)
		r.Get("/settings/integrations/webhooks/{id}/rotate", a.confirmRotateSecret)
		r.Post("/settings/integrations/webhooks/{id}/rotate", a.rotateSecret)
		r.Post("/settings/integrations/webhooks/{id}/test", a.sendTestEvent)
		r.Post("/settings/integrations/webhooks/{id}/reactivate", a.reactivateWebhook)
		// Pausing a webhook by hand (webhook_pause.go; docs/webhooks.md, "Pause and resume").
		r.Post("/settings/integrations/webhooks/{id}/pause", a.pauseWebhook)
		r.Post("/settings/integrations/webhooks/{id}/resume", a.resumeWebhook)
		r.Post("/settings/integrations/webhooks/{id}/recover", a.recoverDeliveries)
		r.Get("/settings/integrations/webhooks/{id}/deliveries/{delivery}", a.showDelivery)
		r.Post("/settings/integrations/webhooks/{id}/deliveries/{delivery}/resend", a.resendDelivery)

		// Clients (clients.go) and bookings (bookings*.go, dayview*.go, explain.go).
		r.Get("/clients", a.listClients)
		r.Get("/clients/new", a.newClient)
		r.Post("/clients", a.createClient)
		r.Get("/clients/{id}", a.showClient)
		r.Post("/clients/{id}", a.updateClient)
		r.Get("/clients/{id}/deactivate", a.confirmDeactivateClient)
		r.Post("/clients/{id}/deactivate", a.deactivateClient)
		r.Post("/clients/{id}/reactivate", a.reactivateClient)
		r.Get("/clients/{id}/export", a.exportClient)
		r.Get("/clients/{id}/erase", a.confirmEraseClient)
		r.Post("/clients/{id}/erase", a.eraseClient)
		r.Get("/bookings", a.listBookings)
		r.Get("/bookings/day", a.showDay)
		r.Get("/bookings/explain", a.explainSlot)
		r.Get("/bookings/new", a.newBooking)
		r.Post("/bookings", a.createBooking)
		r.Get("/bookings/{id}", a.showBooking)
		r.Post("/bookings/{id}", a.updateBooking)
		r.Get("/bookings/{id}/cancel", a.confirmCancelBooking)
		r.Post("/bookings/{id}/cancel", a.cancelBooking)

		// Customer messages (messages.go, message_templates.go, message_log.go; docs/messages.md).
		r.Get("/settings/messages", a.showMessageSettings)
		r.Post("/settings/messages/transport", a.saveMessageTransport)
		r.Post("/settings/messages/options", a.saveMessageOptions)
		r.Post("/settings/messages/test", a.sendTestMessage)
		r.Get("/settings/messages/templates", a.listMessageTemplates)
		r.Get("/settings/messages/templates/{kind}/{lang}", a.showMessageTemplate)
		r.Post("/settings/messages/templates/{kind}/{lang}", a.saveMessageTemplate)
		r.Post("/settings/messages/templates/{kind}/{lang}/reset", a.resetMessageTemplate)
		r.Get("/settings/messages/log", a.showMessageLog)
		r.Get("/settings/messages/log/{id}", a.showMessage)
		r.Post("/settings/messages/log/{id}/resend", a.resendMessage)

		// Classes and packs (docs/classes.md): timetable.go, class_sessions.go, class_settings.go.
		r.Get("/catalog/timetable", a.showTimetable)
		r.Post("/catalog/timetable", a.createTimetableEntry)
		r.Post("/catalog/timetable/one-off", a.createOneOffSession)
		r.Get("/catalog/timetable/{id}", a.showTimetableEntry)
		r.Post("/catalog/timetable/{id}", a.updateTimetableEntry)
		r.Post("/catalog/timetable/{id}/cancel-date", a.cancelTimetableDate)
		r.Post("/catalog/timetable/{id}/delete", a.deleteTimetableEntry)
		r.Get("/bookings/sessions/{id}", a.showClassSession)
		r.Post("/bookings/sessions/{id}/attendees", a.addAttendee)
		r.Post("/bookings/sessions/{id}/attendees/{booking}/status", a.setAttendeeStatus)
		r.Post("/bookings/sessions/{id}/attendees/{booking}/remove", a.removeAttendee)
		r.Post("/bookings/sessions/{id}/waitlist", a.addWaiting)
		r.Post("/bookings/sessions/{id}/waitlist/{entry}/remove", a.removeWaiting)
		r.Post("/bookings/sessions/{id}/seats", a.updateSessionSeats)
		r.Get("/bookings/sessions/{id}/cancel", a.confirmCancelSession)
		r.Post("/bookings/sessions/{id}/cancel", a.cancelClassSession)
		r.Post("/bookings/sessions/{id}/restore", a.restoreClassSession)
		r.Post("/clients/{id}/packs", a.recordPack)
		r.Get("/settings/classes", a.showClassSettings)
		r.Post("/settings/classes", a.updateClassSettings)

		// Payments (payments.go).
		r.Get("/payments", a.listPaymentRequests)
		r.Get("/payments/sales", a.listSales)
		r.Get("/payments/{id}", a.showPaymentRequest)
		r.Post("/payments/{id}/settle", a.settlePaymentRequest)
		r.Post("/payments/{id}/cancel", a.cancelPaymentRequest)

		// Online payments (payment_settings.go, payments.go, sales.go; docs/payments.md).
		r.Get("/settings/payments", a.showPaymentSettings)
		r.Post("/settings/payments", a.updatePaymentSettings)
		r.Post("/settings/payments/test", a.testPaymentProvider)
		r.Post("/settings/payments/reconcile", a.reconcilePayments)
		r.Post("/payments/flags/{id}/resolve", a.resolvePaymentFlag)
		r.Post("/payments/flags/{id}/refund", a.refundFlaggedPayment)
		r.Get("/payments/sales/{id}", a.showSale)
		r.Post("/payments/sales/{id}/refund", a.refundSale)
		r.Post("/payments/sales/{id}/balance", a.collectSaleBalance)
	})
	return r
}
