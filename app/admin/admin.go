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
	"frontdesk/app/secrets"
	"frontdesk/app/staff"
	"frontdesk/app/twofactor"
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
	// Secrets seals the accounts' two-factor secrets (app/secrets); nil: two-factor cannot
	// be turned on.
	Secrets *secrets.Box
	// CalendarSaved wakes the providers' calendar worker (app/calendar/calsync) after a
	// provider's calendar is connected or its settings or calendars change, so it reads the
	// calendar now rather than at its next look; nil: nothing to wake.
	CalendarSaved func()
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
	twofa    twofactor.Service
	// calendarSaved is Options.CalendarSaved, never nil.
	calendarSaved func()
	// perms is each signed-in route's permission, "METHOD pattern" → permission, as Routes
	// registers it (permissions.go).
	perms map[string]staff.Permission
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
	if o.CalendarSaved == nil {
		o.CalendarSaved = func() {}
	}
	return &Admin{db: d, now: o.Now, log: o.Log, sessions: newSessionManager(d), throttle: newThrottle(o.Now),
		devices: &devices{db: d, now: o.Now}, hooks: newWebhookPages(d, o.Now, o.Webhooks), msgs: o.Messages, online: o.Online, links: o.Links,
		twofa: twofactor.Service{DB: d, Box: o.Secrets}, calendarSaved: o.CalendarSaved}
}

