// Package site serves the public booking site at /book (docs/booking-site.md): customers choose
// a location, a service, a provider (or anyone available), a day and a time from the slot
// engine, give their details and book; afterwards a personal manage link lets them see,
// reschedule, cancel or add the booking to their calendar.
//
// The site is a customer flow like the /v3 API: it books through app/booking with source
// "online", so every rule an API client meets (online-booking flags, notice, advance window,
// the edit and cancel policy, no double booking) applies unchanged. It keeps no session: the
// steps carry their state in the URL (ids, a date, an instant — never personal data) and the
// last step in its form, so it works the same embedded in another site's iframe, with
// JavaScript off, and on a phone. Its one cookie is the language a visitor chose (language.go).
//
// routes.go is the route table; errors become pages in render.go (renderError), the one place.
package site

import (
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"frontdesk/app/payments"
	"frontdesk/db"
)

// Links builds absolute URLs from the public URL (app/links.Base satisfies it).
type Links interface {
	URL(path string, query url.Values) string
}

// Options configure the site.
type Options struct {
	Now   func() time.Time
	Log   *slog.Logger
	Links Links
	// PostsPerHour bounds the POSTs (bookings, reschedules, cancels) one client address may
	// make in an hour, with bursts of up to postBurst; 0 means DefaultPostsPerHour, negative
	// means no limit.
	PostsPerHour int
	// ClientIP names the client of a request for the per-address limit (the appliance's
	// middleware.ClientIP, which knows about trusted proxies); nil uses the connection's address.
	ClientIP func(r *http.Request) string
	// Online is online payments; with a provider and an active membership plan the services
	// page links to the membership sign-up page (/membership/join). nil: no link.
	Online *payments.Online
}

// DefaultPostsPerHour is the per-address limit on public POSTs: a family booking for several
// people stays well within it, a script does not.
const DefaultPostsPerHour = 60

// Site is the booking site's handlers and what they share.
type Site struct {
	db       *db.DB
	now      func() time.Time
	log      *slog.Logger
	links    Links
	limiter  *limiter
	clientIP func(r *http.Request) string
	// feedTimes are the calendar feeds' Last-Modified times (feeds.go).
	feedTimes feedTimes
	online    *payments.Online
	// offers are the date picker's slots by schedule version (offers.go).
	offers offers
}

// New returns the booking site over d.
func New(d *db.DB, o Options) *Site {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.PostsPerHour == 0 {
		o.PostsPerHour = DefaultPostsPerHour
	}
	if o.ClientIP == nil {
		o.ClientIP = remoteIP
	}
	return &Site{db: d, now: o.Now, log: o.Log, links: o.Links, limiter: newLimiter(o.PostsPerHour, o.Now), clientIP: o.ClientIP, online: o.Online}
}
