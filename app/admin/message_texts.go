package admin

import (
	"context"
	"errors"
	"net/http"
	"time"

	"frontdesk/app/clients"
	"frontdesk/app/messages"
	"frontdesk/ui"
)

// Settings → Messages → Texts (docs/messages.md, "Channels"): the SMS provider and a test text.
// Everyone with the settings permission sees whether texts are set up; the provider, its
// credentials and the test text are the credentials permission's (owners).

func (a *Admin) showMessageTexts(w http.ResponseWriter, r *http.Request) {
	a.renderMessageTexts(w, r, http.StatusOK, nil, nil)
}

// renderMessageTexts renders the page with the forms as given (nil: from the stored settings).
func (a *Admin) renderMessageTexts(w http.ResponseWriter, r *http.Request, status int, form, test *ui.Form) {
	s, err := a.msgs.TextSettings(r.Context())
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if form == nil {
		form = ui.NewForm(nil)
		form.Set("provider", s.Provider)
		form.Set("account_sid", s.AccountSID)
		form.Set("from", s.From)
		form.Set("url", s.URL)
		form.Set("method", s.Method)
		form.Set("auth_name", s.AuthName)
		form.Set("content_type", s.ContentType)
		form.Set("body", s.Body)
	}
	if test == nil {
		test = ui.NewForm(nil)
	}
	v := ui.MessageTextsView{Form: form, Test: test, Ready: s.Ready, TwilioBase: s.TwilioBase,
		HasToken: s.HasAuthToken, HasAuthValue: s.HasAuthValue,
		Providers: []ui.Option{
			{Value: messages.SMSNone, Label: translate(r, "messages.texts.provider.none")},
			{Value: messages.SMSTwilio, Label: translate(r, "messages.texts.provider.twilio")},
			{Value: messages.SMSGateway, Label: translate(r, "messages.texts.provider.http")},
		},
		Methods: []ui.Option{{Value: "POST", Label: "POST"}, {Value: "PUT", Label: "PUT"}, {Value: "GET", Label: "GET"}},
	}
	a.render(w, r, status, ui.MessageTextsPage(a.page(r, translate(r, "messages.texts.title")), v))
}

func (a *Admin) saveMessageTexts(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	in := messages.TextSettingsInput{Provider: f.Get("provider"), AccountSID: f.Get("account_sid"), From: f.Get("from"),
		URL: f.Get("url"), Method: f.Get("method"), AuthName: f.Get("auth_name"), ContentType: f.Get("content_type"),
		Body: f.Raw("body")}
	switch v := f.Raw("auth_token"); {
	case v != "", f.Checked("clear_auth_token", "1"):
		in.AuthToken = &v
	}
	switch v := f.Raw("auth_value"); {
	case v != "", f.Checked("clear_auth_value", "1"):
		in.AuthValue = &v
	}
	err = a.msgs.SaveTextSettings(r.Context(), in)
	if fieldErrors(r, f, err) {
		f.Set("auth_token", "")
		f.Set("auth_value", "")
		a.renderMessageTexts(w, r, http.StatusUnprocessableEntity, f, nil)
		return
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "messages.saved"))
	seeOther(w, r, "/settings/messages/texts")
}

// sendTestText sends a test text now and says what the provider answered.
func (a *Admin) sendTestText(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	number, err := clients.ParsePhone(f.Get("to"), a.businessCountry(r.Context()))
	if err != nil {
		var pe *clients.PhoneError
		errors.As(err, &pe)
		f.SetError("to", phoneError(r, pe))
		a.renderMessageTexts(w, r, http.StatusUnprocessableEntity, nil, f)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 45*time.Second)
	defer cancel()
	reply, err := a.msgs.SendTestText(ctx, number)
	switch {
	case errors.Is(err, messages.ErrTextsNotSetUp):
		f.Message = translate(r, "messages.texts.test.not_set_up")
		a.renderMessageTexts(w, r, http.StatusUnprocessableEntity, nil, f)
		return
	case errors.Is(err, messages.ErrNumberNotAllowed):
		f.SetError("to", translate(r, "messages.texts.test.not_allowed"))
		a.renderMessageTexts(w, r, http.StatusUnprocessableEntity, nil, f)
		return
	case err != nil:
		// The provider's refusal is the owner's business: it tells what to fix.
		f.Message = translate(r, "messages.texts.test.failed", "error", err.Error())
		a.renderMessageTexts(w, r, http.StatusUnprocessableEntity, nil, f)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "messages.texts.test.sent", "to", number, "reply", reply))
	seeOther(w, r, "/settings/messages/texts")
}

// phoneError is a refused number's message, with an example of a good one when there is one.
func phoneError(r *http.Request, pe *clients.PhoneError) string {
	if pe == nil || pe.Example == "" {
		return translate(r, "clients.err.phone_invalid")
	}
	return translate(r, "clients.err.phone_example", "example", pe.Example)
}
