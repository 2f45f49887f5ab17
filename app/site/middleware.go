package site

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strings"

	"frontdesk/app/activity"
	"frontdesk/app/middleware"
	"frontdesk/ui/i18n"
)

type configCtxKey struct{}

// configFrom is the site configuration withConfig put in the request's context.
func configFrom(ctx context.Context) *config {
	c, _ := ctx.Value(configCtxKey{}).(*config)
	return c
}

// withConfig loads the site's configuration for the request, writes the visitor's language
// (language.go) and the business's currency and clock into its printer — or answers a switch of
// language — and sets the headers of every site response: a strict
// Content-Security-Policy (our own files only; framing only by the origins the owner listed)
// and no caching of pages whose times change by the minute.
func (s *Site) withConfig(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The visitor acts as the booking site until a form or link says which client they are.
		r = r.WithContext(activity.WithActor(r.Context(), activity.Actor{Kind: activity.KindSite}))
		h := w.Header()
		h.Set("Cache-Control", "no-store")
		c, err := s.loadConfig(r.Context())
		if err != nil {
			h.Set("Content-Security-Policy", csp(nil))
			s.renderError(w, r, err)
			return
		}
		h.Set("Content-Security-Policy", csp(c.origins))
		// frame-ancestors decides who may frame the site; the appliance-wide X-Frame-Options:
		// DENY would forbid the owner's own website too.
		h.Del("X-Frame-Options")
		h.Add("Vary", "Accept-Language, Cookie")
		if switchLanguage(w, r) {
			return
		}
		ctx := context.WithValue(r.Context(), configCtxKey{}, c)
		p := i18n.NewPrinter(visitorLanguage(r, c.business.Language), c.business.Prefs)
		next.ServeHTTP(w, r.WithContext(i18n.WithPrinter(ctx, p)))
	})
}

// csp allows our own files only — no inline script or style, no other origin for anything
// (data: images are no request: the layout's empty favicon) — and framing by our own pages and
// the listed origins.
func csp(origins []string) string {
	ancestors := "'self'"
	if len(origins) > 0 {
		ancestors += " " + strings.Join(origins, " ")
	}
	return "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
		"form-action 'self'; frame-ancestors " + ancestors + "; base-uri 'none'"
}

// requireEnabled shows the booking pages only while the owner has the site switched on.
func (s *Site) requireEnabled(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c := configFrom(r.Context()); c == nil || !c.settings.Enabled {
			s.renderError(w, r, errSiteOff)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// crossOriginProtection refuses state-changing requests a browser sent from another origin
// (Go's CrossOriginProtection: Sec-Fetch-Site, or Origin against Host). A form inside the
// owner's iframe is our own page, so it passes.
func (s *Site) crossOriginProtection(next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.log.WarnContext(r.Context(), "booking site: cross-origin request refused", slog.String("path", r.URL.Path),
			slog.String("origin", r.Header.Get("Origin")), slog.String("sec_fetch_site", r.Header.Get("Sec-Fetch-Site")))
		s.renderError(w, r, errCrossOrigin)
	}))
	return cop.Handler(next)
}

// limitPosts applies the per-address limit on public POSTs. An IPv6 client is counted by its
// /64 (middleware.LimitKey): it has the whole block to pick addresses from.
func (s *Site) limitPosts(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ip := s.clientIP(r)
		if wait, ok := s.limiter.allow(middleware.LimitKey(ip)); !ok {
			s.log.WarnContext(r.Context(), "booking site: too many requests", slog.String("client", ip))
			w.Header().Set("Retry-After", retryAfter(wait))
			s.renderError(w, r, errTooMany)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// multiValued lists the fields a booking-site form may send more than once: a visit's add-ons
// of each service (visit.go), carried by its details form. The site's other fields are single
// (a yes/no question is one checkbox, an alternative time one radio button); a field added here
// must be one the form really repeats.
var multiValued = []string{"a1", "a2", "a3", "a4"}

// readForm reads the body of every POST whole before any handler runs (middleware.ReadForm), so
// nothing acts on a request that did not arrive in full — not even a cancel, which reads no
// field — and a field sent twice cannot slip past the honeypot. What it refuses is the
// client's doing: a 400 (413 over the size cap) page, and nothing logged but the access line.
func (s *Site) readForm(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		err := middleware.ReadForm(r, multiValued)
		if err == nil {
			next.ServeHTTP(w, r)
			return
		}
		var tooLarge *http.MaxBytesError
		var repeated *middleware.RepeatedFieldError
		switch {
		case errors.As(err, &tooLarge):
			err = errTooLarge
		case errors.As(err, &repeated):
			err = repeatedField(repeated.Field)
		default:
			err = errUnreadable
		}
		s.renderError(w, r, err)
	})
}

// limitBody caps request bodies: the booking form is small.
func limitBody(next http.Handler) http.Handler {
	return http.MaxBytesHandler(next, 64<<10)
}

// remoteIP is the connection's address without its port.
func remoteIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
