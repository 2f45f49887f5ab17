package admin

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"frontdesk/app/clients"
	"frontdesk/app/errpage"
	"frontdesk/app/messages"
	"frontdesk/app/resource"
	"frontdesk/app/staff"
	"frontdesk/db"
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
	channel, problems := a.checkClientPhone(r, f, "")
	in := form.input(r.Context(), f, nil)
	if !f.OK() || !a.phoneProblems(r, f, in, problems) {
		a.showClientForm(w, r, http.StatusUnprocessableEntity, form, ui.ClientFormView{Form: f})
		return
	}
	var c resource.Client
	err = a.db.InTx(r.Context(), func(q *db.Queries) error {
		var err error
		if c, err = clients.Create(db.WithTx(r.Context(), q), a.db, a.now(), in, clients.Options{RequireMandatory: true}); err != nil {
			return err
		}
		return messages.SetClientChannel(r.Context(), q, c.ID, channel, db.Millis(a.now()))
	})
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
	channel, err := messages.ClientChannel(r.Context(), a.db.R, id)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v.Form.Set("message_channel", channel)
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
	channel, problems := a.checkClientPhone(r, f, deref(stored.Phone))
	in := form.input(r.Context(), f, storedAttributes(stored))
	if !f.OK() || !a.phoneProblems(r, f, in, problems) {
		a.showClientForm(w, r, http.StatusUnprocessableEntity, form, v)
		return
	}
	var c resource.Client
	err = a.db.InTx(ctx, func(q *db.Queries) error {
		var err error
		if c, err = clients.Update(db.WithTx(ctx, q), a.db, a.now(), id, in, clients.Options{RequireMandatory: true}); err != nil {
			return err
		}
		return messages.SetClientChannel(ctx, q, id, channel, db.Millis(a.now()))
	})
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
	v.Channels = channelOptions(r)
	if v.Form.Get("message_channel") == "" {
		v.Form.Set("message_channel", messages.ChannelEmail)
	}
	if v.ID != 0 && v.Form.Error("phone") == "" {
		switch clients.TextableReason(v.Form.Get("phone")) {
		case clients.PhoneInvalid:
			v.PhoneNote = translate(r, "clients.phone.not_textable")
		case clients.PhoneLandline:
			v.PhoneNote = translate(r, "clients.phone.landline")
		}
	}
	if v.ID != 0 { // session packs (class_sessions.go)
		packs, err := a.clientPacks(r.Context(), r, v.ID, nil)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		v.Packs = &packs
		if can(r.Context(), staff.ClientsEdit) {
			if v.Deposit, err = a.clientDeposit(r, v.ID, nil); err != nil {
				a.renderError(w, r, err)
				return
			}
		}
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

// channelOptions are the channels a client may prefer for their messages.
func channelOptions(r *http.Request) []ui.Option {
	return []ui.Option{
		{Value: messages.ChannelEmail, Label: translate(r, "clients.channel.email")},
		{Value: messages.ChannelSMS, Label: translate(r, "clients.channel.sms")},
		{Value: messages.ChannelWhatsApp, Label: translate(r, "clients.channel.whatsapp")},
	}
}

// checkClientPhone reads the form's phone as the booking site does (clients.ParsePhone, in the
// client's phone country or else the business's) and puts it in E.164; a number that is not a
// real one is refused with an example. A number left as it was stored is kept as it is: /v3
// accepts any number in E.164 shape, and the form must not refuse to save the rest of such a
// client (the page says the number cannot receive texts). It returns the preferred channel,
// refused when texts are asked for a number that cannot receive them. problems maps the fields
// refused to why (phoneProblems shows them).
func (a *Admin) checkClientPhone(r *http.Request, f *ui.Form, stored string) (string, map[string]string) {
	problems := map[string]string{}
	channel := f.Get("message_channel")
	if channel == "" {
		channel = messages.ChannelEmail
	}
	if !messages.ValidClientChannel(channel) {
		problems["message_channel"] = translate(r, "clients.channel.invalid")
		return channel, problems
	}
	phone := f.Get("phone")
	if phone != "" && phone != stored {
		region := f.Get("phone_country")
		if region == "" {
			region = a.businessCountry(r.Context())
		}
		e164, err := clients.ParsePhone(phone, region)
		if err != nil {
			var pe *clients.PhoneError
			errors.As(err, &pe)
			problems["phone"] = phoneError(r, pe)
			return channel, problems
		}
		f.Set("phone", e164)
		phone = e164
	}
	if channel != messages.ChannelEmail && clients.TextableReason(phone) != "" {
		problems["message_channel"] = translate(r, "clients.channel.needs_mobile")
	}
	return channel, problems
}

// phoneProblems puts checkClientPhone's refusals on the form together with everything else the
// client's rules refuse in in (so one submit shows every mistake); it reports whether there
// were none.
func (a *Admin) phoneProblems(r *http.Request, f *ui.Form, in clients.Input, problems map[string]string) bool {
	if len(problems) == 0 {
		return true
	}
	for field, msg := range problems { // first: a field's first error is the one shown
		f.SetError(field, msg)
	}
	if err := clients.Validate(r.Context(), a.db.R, a.now(), in, clients.Options{RequireMandatory: true}); err != nil {
		clientRefused(r.Context(), f, err)
	}
	return false
}

// businessCountry is the country (ISO 3166-1 alpha-2) of the first active location, where a
// number typed without its country code is read; "" when there is none.
func (a *Admin) businessCountry(ctx context.Context) string {
	c, err := a.db.R.BusinessCountry(ctx)
	if err != nil {
		return ""
	}
	return c
}
