package admin

import (
	"errors"
	"net/http"

	"frontdesk/app/owner"
	"frontdesk/ui"
)

// The owner's own account, and the list of owners.

func (a *Admin) showAccount(w http.ResponseWriter, r *http.Request) {
	a.render(w, r, http.StatusOK, ui.AccountPage(a.page(r, "Your account"), ui.NewForm(nil)))
}

func (a *Admin) changePassword(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	me, _ := ownerFrom(r.Context())
	if f.Raw("current") == "" {
		f.SetError("current", "Enter your current password.")
	}
	validateNewCredentials(f, "", "password", "confirm")
	if f.OK() {
		// A stolen session must not be a way around the sign-in throttle.
		if wait := a.throttle.wait(me.Email, clientIP(r)); wait > 0 {
			f.Message = "Too many wrong passwords. Try again in " + minutes(wait) + "."
		}
	}
	if !f.OK() {
		a.render(w, r, http.StatusUnprocessableEntity, ui.AccountPage(a.page(r, "Your account"), f))
		return
	}
	updated, err := owner.ChangePassword(r.Context(), a.db, me.ID, f.Raw("current"), f.Raw("password"), a.now())
	if errors.Is(err, owner.ErrInvalidCredentials) {
		a.throttle.fail(me.Email, clientIP(r))
		f.SetError("current", "This is not your current password.")
		a.render(w, r, http.StatusUnprocessableEntity, ui.AccountPage(a.page(r, "Your account"), f))
		return
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	// The new stamp signs out every other session; this one continues under a new token.
	if err := a.signIn(r.Context(), updated); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, "Password changed. Any other sessions were signed out.")
	seeOther(w, r, "/account")
}

func (a *Admin) listOwners(w http.ResponseWriter, r *http.Request) {
	a.showOwners(w, r, http.StatusOK, ui.NewForm(nil))
}

func (a *Admin) showOwners(w http.ResponseWriter, r *http.Request, status int, f *ui.Form) {
	owners, err := owner.List(r.Context(), a.db)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	me, _ := ownerFrom(r.Context())
	v := ui.OwnersView{Form: f}
	for _, o := range owners {
		v.Owners = append(v.Owners, ui.OwnerRow{Email: o.Email, Created: o.CreatedAt, You: o.ID == me.ID})
	}
	a.render(w, r, status, ui.OwnersPage(a.page(r, "Owners"), v))
}

func (a *Admin) createOwner(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	validateNewCredentials(f, "email", "password", "")
	if !f.OK() {
		a.showOwners(w, r, http.StatusUnprocessableEntity, f)
		return
	}
	o, err := owner.Create(r.Context(), a.db, f.Get("email"), f.Raw("password"), a.now())
	if errors.Is(err, owner.ErrEmailTaken) {
		f.SetError("email", "There is already an owner with this email.")
		a.showOwners(w, r, http.StatusUnprocessableEntity, f)
		return
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, "Owner "+o.Email+" added. They can sign in now.")
	seeOther(w, r, "/owners")
}
