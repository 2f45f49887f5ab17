package admin

import (
	"errors"
	"log/slog"
	"net/http"

	"frontdesk/app/errpage"
	"frontdesk/app/owner"
	"frontdesk/ui"
)

// The first-run page: on a fresh installation the log prints /setup?token=…; whoever holds
// that token creates the first owner. Without a valid token, or once an owner exists, /setup
// is a plain 404 — nothing tells a stranger that a fresh instance is waiting.

func (a *Admin) showSetup(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("token")
	open, err := owner.SetupOpen(r.Context(), a.db, token)
	if err != nil || !open {
		a.renderError(w, r, firstErr(err, errpage.NotFound))
		return
	}
	a.render(w, r, http.StatusOK, ui.SetupPage(a.page(r, translate(r, "auth.setup.title")), ui.NewForm(nil), token))
}

func (a *Admin) createFirstOwner(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	token := f.Get("token")
	open, err := owner.SetupOpen(r.Context(), a.db, token)
	if err != nil || !open {
		a.renderError(w, r, firstErr(err, errpage.NotFound))
		return
	}
	validateNewCredentials(r, f, "email", "password", "confirm")
	if !f.OK() {
		a.render(w, r, http.StatusUnprocessableEntity, ui.SetupPage(a.page(r, translate(r, "auth.setup.title")), f, token))
		return
	}
	o, err := owner.CreateFirst(r.Context(), a.db, token, f.Get("email"), f.Raw("password"), a.now())
	if errors.Is(err, owner.ErrSetupClosed) {
		err = errpage.NotFound
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if err := a.signIn(r.Context(), o); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.log.InfoContext(r.Context(), "first owner created; setup closed", slog.Int64("owner_id", o.ID))
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "auth.setup.welcome"))
	seeOther(w, r, "/")
}

// validateNewCredentials checks an email field and a password with its confirmation (confirm
// may be "" for forms without one).
func validateNewCredentials(r *http.Request, f *ui.Form, email, password, confirm string) {
	if email != "" {
		if _, err := owner.NormalizeEmail(f.Get(email)); err != nil {
			f.SetError(email, translate(r, "auth.email.error"))
		}
	}
	switch err := owner.ValidatePassword(f.Raw(password)); {
	case errors.Is(err, owner.ErrPasswordTooShort):
		f.SetError(password, translate(r, "auth.password.too_short", "min", owner.MinPasswordLen))
	case err != nil:
		f.SetError(password, translate(r, "auth.password.too_long", "max", owner.MaxPasswordLen))
	}
	if confirm != "" && f.Raw(confirm) != f.Raw(password) {
		f.SetError(confirm, translate(r, "auth.password.differ"))
	}
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
