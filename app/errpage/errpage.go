// Package errpage is the HTML error answer the owner's pages (app/admin) and the customer's
// link pages (app/customer) share: the errors a reader may see, the table that shows each code
// of the domain's refusals (app/fail) as a page, and the writing of a page whole or not at all.
package errpage

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"

	"github.com/a-h/templ"

	"frontdesk/app/fail"
	"frontdesk/app/middleware"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Error is an error the reader may see: a status and a sentence (a catalog message). Every
// other error is logged and shown as a generic 500.
type Error struct {
	Status int
	Msg    i18n.Msg
}

func (e *Error) Error() string { return e.Msg.Error() }

// The pages every surface of this kind answers alike.
var (
	NotFound         = &Error{http.StatusNotFound, i18n.M("error.not_found")}
	MethodNotAllowed = &Error{http.StatusMethodNotAllowed, i18n.M("error.method_not_allowed")}
	CrossOrigin      = &Error{http.StatusForbidden, i18n.M("error.cross_origin")}
	Internal         = &Error{http.StatusInternalServerError, i18n.M("error.internal")}
	FormUnreadable   = &Error{http.StatusBadRequest, i18n.M("form.unreadable")}
	Abandoned        = &Error{http.StatusBadRequest, i18n.M("guard.error.abandoned")}
	BodyTooLarge     = &Error{http.StatusRequestEntityTooLarge, i18n.M("guard.error.too_large")}
	StorageFull      = &Error{http.StatusInsufficientStorage, i18n.M("guard.error.storage_full")}
)

// FromFail is the page for each code of the shared vocabulary: its status, and the domain's own
// words when it has them in the catalogs, else what the code means. An internal error (no
// code) has none: the caller logs it.
func FromFail(f *fail.Error) *Error {
	switch f.Code {
	case fail.CodeNotFound:
		return NotFound
	case fail.CodeInvalid:
		return &Error{http.StatusBadRequest, orMsg(f.Msg, i18n.M("error.invalid"))}
	case fail.CodeConflict:
		return &Error{http.StatusConflict, i18n.M("error.conflict")}
	case fail.CodeForbidden:
		return &Error{http.StatusForbidden, orMsg(f.Msg, i18n.M("error.forbidden"))}
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

// Pages writes the pages of one surface.
type Pages struct {
	DB  *db.DB
	Log *slog.Logger
	// Name says in the log which surface answered ("admin", "customer page").
	Name string
}

// Error is the one place an error becomes an HTML answer of the surface. layout is the page
// model of the surface for the request, given the page's title.
func (p Pages) Error(w http.ResponseWriter, r *http.Request, err error, layout func(title string) ui.Page) {
	var pe *Error
	f, refused := fail.As(err)
	switch {
	case errors.As(err, &pe):
	case refused && FromFail(f) != nil:
		pe = FromFail(f)
	case db.IsFull(err):
		p.DB.NoteWriteError(err)
		pe = StorageFull
	case errors.Is(err, context.Canceled) && r.Context().Err() != nil:
		// The client went away (or its body broke off) while we worked: nothing of ours
		// failed, and nobody reads the answer.
		p.Log.InfoContext(r.Context(), p.Name+": request abandoned by the client", slog.String("path", r.URL.Path),
			slog.String("request_id", middleware.RequestID(r.Context())))
		pe = Abandoned
	default:
		p.Log.ErrorContext(r.Context(), p.Name, slog.String("path", r.URL.Path), slog.Any("err", err),
			slog.String("request_id", middleware.RequestID(r.Context())))
		pe = Internal
	}
	pr := i18n.From(r.Context())
	p.Render(w, r, pe.Status, ui.ErrorPage(layout(pr.Msg(ui.StatusTitle(pe.Status))), pe.Status, pr.Msg(pe.Msg)))
}

// Render writes a page. It renders into a buffer first, so a failing component gives a clean
// 500 instead of half a page. The page is rendered even when the request's context is already
// cancelled (a body that broke off cancels it): rendering to memory is cheap, and the answer
// may still reach a client that only stopped sending.
func (p Pages) Render(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	var buf bytes.Buffer
	if err := c.Render(context.WithoutCancel(r.Context()), &buf); err != nil {
		p.Log.ErrorContext(r.Context(), p.Name+" render", slog.String("path", r.URL.Path), slog.Any("err", err))
		http.Error(w, i18n.From(r.Context()).Msg(Internal.Msg), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}
