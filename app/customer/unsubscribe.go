package customer

import (
	"errors"
	"net/http"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/errpage"
	"frontdesk/app/messages"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// The reminder opt-out page a reminder links to, and the target of its List-Unsubscribe
// header. It is public: the token in the URL is the credential (app/messages/unsubscribe.go).
// Opening the link changes nothing (link checkers open links); a POST does — the button, or a
// mail client's one-click request (RFC 8058), which carries no Origin and so passes the
// cross-origin check like any non-browser request.

func (c *Customer) unsubscribeView(r *http.Request, optedOut bool) (ui.UnsubscribeView, error) {
	biz, err := c.db.R.MessageBusiness(r.Context())
	if err != nil {
		return ui.UnsubscribeView{}, err
	}
	return ui.UnsubscribeView{Business: biz.Name, OptedOut: optedOut, Action: r.URL.Path}, nil
}

func (c *Customer) showUnsubscribe(w http.ResponseWriter, r *http.Request) {
	out, err := c.msgs.Subscription(r.Context(), chi.URLParam(r, "token"))
	if errors.Is(err, messages.ErrBadToken) {
		err = errpage.NotFound
	}
	if err != nil {
		c.renderError(w, r, err)
		return
	}
	v, err := c.unsubscribeView(r, out)
	if err != nil {
		c.renderError(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, ui.UnsubscribePage(ui.Page{Title: i18n.T(r.Context(), "messages.unsubscribe.title"), Path: r.URL.Path}, v))
}

func (c *Customer) unsubscribe(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		c.renderError(w, r, err)
		return
	}
	resume := f.Get("action") == "resume"
	err = c.msgs.SetReminders(r.Context(), chi.URLParam(r, "token"), resume)
	if errors.Is(err, messages.ErrBadToken) {
		err = errpage.NotFound
	}
	if err != nil {
		c.renderError(w, r, err)
		return
	}
	v, err := c.unsubscribeView(r, !resume)
	if err != nil {
		c.renderError(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, ui.UnsubscribePage(ui.Page{Title: i18n.T(r.Context(), "messages.unsubscribe.title"), Path: r.URL.Path}, v))
}