// Routes is the whole admin route table, to be mounted at "/". Pages that need a signed-in
// account go in the second group, each with the staff.Permission it needs (t.get, t.post:
// permissions.go); a route there without one is refused to everyone. Tests walk this table to
// check that each route needs a session and answers each role as docs/roles.md says.
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
	// The second sign-in step, for accounts with two-factor (twofactor.go).
	r.Get("/login/code", a.showCodeStep)
	r.Post("/login/code", a.verifyCode)
	// Signing in with a passkey (passkeys.go).
	r.Post("/login/passkey/options", a.passkeyLoginOptions)
	r.Post("/login/passkey", a.passkeyLogin)
	// An invitation or a password-reset link (team_join.go): the token is the credential.
	r.Get("/join", a.showJoin)
	r.Post("/join", a.join)

	r.Group(func(r chi.Router) {
		r.Use(a.requireOwner, a.authorize)
		t := a.table(r)
		t.post("/logout", staff.SignedIn, a.logout)

		t.get("/", staff.SignedIn, a.showDashboard)
		// Hiding the no-public-URL notice for a week (notices.go).
		t.post("/notices/public-url/hide", staff.SignedIn, a.hidePublicURLNotice)

		t.get("/account", staff.SignedIn, a.showAccount)
		t.post("/account/password", staff.SignedIn, a.changePassword)
		t.post("/account/language", staff.SignedIn, a.setLanguage)
		// The team (team.go, owner_remove.go; docs/roles.md): accounts, roles, invitations.
		t.get("/settings/team", staff.Team, a.showTeam)
		t.post("/settings/team/invitations", staff.Team, a.inviteMember)
		t.post("/settings/team/settings", staff.Owners, a.saveTeamSettings)
		t.post("/settings/team/{id}/role", staff.Team, a.changeMemberRole)
		t.post("/settings/team/{id}/disable", staff.Team, a.disableMember)
		t.post("/settings/team/{id}/enable", staff.Team, a.enableMember)
		t.post("/settings/team/{id}/reset", staff.Team, a.resetMemberPassword)
		t.get("/owners", staff.Team, redirect("/settings/team"))
		t.post("/owners", staff.Owners, a.createOwner)
		t.get("/owners/{id}/remove", staff.Team, a.confirmRemoveOwner)
		t.post("/owners/{id}/remove", staff.Team, a.removeOwner)
		// Two-factor sign-in (twofactor.go; docs/security.md).
		t.post("/account/two-factor/start", staff.SignedIn, a.startTwoFactor)
		t.post("/account/two-factor/confirm", staff.SignedIn, a.confirmTwoFactor)
		t.post("/account/two-factor/manage", staff.SignedIn, a.manageTwoFactor)
		t.post("/settings/team/two-factor", staff.Owners, a.setTwoFactorRule)
		// The account's sessions (account_sessions.go).
		t.post("/account/sessions/others/end", staff.SignedIn, a.endOtherSessionsHandler)
		t.post("/account/sessions/{id}/end", staff.SignedIn, a.endSession)
		// Passkeys (passkeys.go).
		t.post("/account/passkeys/options", staff.SignedIn, a.passkeyRegistrationOptions)
		t.post("/account/passkeys", staff.SignedIn, a.addPasskey)
		t.post("/account/passkeys/{id}/remove", staff.SignedIn, a.removePasskey)

		// The owner's figures (reports.go; docs/reports.md).
		t.get("/reports", staff.Reports, a.showReports)

		// Who changed what (activity.go; docs/activity.md).
		t.get("/settings/activity", staff.Activity, a.showActivity)
		// Settings → Data: everything in one zip (data.go; docs/data.md).
		t.get("/settings/data", staff.Data, a.showData)
		t.get("/settings/data/export", staff.Data, a.exportEverything)
		// Switching in from another system's CSV export (data_import.go; docs/data.md).
		t.get(importPath, staff.Data, a.showDataImport)
		t.post(importPath, staff.Data, a.checkDataImport)
		t.post(importRunPath, staff.Data, a.runDataImport)

		t.get("/settings/business", staff.Settings, a.showBusiness)
		t.post("/settings/business", staff.Settings, a.updateBusiness)

		// Booking site settings (site_settings.go; docs/booking-site.md).
		t.get("/settings/booking-site", staff.Settings, a.showSiteSettings)
		t.post("/settings/booking-site", staff.Settings, a.updateSiteSettings)

		t.get("/settings/integrations", staff.Integrations, redirect("/settings/integrations/api-keys"))
		t.get("/settings/integrations/api-keys", staff.Integrations, a.listAPIKeys)
		t.post("/settings/integrations/api-keys", staff.Integrations, a.createAPIKey)
		t.get("/settings/integrations/api-keys/{id}/revoke", staff.Integrations, a.confirmRevokeAPIKey)
		t.post("/settings/integrations/api-keys/{id}/revoke", staff.Integrations, a.revokeAPIKey)
		// MCP endpoint (docs/mcp.md): the channel switch and per-key permission (mcp.go).
		t.get("/settings/integrations/mcp", staff.Integrations, a.showMCP)
		t.post("/settings/integrations/mcp", staff.Integrations, a.switchMCP)
		t.post("/settings/integrations/api-keys/{id}/mcp", staff.Integrations, a.switchKeyMCP)

		// Catalog (services.go, categories.go, locations.go, providers.go, attributes.go).
		t.get("/catalog/services", staff.Catalog, a.listServices)
		t.get("/catalog/services/new", staff.Catalog, a.newService)
		t.post("/catalog/services", staff.Catalog, a.createService)
		t.get("/catalog/services/{id}", staff.Catalog, a.showService)
		t.post("/catalog/services/{id}", staff.Catalog, a.updateService)
		t.get("/catalog/categories", staff.Catalog, a.listCategories)
		t.post("/catalog/categories", staff.Catalog, a.createCategory)
		t.get("/catalog/categories/{id}", staff.Catalog, a.showCategory)
		t.post("/catalog/categories/{id}", staff.Catalog, a.updateCategory)
		t.get("/catalog/categories/{id}/delete", staff.Catalog, a.confirmDeleteCategory)
		t.post("/catalog/categories/{id}/delete", staff.Catalog, a.deleteCategory)
		t.get("/catalog/resources", staff.Catalog, a.listResources)
		t.post("/catalog/resources", staff.Catalog, a.createResource)
		t.get("/catalog/resources/{id}", staff.Catalog, a.showResource)
		t.post("/catalog/resources/{id}", staff.Catalog, a.updateResource)
		t.get("/catalog/resources/{id}/delete", staff.Catalog, a.confirmDeleteResource)
		t.post("/catalog/resources/{id}/delete", staff.Catalog, a.deleteResource)
		t.get("/catalog/services/{id}/resources", staff.Catalog, a.showServiceResources)
		t.post("/catalog/services/{id}/resources", staff.Catalog, a.saveServiceResources)
		t.get("/catalog/services/{id}/visit", staff.Catalog, a.showServiceVisit)
		t.post("/catalog/services/{id}/visit", staff.Catalog, a.saveServiceVisit)
		t.get("/catalog/locations", staff.Catalog, a.listLocations)
		t.get("/catalog/locations/new", staff.Catalog, a.newLocation)
		t.post("/catalog/locations", staff.Catalog, a.createLocation)
		t.get("/catalog/locations/{id}", staff.Catalog, a.showLocation)
		t.post("/catalog/locations/{id}", staff.Catalog, a.updateLocation)
		t.post("/catalog/locations/{id}/closures", staff.Catalog, a.addClosure)
		t.post("/catalog/locations/{id}/closures/{closure}/delete", staff.Catalog, a.removeClosure)
		t.get("/catalog/providers", staff.Catalog, a.listProviders)
		t.get("/catalog/providers/new", staff.Catalog, a.newProvider)
		t.post("/catalog/providers", staff.Catalog, a.createProvider)
		t.get("/catalog/providers/{id}", staff.OwnHours, a.showProvider)
		t.post("/catalog/providers/{id}", staff.Catalog, a.updateProvider)
		t.post("/catalog/providers/{id}/hours", staff.OwnHours, a.updateProviderHours)
		t.post("/catalog/providers/{id}/time-off", staff.OwnHours, a.addTimeOff)
		t.post("/catalog/providers/{id}/time-off/{off}/delete", staff.OwnHours, a.removeTimeOff)
		t.get("/catalog/custom-attributes", staff.Catalog, a.listAttributes)
		t.get("/catalog/custom-attributes/new", staff.Catalog, a.newAttribute)
		t.post("/catalog/custom-attributes", staff.Catalog, a.createAttribute)
		t.get("/catalog/custom-attributes/{id}", staff.Catalog, a.showAttribute)
		t.post("/catalog/custom-attributes/{id}", staff.Catalog, a.updateAttribute)
		t.get("/catalog/custom-attributes/{id}/delete", staff.Catalog, a.confirmDeleteAttribute)
		t.post("/catalog/custom-attributes/{id}/delete", staff.Catalog, a.deleteAttribute)
		// Calendar feeds of locations and providers (feeds.go; docs/feeds.md).
		t.post("/catalog/locations/{id}/feed", staff.Catalog, a.issueFeed)
		t.post("/catalog/locations/{id}/feed/details", staff.Catalog, a.setFeedDetails)
		t.post("/catalog/locations/{id}/feed/off", staff.Catalog, a.turnOffFeed)
		t.post("/catalog/providers/{id}/feed", staff.Catalog, a.issueFeed)
		t.post("/catalog/providers/{id}/feed/details", staff.Catalog, a.setFeedDetails)
		t.post("/catalog/providers/{id}/feed/off", staff.Catalog, a.turnOffFeed)
		// A provider's own calendar as busy time (calendars.go; docs/calendars.md).
		// The provider's own account may connect it, as it edits its hours (scope.go ownHours).
		t.post("/catalog/providers/{id}/calendar", staff.OwnHours, a.saveCalendar)
		t.post("/catalog/providers/{id}/calendar/sources", staff.OwnHours, a.chooseCalendars)
		t.post("/catalog/providers/{id}/calendar/off", staff.OwnHours, a.disconnectCalendar)

		// Products (products.go; docs/api.md, "Products").
		t.get("/catalog/products", staff.Catalog, a.listProducts)
		t.get("/catalog/products/new", staff.Catalog, a.newProduct)
		t.post("/catalog/products", staff.Catalog, a.createProduct)
		t.get("/catalog/products/{id}", staff.Catalog, a.showProduct)
		t.post("/catalog/products/{id}", staff.Catalog, a.updateProduct)

		// Webhooks (webhooks.go, webhook_deliveries.go).
		t.get("/settings/integrations/webhooks", staff.Integrations, a.listWebhooks)
		t.get("/settings/integrations/webhooks/new", staff.Integrations, a.newWebhook)
		t.post("/settings/integrations/webhooks", staff.Integrations, a.createWebhook)
		t.get("/settings/integrations/webhooks/{id}", staff.Integrations, a.showWebhook)
		t.post("/settings/integrations/webhooks/{id}", staff.Integrations, a.updateWebhook)
		t.get("/settings/integrations/webhooks/{id}/edit", staff.Integrations, a.editWebhook)
		t.get("/settings/integrations/webhooks/{id}/delete", staff.Integrations, a.confirmDeleteWebhook)
		t.post("/settings/integrations/webhooks/{id}/delete", staff.Integrations, a.deleteWebhook)
		t.get("/settings/integrations/webhooks/{id}/rotate", staff.Integrations, a.confirmRotateSecret)
		t.post("/settings/integrations/webhooks/{id}/rotate", staff.Integrations, a.rotateSecret)
		t.post("/settings/integrations/webhooks/{id}/test", staff.Integrations, a.sendTestEvent)
		t.post("/settings/integrations/webhooks/{id}/reactivate", staff.Integrations, a.reactivateWebhook)
		// Pausing a webhook by hand (webhook_pause.go; docs/webhooks.md, "Pause and resume").
		t.post("/settings/integrations/webhooks/{id}/pause", staff.Integrations, a.pauseWebhook)
		t.post("/settings/integrations/webhooks/{id}/resume", staff.Integrations, a.resumeWebhook)
		t.post("/settings/integrations/webhooks/{id}/recover", staff.Integrations, a.recoverDeliveries)
		// The delivery log as CSV: owners only, like the page (docs/data.md).
		t.get("/settings/integrations/webhooks/{id}/csv", staff.Integrations, a.exportDeliveries)
		t.get("/settings/integrations/webhooks/{id}/deliveries/{delivery}", staff.Integrations, a.showDelivery)
		t.post("/settings/integrations/webhooks/{id}/deliveries/{delivery}/resend", staff.Integrations, a.resendDelivery)

		// Clients (clients.go) and bookings (bookings*.go, dayview*.go, explain.go).
		t.get("/clients", staff.Clients, a.listClients)
		t.get("/clients/csv", staff.Exports, a.exportClients) // CSV downloads (export.go; docs/data.md)
		t.get("/clients/new", staff.ClientsEdit, a.newClient)
		t.post("/clients", staff.ClientsEdit, a.createClient)
		t.get("/clients/{id}", staff.Clients, a.showClient)
		t.post("/clients/{id}", staff.ClientsEdit, a.updateClient)
		t.get("/clients/{id}/deactivate", staff.ClientsEdit, a.confirmDeactivateClient)
		t.post("/clients/{id}/deactivate", staff.ClientsEdit, a.deactivateClient)
		t.post("/clients/{id}/reactivate", staff.ClientsEdit, a.reactivateClient)
		// Notes about a client over time (client_notes.go).
		t.post("/clients/{id}/notes", staff.ClientsEdit, a.addClientNote)
		t.post("/clients/{id}/notes/{note}/delete", staff.ClientsEdit, a.deleteClientNote)
		// A client's data: everything as one file, and erasure (client_data.go; docs/data.md).
		t.get("/clients/{id}/export", staff.Data, a.exportClient)
		t.get("/clients/{id}/erase", staff.Data, a.confirmEraseClient)
		t.post("/clients/{id}/erase", staff.Data, a.eraseClient)
		t.get("/bookings", staff.Calendar, a.listBookings)
		t.get("/bookings/csv", staff.Exports, a.exportBookings)
		t.get("/bookings/day", staff.Calendar, a.showDay)
		// The week and agenda views, and the tab's last-used view (calendar*.go; docs/calendar.md).
		t.get("/bookings/week", staff.Calendar, a.showWeek)
		t.get("/bookings/agenda", staff.Calendar, a.showAgenda)
		t.get("/bookings/calendar", staff.Calendar, a.showCalendar)
		// A provider's own day and week; others choose whose (schedule.go; docs/calendar.md).
		t.get("/schedule", staff.Calendar, a.showSchedule)
		t.get("/bookings/explain", staff.Book, a.explainSlot)
		t.get("/bookings/new", staff.Book, a.newBooking)
		t.get("/bookings/visits/new", staff.Book, a.newVisit) // several services (docs/visits.md)
		t.post("/bookings/visits", staff.Book, a.createVisit)
		// The waitlist for appointments (apptwaitlist.go; docs/visits.md).
		t.get("/bookings/waitlist", staff.Calendar, a.showApptWaitlist)
		t.post("/bookings/waitlist", staff.Book, a.joinApptWaitlist)
		t.post("/bookings/waitlist/{id}/remove", staff.Book, a.leaveApptWaitlist)
		t.post("/bookings", staff.Book, a.createBooking)
		// Booking a caller from an empty time in three steps (bookings_quick.go).
		t.get("/bookings/quick", staff.Book, a.showQuickBooking)
		t.get("/bookings/quick/clients", staff.Book, a.quickClients)
		t.post("/bookings/quick", staff.Book, a.createQuickBooking)
		t.get("/bookings/{id}", staff.Calendar, a.showBooking)
		t.post("/bookings/{id}", staff.Book, a.updateBooking)
		t.post("/bookings/{id}/status", staff.Attendance, a.markBooking)
		t.post("/bookings/{id}/fee", staff.Desk, a.chargeFee)
		// Moving a booking to a free time picked from the engine's (bookings_move.go).
		t.get("/bookings/{id}/move", staff.Book, a.showMoveBooking)
		t.post("/bookings/{id}/move", staff.Book, a.moveBooking)
		t.get("/bookings/{id}/move/check", staff.Book, a.checkMove) // a dropped block's question (fragment)
		t.get("/bookings/{id}/cancel", staff.Book, a.confirmCancelBooking)
		t.post("/bookings/{id}/cancel", staff.Book, a.cancelBooking)

		// Customer messages (messages.go, message_templates.go, message_log.go; docs/messages.md).
		t.get("/settings/messages", staff.Settings, a.showMessageSettings)
		t.post("/settings/messages/transport", staff.Credentials, a.saveMessageTransport)
		t.post("/settings/messages/options", staff.Settings, a.saveMessageOptions)
		t.post("/settings/messages/test", staff.Settings, a.sendTestMessage)
		t.get("/settings/messages/texts", staff.Settings, a.showMessageTexts) // message_texts.go
		t.post("/settings/messages/texts", staff.Credentials, a.saveMessageTexts)
		t.post("/settings/messages/texts/test", staff.Credentials, a.sendTestText)
		t.get("/settings/messages/rules", staff.Settings, a.showMessageRules) // message_rules.go
		t.post("/settings/messages/rules", staff.Settings, a.saveMessageRules)
		t.get("/settings/messages/templates", staff.Settings, a.listMessageTemplates)
		t.get("/settings/messages/templates/{kind}/{lang}", staff.Settings, a.showMessageTemplate)
		t.post("/settings/messages/templates/{kind}/{lang}", staff.Settings, a.saveMessageTemplate)
		t.post("/settings/messages/templates/{kind}/{lang}/reset", staff.Settings, a.resetMessageTemplate)
		t.post("/settings/messages/templates/{kind}/{lang}/text", staff.Settings, a.saveMessageText)
		t.post("/settings/messages/templates/{kind}/{lang}/text/reset", staff.Settings, a.resetMessageText)
		t.get("/settings/messages/log", staff.Settings, a.showMessageLog)
		t.get("/settings/messages/log/csv", staff.Exports, a.exportMessages) // CSV download (export.go; docs/data.md)
		t.get("/settings/messages/log/{id}", staff.Settings, a.showMessage)
		t.post("/settings/messages/log/{id}/resend", staff.Settings, a.resendMessage)
		// Clients' replies and the WhatsApp channel (message_replies.go; app/replies).
		t.get("/settings/messages/inbox", staff.Settings, a.showMessageInbox)
		t.post("/settings/messages/inbox", staff.Settings, a.saveReplyCopies)
		t.get("/settings/messages/whatsapp", staff.Settings, a.showMessageWhatsApp)
		t.post("/settings/messages/whatsapp", staff.Credentials, a.saveMessageWhatsApp)
		t.post("/settings/messages/whatsapp/templates", staff.Settings, a.saveWhatsAppTemplate)
		t.post("/settings/messages/whatsapp/test", staff.Credentials, a.sendTestWhatsApp)

		// Classes and packs (docs/classes.md): timetable.go, class_sessions.go, class_settings.go.
		t.get("/catalog/timetable", staff.Catalog, a.showTimetable)
		t.post("/catalog/timetable", staff.Catalog, a.createTimetableEntry)
		t.post("/catalog/timetable/one-off", staff.Catalog, a.createOneOffSession)
		t.get("/catalog/timetable/{id}", staff.Catalog, a.showTimetableEntry)
		t.post("/catalog/timetable/{id}", staff.Catalog, a.updateTimetableEntry)
		t.post("/catalog/timetable/{id}/cancel-date", staff.Catalog, a.cancelTimetableDate)
		t.post("/catalog/timetable/{id}/delete", staff.Catalog, a.deleteTimetableEntry)
		t.get("/bookings/sessions/{id}", staff.Calendar, a.showClassSession)
		t.post("/bookings/sessions/{id}/attendees", staff.Book, a.addAttendee)
		t.post("/bookings/sessions/{id}/attendees/{booking}/status", staff.Attendance, a.setAttendeeStatus)
		t.post("/bookings/sessions/{id}/attendees/{booking}/remove", staff.Book, a.removeAttendee)
		t.post("/bookings/sessions/{id}/waitlist", staff.Book, a.addWaiting)
		t.post("/bookings/sessions/{id}/waitlist/{entry}/remove", staff.Book, a.removeWaiting)
		t.post("/bookings/sessions/{id}/seats", staff.Catalog, a.updateSessionSeats)
		t.get("/bookings/sessions/{id}/cancel", staff.Catalog, a.confirmCancelSession)
		t.post("/bookings/sessions/{id}/cancel", staff.Catalog, a.cancelClassSession)
		t.post("/bookings/sessions/{id}/restore", staff.Catalog, a.restoreClassSession)
		t.post("/clients/{id}/packs", staff.Desk, a.recordPack)
		t.get("/settings/classes", staff.Settings, a.showClassSettings)
		t.post("/settings/classes", staff.Settings, a.updateClassSettings)

		// Payments (payments.go).
		t.get("/payments", staff.Desk, a.listPaymentRequests)
		t.get("/payments/csv", staff.Exports, a.exportPayments) // CSV downloads (export.go; docs/data.md)
		t.get("/payments/sales", staff.Desk, a.listSales)
		t.get("/payments/sales/csv", staff.Exports, a.exportSales)
		t.get("/payments/{id}", staff.Desk, a.showPaymentRequest)
		t.post("/payments/{id}/settle", staff.Desk, a.settlePaymentRequest)
		t.post("/payments/{id}/cancel", staff.Desk, a.cancelPaymentRequest)

		// Online payments (payment_settings.go, payments.go, sales.go; docs/payments.md).
		t.get("/settings/payments", staff.Credentials, a.showPaymentSettings)
		t.post("/settings/payments", staff.Credentials, a.updatePaymentSettings)
		t.post("/settings/payments/test", staff.Credentials, a.testPaymentProvider)
		t.post("/settings/payments/reconcile", staff.Refunds, a.reconcilePayments)
		// The cancellation policy with fees, card on file and deposit rules (fee_policy.go).
		t.get("/settings/cancellation", staff.Settings, a.showFeePolicy)
		t.post("/settings/cancellation", staff.Settings, a.updateFeePolicy)
		t.post("/clients/{id}/deposit", staff.ClientsEdit, a.setClientDeposit)
		t.post("/payments/flags/{id}/resolve", staff.Refunds, a.resolvePaymentFlag)
		t.post("/payments/flags/{id}/refund", staff.Refunds, a.refundFlaggedPayment)
		t.get("/payments/sales/{id}", staff.Desk, a.showSale)
		t.post("/payments/sales/{id}/refund", staff.Refunds, a.refundSale)
		t.post("/payments/sales/{id}/balance", staff.Desk, a.collectSaleBalance)

		// Gift cards and memberships (giftcards.go, memberships.go; docs/payments.md).
		t.get("/payments/giftcards", staff.Desk, a.listGiftCards)
		t.post("/payments/giftcards", staff.Desk, a.sellGiftCard)
		t.post("/payments/giftcards/settings", staff.Settings, a.updateGiftCardSettings)
		t.get("/payments/giftcards/{id}", staff.Desk, a.showGiftCard)
		t.post("/payments/giftcards/{id}/void", staff.Refunds, a.voidGiftCard)
		t.post("/payments/{id}/giftcard", staff.Desk, a.payWithGiftCard)
		t.get("/payments/memberships", staff.Desk, a.listMemberships)
		t.post("/payments/memberships/plans", staff.Catalog, a.createMembershipPlan)
		t.post("/payments/memberships/signup", staff.Desk, a.signUpMember)
		t.post("/payments/memberships/{id}/{act}", staff.Desk, a.changeMembership)
	})
	return r
}
