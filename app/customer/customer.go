// Package customer serves the pages a business's customers open from a link they were sent,
// outside the booking site: a payment request's checkout page, /pay/{uuid} (pay.go), and the
// reminder opt-out page, /messages/unsubscribe/{token} (unsubscribe.go). They need no session —
// the UUID or the token in the URL is the credential — and work whether or not the booking site
// is switched on. They look like the appliance's own pages (the admin's layout, its
// Content-Security-Policy, no caching) and share nothing else with the admin: no owner session
// is read or written here.
package customer

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/go-chi/chi/v5"

	"frontdesk/app/errpage"
	"frontdesk/app/locale"
	"frontdesk/app/messages"
	"frontdesk/app/middleware"
	"frontdesk/app/payments"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Options configure the customer pages.
type Options struct {
	Now func() time.Time
	Log *slog.Logger
	// Online is online payments through a provider (the checkout page's card payment); nil:
	// requests are paid at the front desk only.
	Online *payments.Online
	// Messages answers the opt-out page (its tokens); nil: one without links.
	Messages *messages.Service
}

// Customer holds what the customer pages share.
type Customer struct {
	db     *db.DB
	now    func() time.Time
	log    *slog.Logger
	online *payments.Online
	msgs   *messages.Service
}

// New returns the customer pages over d.
func New(d *db.DB, o Options) *Customer {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Messages == nil {
		o.Messages = messages.New(d, messages.Options{Now: o.Now, Log: o.Log})
	}
	return &Customer{db: d, now: o.Now, log: o.Log, online: o.Online, msgs: o.Messages}
}

// Mount adds the customer pages to r, the appliance's root router (app/server.go): each prefix
// answers every path and method under it, unknown ones with this package's 404 and 405 pages.
func (c *Customer) Mount(r chi.Router) {
	r.Mount("/pay", c.routes(func(r chi.Router) {
		// A payment request's checkout page: its unguessable UUID is its credential.
		r.Get("/{uuid}", c.showCheckout)
		// Online payments: the pay button sends the customer to the provider's page.
		r.Post("/{uuid}/checkout", c.startCheckout)
		// A gift card pays part or all of it (giftcards.go).
		r.Post("/{uuid}/giftcard", c.applyGiftCard)
	}))
	// A gift card's printable page: its code is the credential (giftcards.go).
	r.Mount("/gift", c.routes(func(r chi.Router) {
		r.Get("/{code}", c.showGiftCard)
	}))
	// A membership's page and the way to the provider's page that manages it.
	r.Mount("/membership", c.routes(func(r chi.Router) {
		// Signing up: the plans, then the provider's checkout (memberships.go).
		r.Get("/join", c.showMembershipJoin)
		r.Post("/join", c.joinMembership)
		r.Get("/{uuid}", c.showMembership)
		r.Post("/{uuid}/portal", c.membershipPortal)
	}))
	r.Mount(strings.TrimSuffix(messages.UnsubscribePath, "/"), c.routes(func(r chi.Router) {
		// A reminder's opt-out link (and its List-Unsubscribe target): the token is the
		// credential.
		r.Get("/{token}", c.showUnsubscribe)
		r.Post("/{token}", c.unsubscribe)
	}))
}

// routes is one prefix's router: the pages' headers, the business's language, cross-origin
// protection for the forms, and the error pages.
func (c *Customer) routes(pages func(chi.Router)) chi.Router {
	r := chi.NewRouter()
	r.Use(limitBody, middleware.PageHeaders, c.localize, c.crossOriginProtection)
	r.NotFound(func(w http.ResponseWriter, r *http.Request) { c.renderError(w, r, errpage.NotFound) })
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) { c.renderError(w, r, errpage.MethodNotAllowed) })
	pages(r)
	return r
}

// limitBody caps request bodies: the pages' forms are small.
func limitBody(next http.Handler) http.Handler {
	return http.MaxBytesHandler(next, 1<<20)
}

type businessKey struct{}

// localize writes every page in the business's language, currency and clock.
func (c *Customer) localize(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		biz, err := locale.Load(r.Context(), c.db.R)
		if err != nil {
			c.renderError(w, r, err)
			return
		}
		ctx := context.WithValue(r.Context(), businessKey{}, biz)
		next.ServeHTTP(w, r.WithContext(i18n.WithPrinter(ctx, biz.Printer())))
	})
}

// business is the business's locale setting of the request.
func business(ctx context.Context) locale.Business {
	biz, _ := ctx.Value(businessKey{}).(locale.Business)
	return biz
}

// crossOriginProtection refuses state-changing requests a browser sent from another origin
// (Sec-Fetch-Site, or Origin against Host). A mail client's one-click unsubscribe carries no
// Origin and so passes, like any non-browser request.
func (c *Customer) crossOriginProtection(next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.log.WarnContext(r.Context(), "cross-origin request refused", slog.String("path", r.URL.Path),
			slog.String("origin", r.Header.Get("Origin")), slog.String("sec_fetch_site", r.Header.Get("Sec-Fetch-Site")))
		c.renderError(w, r, errpage.CrossOrigin)
	}))
	return cop.Handler(next)
}

// pages writes the customer's pages and error pages (app/errpage, shared with the admin).
func (c *Customer) pages() errpage.Pages {
	return errpage.Pages{DB: c.db, Log: c.log, Name: "customer page"}
}

// renderError is the one place errors become HTML responses: errpage's table, in the admin's
// look without its navigation.
func (c *Customer) renderError(w http.ResponseWriter, r *http.Request, err error) {
	c.pages().Error(w, r, err, func(title string) ui.Page {
		page := ui.Page{Title: title, Path: r.URL.Path}
		if full, since := c.db.Storage().Full(); full {
			page.StorageFullSince = since
		}
		return page
	})
}

// render writes a page whole, or a clean 500 when it fails to render (errpage.Pages.Render).
func (c *Customer) render(w http.ResponseWriter, r *http.Request, status int, comp templ.Component) {
	c.pages().Render(w, r, status, comp)
}

// parseForm reads a submitted form (the body size is bounded by limitBody). A body that cannot
// be read is the client's problem: 400 (413 for the size), never a 500.
func parseForm(r *http.Request) (*ui.Form, error) {
	if err := r.ParseForm(); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, errpage.BodyTooLarge
		}
		return nil, errpage.FormUnreadable
	}
	return ui.NewForm(r.PostForm), nil
}

// seeOther ends a POST with a redirect (post-redirect-get).
func seeOther(w http.ResponseWriter, r *http.Request, to string) {
	http.Redirect(w, r, to, http.StatusSeeOther)
}
