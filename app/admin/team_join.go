package admin

import (
	"errors"
	"net/http"

	"frontdesk/app/errpage"
	"frontdesk/app/owner"
	"frontdesk/app/staff"
	"frontdesk/ui"
)

// An invitation or a password-reset link (/join?token=…, team.go makes them): the token is
// the credential, so a wrong, used or expired one is a plain 404 that tells nothing more.
// Accepting sets the password (and, for an invitation, the name) and signs in.

func (a *Admin) showJoin(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("token")
	l, err := staff.OpenLink(r.Context(), a.db, token, a.now())
	if err != nil {
		a.renderError(w, r, joinError(err))
		return
	}
	a.renderJoin(w, r, http.StatusOK, l, token, ui.NewForm(nil))
}

func (a *Admin) renderJoin(w http.ResponseWriter, r *http.Request, status int, l staff.Link, token string, f *ui.Form) {
	title := translate(r, "team.join.title")
	if l.Purpose == staff.PurposeReset {
		title = translate(r, "team.reset.title")
	}
	v := ui.JoinView{Token: token, Email: l.Email, Invite: l.Purpose == staff.PurposeInvite, Form: f}
	a.render(w, r, status, ui.JoinPage(a.page(r, title), v))
}

func (a *Admin) join(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	ctx := r.Context()
	token := f.Raw("token")
	l, err := staff.OpenLink(ctx, a.db, token, a.now())
	if err != nil {
		a.renderError(w, r, joinError(err))
		return
	}
	validateNewCredentials(r, f, "", "password", "confirm")
	if l.Purpose == staff.PurposeInvite && f.Get("name") == "" {
		f.SetError("name", translate(r, "team.join.name.missing"))
	}
	if !f.OK() {
		a.renderJoin(w, r, http.StatusUnprocessableEntity, l, token, f)
		return
	}
	acc, err := staff.Accept(ctx, a.db, token, f.Get("name"), f.Raw("password"), a.now())
	switch {
	case errors.Is(err, staff.ErrNameTooLong):
		f.SetError("name", translate(r, "team.join.name.long", "max", staff.MaxNameLen))
		a.renderJoin(w, r, http.StatusUnprocessableEntity, l, token, f)
		return
	case errors.Is(err, staff.ErrEmailTaken):
		f.Message = translate(r, "team.error.email_taken")
		a.renderJoin(w, r, http.StatusConflict, l, token, f)
		return
	case err != nil:
		a.renderError(w, r, joinError(err))
		return
	}
	if acc.Disabled {
		a.flash(ctx, ui.FlashInfo, translate(r, "auth.signin.disabled"))
		seeOther(w, r, "/login")
		return
	}
	if err := a.signIn(ctx, acc); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.log.InfoContext(ctx, "staff link used", "account", acc.ID, "purpose", l.Purpose)
	seeOther(w, r, "/")
}

func joinError(err error) error {
	if errors.Is(err, staff.ErrNotFound) || errors.Is(err, owner.ErrNotFound) {
		return errpage.NotFound
	}
	return err
}
