package admin

import (
	"errors"
	"net/http"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/messages"
	"frontdesk/ui"
)

// The reminder opt-out page a reminder links to, and the target of its List-Unsubscribe
// header. It is public: the token in the URL is the credential (messages/unsubscribe.go).
// Opening the link changes nothing (link checkers open links); a POST does — the button, or a
// mail client's one-click request (RFC 8058), which carries no Origin and so passes the
// cross-origin check like any non-browser request.

func (a *Admin) unsubscribeView(r *http.Request, optedOut bool) (ui.UnsubscribeView, error) {
	biz, err := a.db.R.MessageBusiness(r.Context())
	if err != nil {
		return ui.UnsubscribeView{}, err
	}
	return ui.UnsubscribeView{Business: biz.Name, OptedOut: optedOut, Action: r.URL.Path}, nil
}

func (a *Admin) showUnsubscribe(w http.ResponseWriter, r *http.Request) {
	out, err := a.msgs.Subscription(r.Context(), chi.URLParam(r, "token"))
	if errors.Is(err, messages.ErrBadToken) {
		err = errNotFound
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v, err := a.unsubscribeView(r, out)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.render(w, r, http.StatusOK, ui.UnsubscribePage(ui.Page{Title: translate(r, "messages.unsubscribe.title"), Path: r.URL.Path}, v))
}

func (a *Admin) unsubscribe(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	resume := f.Get("action") == "resume"
	err = a.msgs.SetReminders(r.Context(), chi.URLParam(r, "token"), resume)
	if errors.Is(err, messages.ErrBadToken) {
		err = errNotFound
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v, err := a.unsubscribeView(r, !resume)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.render(w, r, http.StatusOK, ui.UnsubscribePage(ui.Page{Title: translate(r, "messages.unsubscribe.title"), Path: r.URL.Path}, v))
}
