package admin

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"

	"github.com/a-h/templ"
	"github.com/go-chi/chi/v5"

	"frontdesk/app/catalog"
	"frontdesk/app/input"
	"frontdesk/app/middleware"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// pageError is an error the owner may see: a status and a sentence (a catalog message). Every
// other error is logged and shown as a generic 500.
type pageError struct {
	status int
	msg    i18n.Msg
}

func (e *pageError) Error() string { return e.msg.Error() }

var (
	errNotFound         = &pageError{http.StatusNotFound, i18n.M("error.not_found")}
	errMethodNotAllowed = &pageError{http.StatusMethodNotAllowed, i18n.M("error.method_not_allowed")}
	errCrossOrigin      = &pageError{http.StatusForbidden, i18n.M("error.cross_origin")}
	errInternal         = &pageError{http.StatusInternalServerError, i18n.M("error.internal")}
	errFormUnreadable   = &pageError{http.StatusBadRequest, i18n.M("form.unreadable")}
	errAbandoned        = &pageError{http.StatusBadRequest, i18n.M("guard.error.abandoned")}
	errBodyTooLarge     = &pageError{http.StatusRequestEntityTooLarge, i18n.M("guard.error.too_large")}
	errStorageFull      = &pageError{http.StatusInsufficientStorage, i18n.M("guard.error.storage_full")}
)

// renderError is the one place errors become HTML responses.
func (a *Admin) renderError(w http.ResponseWriter, r *http.Request, err error) {
	var pe *pageError
	switch {
	case errors.As(err, &pe):
	case db.IsFull(err):
		a.db.NoteWriteError(err)
		pe = errStorageFull
	case errors.Is(err, context.Canceled) && r.Context().Err() != nil:
		// The client went away (or its body broke off) while we worked: nothing of ours
		// failed, and nobody reads the answer.
		a.log.InfoContext(r.Context(), "admin: request abandoned by the client", slog.String("path", r.URL.Path),
			slog.String("request_id", middleware.RequestID(r.Context())))
		pe = errAbandoned
	default:
		a.log.ErrorContext(r.Context(), "admin", slog.String("path", r.URL.Path), slog.Any("err", err),
			slog.String("request_id", middleware.RequestID(r.Context())))
		pe = errInternal
	}
	p := i18n.From(r.Context())
	a.render(w, r, pe.status, ui.ErrorPage(a.page(r, p.Msg(ui.StatusTitle(pe.status))), pe.status, p.Msg(pe.msg)))
}

// render writes a page. It renders into a buffer first, so a failing component gives a clean
// 500 instead of half a page. The page is rendered even when the request's context is already
// cancelled (a body that broke off cancels it): rendering to memory is cheap, and the answer
// may still reach a client that only stopped sending.
func (a *Admin) render(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	var buf bytes.Buffer
	if err := c.Render(context.WithoutCancel(r.Context()), &buf); err != nil {
		a.log.ErrorContext(r.Context(), "render", slog.String("path", r.URL.Path), slog.Any("err", err))
		http.Error(w, i18n.From(r.Context()).Msg(errInternal.msg), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// page is the layout's model for the current request; it takes the pending flash messages.
func (a *Admin) page(r *http.Request, title string) ui.Page {
	p := ui.Page{Title: title, Path: r.URL.Path, Here: r.URL.RequestURI(), Flashes: a.popFlashes(r.Context())}
	if o, ok := ownerFrom(r.Context()); ok {
		p.Owner = o.Email
		p.Allowed = map[string]bool{"/clients/new": a.may(r, "/clients/new"), "/bookings/new": a.may(r, "/bookings/new"),
			"POST /settings/messages/transport": a.mayPost(r, "/settings/messages/transport")}
		for _, item := range ui.Nav {
			p.Allowed[item.Href] = a.may(r, item.Href)
			for _, c := range item.Children {
				p.Allowed[c.Href] = a.may(r, c.Href)
			}
		}
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
}

// readForm reads the body of every POST whole before any handler runs (middleware.ReadForm, the
// body size bounded by limitBody), so nothing acts on a request that did not arrive in full —
// not even a button that sends no field, such as deactivating a client. A body that cannot be
// read — cut short, too slow for the server's read timeout, too large — or a field sent twice
// is the client's problem: 400 (413 for the size), never a 500 and never an error in the log.
func (a *Admin) readForm(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
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
		return errBodyTooLarge
	case errors.As(err, &repeated):
		return &pageError{http.StatusBadRequest, i18n.M("form.repeated", "field", repeated.Field)}
	}
	return errFormUnreadable
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
		return 0, errNotFound
	}
	return id, nil
}

// limitBody caps request bodies: admin forms are small.
func limitBody(next http.Handler) http.Handler {
	return http.MaxBytesHandler(next, 1<<20)
}

// crossOriginProtection refuses state-changing requests a browser sent from another origin
// (Sec-Fetch-Site, or Origin against Host): CSRF protection without tokens in forms.
func (a *Admin) crossOriginProtection(next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.log.WarnContext(r.Context(), "cross-origin request refused", slog.String("path", r.URL.Path),
			slog.String("origin", r.Header.Get("Origin")), slog.String("sec_fetch_site", r.Header.Get("Sec-Fetch-Site")))
		a.renderError(w, r, errCrossOrigin)
	}))
	return cop.Handler(next)
}
