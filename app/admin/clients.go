package admin

import (
	"database/sql"
	"errors"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"frontdesk/app/clients"
	"frontdesk/app/errpage"
	"frontdesk/app/staff"
	"frontdesk/ui"
)

// Clients: the list with its search, create, edit (with the custom attribute values the
// templates call for), deactivate and reactivate. Every write goes through app/clients, which
// validates, stores and records client.created / client.updated in one transaction; this file
// only moves values between the form and clients.Input (clients_form.go).

const clientsPerPage = 25

func (a *Admin) listClients(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	search := ui.NewForm(nil)
	text := searchText(q.Get("q"))
	search.Set("q", text)
	status := q.Get("status")
	active := sql.NullBool{Bool: true, Valid: true}
	switch status {
	case "inactive":
		active.Bool = false
	case "all":
		active.Valid = false
	default:
		status = "active"
	}
	search.Set("status", status)
	page := pageNumber(q)
	found, total, err := a.findClients(r.Context(), text, active, clientsPerPage, (page-1)*clientsPerPage)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.ClientsView{Search: search, Pager: listPager(r.URL, page, clientsPerPage, total, translate(r, "pager.clients", "count", total))}
	v.Pager.CSV = csvLink(r.Context(), "/clients/csv", q)
	for _, c := range found {
		v.Rows = append(v.Rows, ui.ClientRow{ID: c.ID, Name: c.name(), Email: c.Email.String, Phone: c.Phone.String,
			RecordNumber: c.Record.String, Active: c.Active})
	}
	a.render(w, r, http.StatusOK, ui.ClientsPage(a.page(r, translate(r, "clients.title")), v))
}

func (a *Admin) newClient(w http.ResponseWriter, r *http.Request) {
	form, err := a.loadClientForm(r.Context())
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f := ui.NewForm(nil)
	f.Set("gender", "0")
	a.showClientForm(w, r, http.StatusOK, form, ui.ClientFormView{Form: f})
}

func (a *Admin) createClient(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	form, err := a.loadClientForm(r.Context())
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	in := form.input(r.Context(), f, nil)
	if !f.OK() {
		a.showClientForm(w, r, http.StatusUnprocessableEntity, form, ui.ClientFormView{Form: f})
		return
	}
	c, err := clients.Create(r.Context(), a.db, a.now(), in, clients.Options{RequireMandatory: true})
	if clientRefused(r.Context(), f, err) {
		a.showClientForm(w, r, http.StatusUnprocessableEntity, form, ui.ClientFormView{Form: f})
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "clients.created", "name", clientName(c.FirstName, nullText(c.LastName))))
	seeOther(w, r, ui.ClientURL(c.ID))
}

func (a *Admin) showClient(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if ok, err := a.ownsClient(r.Context(), id); err != nil || !ok {
		a.renderError(w, r, firstErr(err, errpage.NotFound))
		return
	}
	c, err := clients.Load(r.Context(), a.db.R, id)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if scopedProvider(r.Context()) != 0 { // a provider: the name and phone, nothing more
		v := ui.ProviderClientView{Name: clientName(c.FirstName, nullText(c.LastName)), BookingsURL: "/bookings?client=" + idText(id)}
		if c.Phone != nil {
			v.Phone = *c.Phone
		}
		a.render(w, r, http.StatusOK, ui.ProviderClientPage(a.page(r, v.Name), v))
		return
	}
	form, err := a.loadClientForm(r.Context())
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.ClientFormView{ID: id, Name: clientName(c.FirstName, nullText(c.LastName)), Active: c.Active, Form: form.fill(c)}
	a.showClientForm(w, r, http.StatusOK, form, v)
}

