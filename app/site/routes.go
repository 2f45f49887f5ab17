package site

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/feeds"
)

// Routes is the whole route table of the booking site, to be mounted at /book. Every page
// works without JavaScript; POSTs are refused from other origins, read whole before any
// handler acts (readForm) and limited per client address. Manage links keep working while the
// site is switched off: they belong to bookings that exist.
func (s *Site) Routes() chi.Router {
	r := chi.NewRouter()
	r.Use(limitBody, s.withConfig, s.crossOriginProtection, s.readForm)
	r.NotFound(func(w http.ResponseWriter, r *http.Request) { s.renderError(w, r, errNotFound) })
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) { s.renderError(w, r, errMethodNotAllowed) })

	// The owner's logo and accent colour, served from our own origin (assets.go).
	r.Get("/logo", s.serveLogo)
	r.Get("/theme.css", s.serveTheme)

	// Booking: location → service → provider → day and time → details (book.go, times.go,
	// details.go).
	r.Group(func(r chi.Router) {
		r.Use(s.requireEnabled)
		// Gift cards, when the owner sells them online (giftcard.go).
		r.Get("/gift-card", s.showGiftCardForm)
		r.With(s.limitPosts).Post("/gift-card", s.buyGiftCard)
		r.Get("/", s.listLocations)
		r.Get("/{location}", s.listServices)
		// Several services in one visit (visit.go).
		r.Get("/{location}/visit", s.showVisit)
		r.Get("/{location}/visit/details", s.showVisitDetails)
		r.With(s.limitPosts).Post("/{location}/visit/details", s.bookVisit)
		// A booking that repeats (repeat.go) and the waitlist for appointments (notify.go).
		r.Get("/{location}/{service}/repeat", s.showRepeat)
		r.Get("/{location}/{service}/notify", s.showNotify)
		r.With(s.limitPosts).Post("/{location}/{service}/notify", s.notify)
		r.Get("/{location}/{service}", s.listProviders)
		r.Get("/{location}/{service}/times", s.showTimes)
		r.Get("/{location}/{service}/details", s.showDetails)
		r.With(s.limitPosts).Post("/{location}/{service}/details", s.book)
		// Classes: the waitlist of a full session (waitlist.go).
		r.Get("/{location}/{service}/waitlist", s.showWaitlistForm)
		r.With(s.limitPosts).Post("/{location}/{service}/waitlist", s.joinWaitlist)
	})

	// Self-service through a personal manage link (manage.go, reschedule.go).
	r.Get("/manage/{token}", s.showBooking)
	r.Get("/manage/{token}/booking.ics", s.downloadCalendar)
	r.Get("/manage/{token}/reschedule", s.showReschedule)
	r.Get("/manage/{token}/reschedule/confirm", s.confirmReschedule)
	r.With(s.limitPosts).Post("/manage/{token}/reschedule", s.reschedule)
	r.Get("/manage/{token}/cancel", s.confirmCancel)
	r.With(s.limitPosts).Post("/manage/{token}/cancel", s.cancel)

	// Classes: a place on a session's waitlist through a personal link (waitlist.go). Like
	// manage links, they keep working while the site is off.
	r.Get("/waitlist/{token}", s.showWaitlistEntry)
	r.Get("/waitlist/{token}/leave", s.confirmLeave)
	r.With(s.limitPosts).Post("/waitlist/{token}/leave", s.leaveWaitlist)
	r.With(s.limitPosts).Post("/waitlist/{token}/booking", s.openBooking)

	// The waitlist for appointments: a time that opened, through a personal claim link
	// (claim.go). Like manage links, claim links keep working while the site is off.
	r.Get("/claim/{token}", s.showClaim)
	r.With(s.limitPosts).Post("/claim/{token}", s.claim)
	return r
}

// FeedRoutes serves the calendar feeds, to be mounted at /feeds (feeds.go): GET (and HEAD) of
// /{token}.ics, nothing else, with no form, session or cookie.
func (s *Site) FeedRoutes() chi.Router {
	r := chi.NewRouter()
	notFound := func(w http.ResponseWriter, r *http.Request) { s.feedError(w, r, feeds.ErrNotFound) }
	r.NotFound(notFound)
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	})
	r.Get("/{file}", s.serveFeed)
	return r
}
