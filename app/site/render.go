package site

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/a-h/templ"

	"frontdesk/app/errpage"
	"frontdesk/app/fail"
	"frontdesk/app/middleware"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// pageError is an error a visitor may see: a status, a title and a sentence (catalog
// messages). Every other error is logged and shown as a generic 500 page.
type pageError struct {
	status int
	title  i18n.Msg
	msg    i18n.Msg
}

func (e *pageError) Error() string { return e.msg.Error() }

var (
	errNotFound         = &pageError{http.StatusNotFound, i18n.M("site.error.not_found_title"), i18n.M("site.error.not_found")}
	errMethodNotAllowed = &pageError{http.StatusMethodNotAllowed, i18n.M("error.title.method_not_allowed"), i18n.M("error.method_not_allowed")}
	errCrossOrigin      = &pageError{http.StatusForbidden, i18n.M("error.title.forbidden"), i18n.M("error.cross_origin")}
	errTooMany          = &pageError{http.StatusTooManyRequests, i18n.M("site.error.too_many_title"), i18n.M("site.error.too_many")}
	errSiteOff          = &pageError{http.StatusNotFound, i18n.M("site.error.off_title"), i18n.M("site.error.off")}
	errRefused          = &pageError{http.StatusBadRequest, i18n.M("error.title.bad_request"), i18n.M("site.error.refused")}
	errUnreadable       = &pageError{http.StatusBadRequest, i18n.M("error.title.bad_request"), i18n.M("form.unreadable")}
	errTooLarge         = &pageError{http.StatusRequestEntityTooLarge, i18n.M("guard.title.too_large"), i18n.M("guard.error.too_large")}
	errAbandoned        = &pageError{http.StatusBadRequest, i18n.M("error.title.bad_request"), i18n.M("guard.error.abandoned")}
	errInternal         = &pageError{http.StatusInternalServerError, i18n.M("error.title.internal"), i18n.M("error.internal")}
)

// errStorageFull answers a write refused for a full disk (db/storage.go): nothing was written,
// reads go on. The status and Retry-After are the API's and the admin's (507); the words are
// for a customer.
var errStorageFull = &pageError{http.StatusInsufficientStorage, i18n.M("site.error.full_title"), i18n.M("site.error.full")}

// repeatedField refuses a form that sent a field more than once (middleware.ReadForm).
func repeatedField(name string) *pageError {
	return &pageError{http.StatusBadRequest, i18n.M("error.title.bad_request"), i18n.M("form.repeated", "field", name)}
}

// fromFail is the page for each code of the domain's refusals (app/fail): the domain's own
// words when it has them in the catalogs, else what the code means to a visitor. An internal
// error (no code) has none.
func fromFail(f *fail.Error) *pageError {
	switch f.Code {
	case fail.CodeNotFound:
		return errNotFound
	case fail.CodeInvalid:
		return &pageError{http.StatusBadRequest, i18n.M("error.title.bad_request"), orMsg(f.Msg, i18n.M("site.error.refused"))}
	case fail.CodeConflict:
		return &pageError{http.StatusConflict, i18n.M("error.title.other"), i18n.M("site.error.conflict")}
	case fail.CodeForbidden:
		return &pageError{http.StatusForbidden, i18n.M("error.title.forbidden"), orMsg(f.Msg, i18n.M("site.error.refused"))}
	}
	return nil
}

// orMsg is m, or else the general words.
func orMsg(m, general i18n.Msg) i18n.Msg {
	if m.Key != "" {
		return m
	}
	return general
}

// renderError is the one place errors become pages of the booking site.
func (s *Site) renderError(w http.ResponseWriter, r *http.Request, err error) {
	var pe *pageError
	f, refused := fail.As(err)
	switch {
	case errors.As(err, &pe):
	case refused && fromFail(f) != nil:
		pe = fromFail(f)
	case db.IsFull(err):
		s.db.NoteWriteError(err)
		w.Header().Set("Retry-After", "60")
		pe = errStorageFull
	case errors.Is(err, context.Canceled) && r.Context().Err() != nil:
		// The client went away while we worked: nothing of ours failed, and nobody reads
		// the answer.
		s.log.InfoContext(r.Context(), "booking site: request abandoned by the client", slog.String("path", r.URL.Path),
			slog.String("request_id", middleware.RequestID(r.Context())))
		pe = errAbandoned
	default:
		s.log.ErrorContext(r.Context(), "booking site", slog.String("path", r.URL.Path), slog.Any("err", err),
			slog.String("request_id", middleware.RequestID(r.Context())))
		pe = errInternal
	}
	p := i18n.From(r.Context())
	page := s.page(r, p.Msg(pe.title))
	v := ui.SiteMessageView{Message: p.Msg(pe.msg)}
	if c := configFrom(r.Context()); c != nil && c.settings.Enabled && pe != errSiteOff && pe != errRefused {
		v.Link, v.LinkText = "/book", p.T("site.error.start_over")
	}
	s.render(w, r, pe.status, ui.SiteMessage(page, v))
}

// render writes a page whole, or a clean 500 when it fails to render (errpage.Pages.Render,
// the admin's too).
func (s *Site) render(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	errpage.Pages{DB: s.db, Log: s.log, Name: "booking site"}.Render(w, r, status, c)
}

// page is the layout's model: the business's name, logo and colours.
func (s *Site) page(r *http.Request, title string) ui.SitePage {
	p := ui.SitePage{Title: title, Languages: languageLinks(r, i18n.From(r.Context()).Lang())}
	c := configFrom(r.Context())
	if c == nil {
		return p
	}
	p.Business = c.name()
	v := strconv.FormatInt(c.settings.UpdatedAt, 10)
	if c.settings.LogoType != "" {
		p.LogoURL = "/book/logo?v=" + v
	}
	p.ThemeURL = "/book/theme.css?v=" + v
	return p
}

// seeOther ends a successful POST (post-redirect-get).
func seeOther(w http.ResponseWriter, r *http.Request, to string) {
	http.Redirect(w, r, to, http.StatusSeeOther)
}
