package admin

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/clients"
	"frontdesk/app/messages"
	"frontdesk/app/replies"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Settings → Messages → Replies: what clients answered to texts and what it did
// (app/replies; docs/messages.md, "Replies"). Settings → Messages → WhatsApp: the Cloud API
// channel (its credentials are the credentials permission's) and the template mapping.

const inboxPerPage = 30

// outcomeKeys name what a reply did: the action when it was done, else the outcome.
var outcomeKeys = map[string]struct{ Key string }{
	replies.ActionConfirm: {Key: "messages.inbox.outcome.confirm"}, replies.ActionCancel: {Key: "messages.inbox.outcome.cancel"},
	replies.ActionStop: {Key: "messages.inbox.outcome.stop"}, replies.OutcomeNoBooking: {Key: "messages.inbox.outcome.no_booking"},
	replies.OutcomeInbox: {Key: "messages.inbox.outcome.inbox"},
}

func (a *Admin) showMessageInbox(w http.ResponseWriter, r *http.Request) {
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	if page < 1 {
		page = 1
	}
	var entries []replies.Entry
	var total int
	err := a.db.ReadTx(r.Context(), func(q *db.Queries) error {
		var err error
		entries, total, err = replies.List(r.Context(), q, inboxPerPage, (page-1)*inboxPerPage)
		return err
	})
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	times, err := a.messageTimes(r.Context())
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	copies, err := a.msgs.ReplyCopies(r.Context())
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	form := ui.NewForm(nil)
	if copies {
		form.Set("copy", "1")
	}
	p := i18n.From(r.Context())
	v := ui.MessageInboxView{Form: form, Total: total}
	for _, e := range entries {
		row := ui.InboxRow{At: e.ReceivedAt, From: e.From, Client: e.ClientName, Text: e.Body,
			Channel: translate(r, "clients.channel."+e.Channel), OutcomeKey: e.Outcome, BookingID: e.BookingID,
			Reply: e.Reply}
		row.When, _ = times.at(e.ReceivedAt, "")
		if e.ClientID != 0 {
			row.ClientHref = "/clients/" + strconv.FormatInt(e.ClientID, 10)
		}
		if e.BookingID != 0 {
			row.BookingHref = "/bookings/" + strconv.FormatInt(e.BookingID, 10)
		}
		switch {
		case e.Outcome == replies.OutcomeDone:
			row.OutcomeKey = e.Action
			row.Outcome = translate(r, outcomeKeys[e.Action].Key)
		case e.Outcome == replies.OutcomeRefused:
			row.Outcome = translate(r, "messages.inbox.outcome.refused", "reason", p.Msg(booking.RestrictedMsg(e.Note)))
		default:
			row.Outcome = translate(r, outcomeKeys[e.Outcome].Key)
		}
		v.Rows = append(v.Rows, row)
	}
	if page > 1 {
		v.PrevHref = "/settings/messages/inbox?" + url.Values{"page": {strconv.Itoa(page - 1)}}.Encode()
	}
	if page*inboxPerPage < total {
		v.NextHref = "/settings/messages/inbox?" + url.Values{"page": {strconv.Itoa(page + 1)}}.Encode()
	}
	a.render(w, r, http.StatusOK, ui.MessageInboxPage(a.page(r, translate(r, "messages.inbox.title")), v))
}

// saveReplyCopies switches the owner's copies of clients' messages by email on or off.
func (a *Admin) saveReplyCopies(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if err := a.msgs.SaveReplyCopies(r.Context(), f.Checked("copy", "1")); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "messages.saved"))
	seeOther(w, r, "/settings/messages/inbox")
}

func (a *Admin) showMessageWhatsApp(w http.ResponseWriter, r *http.Request) {
	a.renderMessageWhatsApp(w, r, http.StatusOK, nil, nil, nil)
}

