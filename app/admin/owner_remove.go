package admin

import (
	"errors"
	"net/http"

	"frontdesk/app/errpage"
	"frontdesk/app/owner"
	"frontdesk/app/staff"
	"frontdesk/ui"
)

// Removing an owner (docs/security.md "Removing an owner"): never the last one; owners removing themselves confirm it
// twice (the page, and a tick that they will be signed out); the removed owner's sessions end.

func (a *Admin) confirmRemoveOwner(w http.ResponseWriter, r *http.Request) {
	o, self, err := a.findOwner(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.showRemoveOwner(w, r, http.StatusOK, o, self, ui.NewForm(nil))
}

func (a *Admin) showRemoveOwner(w http.ResponseWriter, r *http.Request, status int, o owner.Owner, self bool, f *ui.Form) {
	v := ui.RemoveOwnerView{ID: o.ID, Email: o.Email, Self: self, Form: f}
	a.render(w, r, status, ui.RemoveOwnerPage(a.page(r, translate(r, "owners.remove.title")), v))
}

func (a *Admin) removeOwner(w http.ResponseWriter, r *http.Request) {
	o, self, err := a.findOwner(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if self && !f.Checked("confirm_self", "1") {
		f.SetError("confirm_self", translate(r, "owners.remove.self_required"))
		a.showRemoveOwner(w, r, http.StatusUnprocessableEntity, o, self, f)
		return
	}
	_, err = owner.Remove(r.Context(), a.db, o.ID)
	if errors.Is(err, owner.ErrLastOwner) {
		f.Message = translate(r, "owners.remove.last")
		a.showRemoveOwner(w, r, http.StatusConflict, o, self, f)
		return
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.log.InfoContext(r.Context(), "owner removed", "owner", o.ID)
	if self {
		a.logout(w, r)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "owners.remove.done", "email", o.Email))
	seeOther(w, r, "/settings/team")
}

// findOwner reads the {id} owner and whether it is the signed-in one.
func (a *Admin) findOwner(r *http.Request) (owner.Owner, bool, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return owner.Owner{}, false, err
	}
	o, err := owner.Get(r.Context(), a.db, id)
	if errors.Is(err, owner.ErrNotFound) {
		return o, false, errpage.NotFound
	}
	if err == nil && staff.RoleOf(o) == staff.RoleOwner && !can(r.Context(), staff.Owners) {
		return o, false, errForbidden // a manager removes no owner
	}
	me, _ := ownerFrom(r.Context())
	return o, err == nil && o.ID == me.ID, err
}