func (a *Admin) updateClient(w http.ResponseWriter, r *http.Request) {
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
	stored, err := clients.Load(ctx, a.db.R, id)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	form, err := a.loadClientForm(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.ClientFormView{ID: id, Name: clientName(stored.FirstName, nullText(stored.LastName)), Active: stored.Active, Form: f}
	in := form.input(r.Context(), f, storedAttributes(stored))
	if !f.OK() {
		a.showClientForm(w, r, http.StatusUnprocessableEntity, form, v)
		return
	}
	c, err := clients.Update(ctx, a.db, a.now(), id, in, clients.Options{RequireMandatory: true})
	if clientRefused(r.Context(), f, err) {
		a.showClientForm(w, r, http.StatusUnprocessableEntity, form, v)
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(ctx, ui.FlashSuccess, translate(r, "clients.saved", "name", clientName(c.FirstName, nullText(c.LastName))))
	seeOther(w, r, ui.ClientURL(id))
}

// showClientForm renders the client form with the custom attribute inputs.
func (a *Admin) showClientForm(w http.ResponseWriter, r *http.Request, status int, form clientForm, v ui.ClientFormView) {
	v.Attributes = form.fields(r.Context())
	if v.ID != 0 { // session packs (class_sessions.go)
		packs, err := a.clientPacks(r.Context(), r, v.ID, nil)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		v.Packs = &packs
		if v.Activity, err = a.entityActivity(r, "client", v.ID); err != nil {
			a.renderError(w, r, err)
			return
		}
		v.DataActions = can(r.Context(), staff.Data)
		if can(r.Context(), staff.ClientsEdit) { // a provider's account sees name and phone only
			story, err := a.clientStory(r, v.ID)
			if err != nil {
				a.renderError(w, r, err)
				return
			}
			if v.Story != nil && v.Story.NoteForm != nil { // a note refused: as it was sent
				story.NoteForm = v.Story.NoteForm
			}
			v.Story = &story
		}
	}
	title := translate(r, "clients.new")
	if v.ID != 0 {
		title = v.Name
	}
	a.render(w, r, status, ui.ClientFormPage(a.page(r, title), v))
}

func (a *Admin) confirmDeactivateClient(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	c, err := clients.Load(r.Context(), a.db.R, id)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if !c.Active {
		a.flash(r.Context(), ui.FlashInfo, translate(r, "clients.already_deactivated"))
		seeOther(w, r, ui.ClientURL(id))
		return
	}
	a.render(w, r, http.StatusOK, ui.DeactivateClientPage(a.page(r, translate(r, "clients.deactivate.title")), id, clientName(c.FirstName, nullText(c.LastName))))
}

func (a *Admin) deactivateClient(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	c, err := clients.Deactivate(r.Context(), a.db, a.now(), id)
	switch {
	case errors.Is(err, clients.ErrAlreadyDeactivated):
		a.flash(r.Context(), ui.FlashInfo, translate(r, "clients.already_deactivated"))
	case err != nil:
		a.renderError(w, r, err)
		return
	default:
		a.flash(r.Context(), ui.FlashSuccess, translate(r, "clients.deactivated", "name", clientName(c.FirstName, nullText(c.LastName))))
	}
	seeOther(w, r, ui.ClientURL(id))
}

// reactivateClient undoes a deactivation. It does not ask for mandatory attributes added since:
// bringing a client back should not depend on filling in the whole form.
func (a *Admin) reactivateClient(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	c, err := clients.Update(r.Context(), a.db, a.now(), id, clients.Input{Active: clients.Value(true)}, clients.Options{})
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "clients.reactivated", "name", clientName(c.FirstName, nullText(c.LastName))))
	seeOther(w, r, ui.ClientURL(id))
}

// asSentence turns a validation message ("must be a valid email address") into one for a
// person to read.
func asSentence(msg string) string {
	if msg == "" {
		return msg
	}
	r, n := utf8.DecodeRuneInString(msg)
	msg = string(unicode.ToUpper(r)) + msg[n:]
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return msg
}

func nullText(s *string) sql.NullString {
	if s == nil {
		return sql.NullString{}
	}
	return sql.NullString{String: *s, Valid: true}
}