// renderMessageWhatsApp renders the page with the forms as given (nil: from the stored
// settings, and an empty template form).
func (a *Admin) renderMessageWhatsApp(w http.ResponseWriter, r *http.Request, status int, form, tpl, test *ui.Form) {
	s, err := a.msgs.WhatsAppSettings(r.Context())
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if form == nil {
		form = ui.NewForm(nil)
		if s.Enabled {
			form.Set("enabled", "1")
		}
		form.Set("phone_number_id", s.PhoneNumberID)
		form.Set("verify_token", s.VerifyToken)
	}
	if tpl == nil {
		tpl = ui.NewForm(nil)
	}
	if test == nil {
		test = ui.NewForm(nil)
	}
	v := ui.MessageWhatsAppView{Form: form, Template: tpl, Test: test, Ready: s.Ready, HasToken: s.HasAccessToken, HasSecret: s.HasAppSecret,
		WebhookURL: a.links.URL("/whatsapp/webhook", nil)}
	langName := map[string]string{}
	for _, l := range i18n.Languages() {
		langName[l.Code] = l.Name
		v.Languages = append(v.Languages, ui.Option{Value: l.Code, Label: l.Name})
	}
	for _, k := range messages.Kinds {
		v.Kinds = append(v.Kinds, ui.Option{Value: string(k), Label: kindLabel(r, k)})
	}
	for _, t := range s.Templates {
		v.Rows = append(v.Rows, ui.WhatsAppTemplateRow{Kind: string(t.Kind), Language: t.Language, KindLabel: kindLabel(r, t.Kind),
			LangName: langName[t.Language], Name: t.Name, Lang: t.Lang, Params: strings.Join(t.Params, ", "), Buttons: t.Buttons,
			RemoveAction: "/settings/messages/whatsapp/templates"})
	}
	for _, fn := range messages.FieldNames {
		v.Fields = append(v.Fields, ui.FieldHelp{Name: fn.Name, Help: translate(r, fn.Key)})
	}
	a.render(w, r, status, ui.MessageWhatsAppPage(a.page(r, translate(r, "messages.whatsapp.title")), v))
}

func (a *Admin) saveMessageWhatsApp(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	in := messages.WhatsAppSettingsInput{Enabled: f.Checked("enabled", "1"), PhoneNumberID: f.Get("phone_number_id"),
		VerifyToken: f.Get("verify_token")}
	if v := f.Raw("access_token"); v != "" {
		in.AccessToken = &v
	}
	if v := f.Raw("app_secret"); v != "" {
		in.AppSecret = &v
	}
	err = a.msgs.SaveWhatsAppSettings(r.Context(), in)
	if fieldErrors(r, f, err) {
		f.Set("access_token", "")
		f.Set("app_secret", "")
		a.renderMessageWhatsApp(w, r, http.StatusUnprocessableEntity, f, nil, nil)
		return
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "messages.saved"))
	seeOther(w, r, "/settings/messages/whatsapp")
}

// sendTestWhatsApp sends Meta's sample template now and says what the Cloud API answered.
func (a *Admin) sendTestWhatsApp(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	refuse := func() { a.renderMessageWhatsApp(w, r, http.StatusUnprocessableEntity, nil, nil, f) }
	number, err := clients.ParsePhone(f.Get("to"), a.businessCountry(r.Context()))
	if err != nil {
		var pe *clients.PhoneError
		errors.As(err, &pe)
		f.SetError("to", phoneError(r, pe))
		refuse()
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 45*time.Second)
	defer cancel()
	reply, err := a.msgs.SendTestWhatsApp(ctx, number)
	switch {
	case errors.Is(err, messages.ErrTextsNotSetUp):
		f.Message = translate(r, "messages.whatsapp.test.not_set_up")
		refuse()
		return
	case errors.Is(err, messages.ErrNumberNotAllowed):
		f.SetError("to", translate(r, "messages.texts.test.not_allowed"))
		refuse()
		return
	case err != nil:
		// Meta's refusal is the owner's business: it tells what to fix.
		f.Message = translate(r, "messages.whatsapp.test.failed", "error", err.Error())
		refuse()
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "messages.whatsapp.test.sent", "to", number, "reply", reply))
	seeOther(w, r, "/settings/messages/whatsapp")
}

// saveWhatsAppTemplate maps (or, with no name, unmaps) a message kind in a language.
func (a *Admin) saveWhatsAppTemplate(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	t := messages.WhatsAppTemplate{Kind: messages.Kind(f.Get("kind")), Language: f.Get("language"), Name: f.Get("template_name"),
		Lang: f.Get("template_lang"), Params: strings.Split(f.Get("params"), ","), Buttons: f.Checked("buttons", "1")}
	err = a.msgs.SaveWhatsAppTemplate(r.Context(), t)
	if err == messages.ErrUnknownKind {
		f.Message = translate(r, "messages.whatsapp.error.template_name")
		a.renderMessageWhatsApp(w, r, http.StatusUnprocessableEntity, nil, f, nil)
		return
	}
	if fieldErrors(r, f, err) {
		a.renderMessageWhatsApp(w, r, http.StatusUnprocessableEntity, nil, f, nil)
		return
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "messages.saved"))
	seeOther(w, r, "/settings/messages/whatsapp")
}
