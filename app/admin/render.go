package admin

import (
	"errors"
	"log/slog"
	"mime"
	"net/http"

	"github.com/a-h/templ"
	"github.com/go-chi/chi/v5"

	"frontdesk/app/catalog"
	"frontdesk/app/errpage"
	"frontdesk/app/input"
	"frontdesk/app/middleware"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// pages writes the owner's pages and error pages (app/errpage, shared with app/customer).
func (a *Admin) pages() errpage.Pages { return errpage.Pages{DB: a.db, Log: a.log, Name: "admin"} }

// renderError is the one place errors become HTML responses: errpage's table, in the admin's
// layout.
func (a *Admin) renderError(w http.ResponseWriter, r *http.Request, err error) {
	a.pages().Error(w, r, err, func(title string) ui.Page { return a.page(r, title) })
}

// render writes a page whole, or a clean 500 when it fails to render (errpage.Pages.Render).
func (a *Admin) render(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	a.pages().Render(w, r, status, c)
}

// page is the layout's model for the current request; it takes the pending flash messages.
func (a *Admin) page(r *http.Request, title string) ui.Page {
	p := ui.Page{Title: title, Path: r.URL.Path, Here: r.URL.RequestURI(), Flashes: a.popFlashes(r.Context())}
	if o, ok := ownerFrom(r.Context()); ok {
		p.Owner = o.Email
		p.Allowed = map[string]bool{"/clients/new": a.may(r, "/clients/new"), "/bookings/new": a.may(r, "/bookings/new"),
			"/bookings/waitlist":                         a.may(r, "/bookings/waitlist"),
			"POST /settings/messages/transport":          a.mayPost(r, "/settings/messages/transport"),
			"POST /settings/messages/texts":              a.mayPost(r, "/settings/messages/texts"),
			"POST /settings/messages/texts/test":         a.mayPost(r, "/settings/messages/texts/test"),
			"POST /settings/messages/whatsapp/test":      a.mayPost(r, "/settings/messages/whatsapp/test"),
			"POST /settings/messages/whatsapp":           a.mayPost(r, "/settings/messages/whatsapp"),
			"POST /settings/messages/whatsapp/templates": a.mayPost(r, "/settings/messages/whatsapp/templates")}
		for _, item := range ui.Nav {
			p.Allowed[item.Href] = a.may(r, item.Href)
			for _, c := range item.Children {
				p.Allowed[c.Href] = a.may(r, c.Href)
			}
		}
		// A provider account lands on its own schedule instead of the dashboard (showDashboard
		// sends it there); everyone else opens a provider's schedule from the calendar.
		own := scopedProvider(r.Context()) != 0
		p.Allowed["/schedule"] = own
		p.Allowed["/"] = p.Allowed["/"] && !own
		if !a.links.Configured() && !a.publicURLNoticeHidden(r) {
			p.UnconfiguredLinkBase = a.links.String()
		}
	}
	if full, since := a.db.Storage().Full(); full {
		p.StorageFullSince = since
	}
	return p
}

// seeOther ends a successful POST (post-redirect-get).
func seeOther(w http.ResponseWriter, r *http.Request, to string) {
	http.Redirect(w, r, to, http.StatusSeeOther)
}

func redirect(to string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { seeOther(w, r, to) }
}

// multiValued lists the fields an admin form may send more than once: its checkbox groups
// (ui.Checkboxes and the webhook events). Any other field sent twice refuses the form
// (middleware.ReadForm); a new checkbox group must be added here.
var multiValued = []string{
	"scopes",       // API keys
	"location_ids", // providers: where they work (catalog.ProviderInput)
	"service_ids",  // providers: what they offer
	"provider_ids", // services: who gives them (catalog.ServiceInput)
	"locations",    // booking-site settings: the locations on the site
	"attributes",   // booking-site settings: the questions asked
	"events",       // webhooks
	"by_text",      // Settings → Messages → Rules for texts: the kinds that may go by text
}

// readForm reads the body of every POST whole before any handler runs (middleware.ReadForm, the
// body size bounded by limitBody), so nothing acts on a request that did not arrive in full —
// not even a button that sends no field, such as deactivating a client. A body that cannot be
// read — cut short, too slow for the server's read timeout, too large — or a field sent twice
// is the client's problem: 400 (413 for the size), never a 500 and never an error in the log.
func (a *Admin) readForm(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || isUpload(r) {
			next.ServeHTTP(w, r)
			return
		}
		if err := middleware.ReadForm(r, multiValued); err != nil {
			a.renderError(w, r, formError(err))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// parseForm is the submitted form. readForm has read it on every route; reading again costs
// nothing (ParseForm keeps what it parsed) and keeps a handler safe outside Routes.
func parseForm(r *http.Request) (*ui.Form, error) {
	if err := middleware.ReadForm(r, multiValued); err != nil {
		return nil, formError(err)
	}
	return ui.NewForm(r.PostForm), nil
}

func formError(err error) error {
	var tooLarge *http.MaxBytesError
	var repeated *middleware.RepeatedFieldError
	switch {
	case errors.As(err, &tooLarge):
		return errpage.BodyTooLarge
	case errors.As(err, &repeated):
		return &errpage.Error{Status: http.StatusBadRequest, Msg: i18n.M("form.repeated", "field", repeated.Field)}
	}
	return errpage.FormUnreadable
}

// checkName records a problem with field when value is not fit to be a name
// (input.CheckName: invisible or direction-changing characters).
func checkName(r *http.Request, f *ui.Form, field, value string) {
	if m, ok := catalog.NameProblem(input.CheckName(value)); ok {
		f.SetError(field, i18n.From(r.Context()).Msg(m))
	}
}

// pathID reads an id URL parameter, written the one canonical way (input.ParseID: "01" and
// "+1" are not 1); anything else is a 404.
func pathID(r *http.Request, name string) (int64, error) {
	id, ok := input.ParseID(chi.URLParam(r, name))
	if !ok {
		return 0, errpage.NotFound
	}
	return id, nil
}

// limitBody caps request bodies: admin forms are small, but for the two requests of an
// import from another system (data_import.go), which carry its file.
func limitBody(next http.Handler) http.Handler {
	small, large := http.MaxBytesHandler(next, 1<<20), http.MaxBytesHandler(next, importBodyLimit)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && (r.URL.Path == importPath || r.URL.Path == importRunPath) {
			large.ServeHTTP(w, r)
			return
		}
		small.ServeHTTP(w, r)
	})
}

// isUpload reports whether r is the import's file upload, a multipart form its handler reads
// whole itself (readUpload) before acting on it.
func isUpload(r *http.Request) bool {
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return r.URL.Path == importPath && mediaType == "multipart/form-data"
}

// crossOriginProtection refuses state-changing requests a browser sent from another origin
// (Sec-Fetch-Site, or Origin against Host): CSRF protection without tokens in forms.
func (a *Admin) crossOriginProtection(next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.log.WarnContext(r.Context(), "cross-origin request refused", slog.String("path", r.URL.Path),
			slog.String("origin", r.Header.Get("Origin")), slog.String("sec_fetch_site", r.Header.Get("Sec-Fetch-Site")))
		a.renderError(w, r, errpage.CrossOrigin)
	}))
	return cop.Handler(next)
}
