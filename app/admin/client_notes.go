package admin

import (
	"net/http"

	"frontdesk/app/clients"
	"frontdesk/app/staff"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Notes about a client over time, on the client's page (app/clients/notes.go): dated, by whom,
// newest first. Reading them is reading the client (a provider account sees a client's name
// and phone only, so never their notes); adding and deleting them is editing the client
// (docs/roles.md).

// clientNotes puts the client's notes on the story, with the form that adds one when the
// account may.
func (a *Admin) clientNotes(r *http.Request, s *ui.ClientStory) error {
	ctx := r.Context()
	rows, err := a.db.R.ListClientNotes(ctx, s.ClientID)
	if err != nil {
		return err
	}
	zone, err := a.businessZone(ctx)
	if err != nil {
		return err
	}
	p := i18n.From(ctx)
	for _, n := range rows {
		s.Notes = append(s.Notes, ui.StoryNote{ID: n.ID, When: p.DateTimeOnce(localTime(n.CreatedAt, zone)), By: n.AuthorLabel, Body: n.Body})
	}
	if can(ctx, staff.ClientsEdit) && s.NoteForm == nil {
		s.NoteForm = ui.NewForm(nil)
	}
	return nil
}

func (a *Admin) addClientNote(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	ctx := r.Context()
	me, _ := ownerFrom(ctx)
	by := clients.Author{ID: me.ID, Label: me.Name}
	if by.Label == "" {
		by.Label = me.Email
	}
	_, err = clients.AddNote(ctx, a.db, a.now(), id, f.Raw("body"), by)
	if err != nil {
		if !clientRefused(ctx, f, err) {
			a.renderError(w, r, err)
			return
		}
		a.showClientWithNote(w, r, id, f)
		return
	}
	a.flash(ctx, ui.FlashSuccess, translate(r, "clients.notes.added"))
	seeOther(w, r, ui.ClientURL(id)+"#notes")
}

func (a *Admin) deleteClientNote(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	noteID, err := pathID(r, "note")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	ctx := r.Context()
	if err := clients.DeleteNote(ctx, a.db, a.now(), id, noteID); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(ctx, ui.FlashSuccess, translate(r, "clients.notes.deleted"))
	seeOther(w, r, ui.ClientURL(id)+"#notes")
}

// showClientWithNote answers a refused note: the client's page again (422), the note as typed
// with what is wrong beside it.
func (a *Admin) showClientWithNote(w http.ResponseWriter, r *http.Request, id int64, note *ui.Form) {
	ctx := r.Context()
	c, err := clients.Load(ctx, a.db.R, id)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	form, err := a.loadClientForm(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.ClientFormView{ID: id, Name: clientName(c.FirstName, nullText(c.LastName)), Active: c.Active, Form: form.fill(c),
		Story: &ui.ClientStory{NoteForm: note}}
	a.showClientForm(w, r, http.StatusUnprocessableEntity, form, v)
}
