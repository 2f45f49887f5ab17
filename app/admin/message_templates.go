package admin

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/errpage"
	"frontdesk/app/messages"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// The message templates: each type's subject and text per language, edited with a preview on
// a sample or a real booking. A template that does not work is shown with its error and never
// saved (messages.SaveTemplate tries it first).

func templateURL(kind messages.Kind, lang string) string {
	return "/settings/messages/templates/" + string(kind) + "/" + lang
}

func (a *Admin) listMessageTemplates(w http.ResponseWriter, r *http.Request) {
	var rows []ui.MessageTemplateRow
	for _, k := range messages.Kinds {
		for _, l := range i18n.Languages() {
			_, custom, err := a.msgs.Template(r.Context(), k, l.Code)
			if err != nil {
				a.renderError(w, r, err)
				return
			}
			rows = append(rows, ui.MessageTemplateRow{Kind: string(k), Label: kindLabel(r, k), Language: l.Code,
				LangName: l.Name, Custom: custom, Href: templateURL(k, l.Code)})
		}
	}
	a.render(w, r, http.StatusOK, ui.MessageTemplatesPage(a.page(r, translate(r, "messages.templates")), rows))
}

// templateParams reads the type and language from the path; unknown ones are a 404.
func templateParams(r *http.Request) (messages.Kind, string, error) {
	k, lang := messages.Kind(chi.URLParam(r, "kind")), chi.URLParam(r, "lang")
	if !k.Valid() || !i18n.Supported(lang) {
		return "", "", errpage.NotFound
	}
	return k, lang, nil
}

func (a *Admin) showMessageTemplate(w http.ResponseWriter, r *http.Request) {
	kind, lang, err := templateParams(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v, t, err := a.storedTemplateView(r, kind, lang)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.preview(r, &v, kind, lang, t, 0)
	if err := a.textView(r, &v, kind, lang, nil); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.render(w, r, http.StatusOK, ui.MessageTemplatePage(a.page(r, v.Label), v))
}

// storedTemplateView is the template page of kind in lang with its email form filled from the
// stored template (or the built-in one), and that template.
func (a *Admin) storedTemplateView(r *http.Request, kind messages.Kind, lang string) (ui.MessageTemplateView, messages.Template, error) {
	t, custom, err := a.msgs.Template(r.Context(), kind, lang)
	if err != nil {
		return ui.MessageTemplateView{}, t, err
	}
	f := ui.NewForm(nil)
	f.Set("subject", t.Subject)
	f.Set("body", t.Body)
	return a.templateView(r, kind, lang, f, custom), t, nil
}

func (a *Admin) templateView(r *http.Request, kind messages.Kind, lang string, f *ui.Form, custom bool) ui.MessageTemplateView {
	v := ui.MessageTemplateView{Kind: string(kind), Label: kindLabel(r, kind), Language: lang, LangName: lang,
		Action: templateURL(kind, lang), Form: f, Custom: custom}
	for _, l := range i18n.Languages() {
		if l.Code == lang {
			v.LangName = l.Name
		}
	}
	for _, fn := range messages.FieldNames {
		v.Fields = append(v.Fields, ui.FieldHelp{Name: fn.Name, Help: translate(r, fn.Key)})
	}
	return v
}

// preview renders t into v, or the template's error.
func (a *Admin) preview(r *http.Request, v *ui.MessageTemplateView, kind messages.Kind, lang string, t messages.Template, bookingID int64) {
	out, err := a.msgs.Preview(r.Context(), kind, lang, t, bookingID)
	var te *messages.TemplateError
	switch {
	case errors.As(err, &te):
		v.PreviewError = translate(r, "messages.preview.error", "part", translate(r, "messages."+te.Part), "error", i18n.From(r.Context()).Msg(te.Msg))
	case err != nil:
		v.PreviewError = translate(r, "messages.preview.no_booking")
	default:
		v.Previewed, v.Subject, v.Text = true, out.Subject, out.Text
	}
}

// saveMessageTemplate previews or saves, as the button pressed says.
func (a *Admin) saveMessageTemplate(w http.ResponseWriter, r *http.Request) {
	kind, lang, err := templateParams(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	t := messages.Template{Subject: f.Raw("subject"), Body: f.Raw("body")}
	var bookingID int64
	if b := f.Get("booking"); b != "" {
		if bookingID, err = strconv.ParseInt(b, 10, 64); err != nil || bookingID < 1 {
			f.SetError("booking", translate(r, "messages.preview.booking.hint"))
			bookingID = 0
		}
	}
	_, custom, _ := a.msgs.Template(r.Context(), kind, lang)
	v := a.templateView(r, kind, lang, f, custom)
	a.preview(r, &v, kind, lang, t, bookingID)
	if err := a.textView(r, &v, kind, lang, nil); err != nil {
		a.renderError(w, r, err)
		return
	}
	if f.Get("action") != "save" || v.PreviewError != "" || !f.OK() {
		status := http.StatusOK
		if v.PreviewError != "" || !f.OK() {
			status = http.StatusUnprocessableEntity
		}
		a.render(w, r, status, ui.MessageTemplatePage(a.page(r, v.Label), v))
		return
	}
	if err := a.msgs.SaveTemplate(r.Context(), kind, lang, t); err != nil {
		var te *messages.TemplateError
		if errors.As(err, &te) {
			v.PreviewError = translate(r, "messages.preview.error", "part", translate(r, "messages."+te.Part), "error", i18n.From(r.Context()).Msg(te.Msg))
			a.render(w, r, http.StatusUnprocessableEntity, ui.MessageTemplatePage(a.page(r, v.Label), v))
			return
		}
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "messages.template.saved"))
	seeOther(w, r, templateURL(kind, lang))
}

func (a *Admin) resetMessageTemplate(w http.ResponseWriter, r *http.Request) {
	kind, lang, err := templateParams(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if err := a.msgs.ResetTemplate(r.Context(), kind, lang); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "messages.template.reset"))
	seeOther(w, r, templateURL(kind, lang))
}

// textView fills the short text's form (tf, or the stored text when nil) and its preview.
func (a *Admin) textView(r *http.Request, v *ui.MessageTemplateView, kind messages.Kind, lang string, tf *ui.Form) error {
	text, custom, err := a.msgs.TextTemplate(r.Context(), kind, lang)
	if err != nil {
		return err
	}
	if tf == nil {
		tf = ui.NewForm(nil)
		tf.Set("text", text)
	}
	v.TextForm, v.TextCustom = tf, custom
	out, err := a.msgs.PreviewText(r.Context(), kind, lang, tf.Raw("text"))
	var te *messages.TemplateError
	switch {
	case errors.As(err, &te):
		v.TextError = translate(r, "messages.preview.error", "part", translate(r, "messages.text"), "error", i18n.From(r.Context()).Msg(te.Msg))
	case err != nil:
		return err
	default:
		v.TextPreview = out
	}
	return nil
}

// saveMessageText previews or saves the short text (SMS) of a type in a language.
func (a *Admin) saveMessageText(w http.ResponseWriter, r *http.Request) {
	kind, lang, err := templateParams(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	tf, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v, _, err := a.storedTemplateView(r, kind, lang)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if err := a.textView(r, &v, kind, lang, tf); err != nil {
		a.renderError(w, r, err)
		return
	}
	if tf.Get("action") != "save" || v.TextError != "" {
		status := http.StatusOK
		if v.TextError != "" {
			status = http.StatusUnprocessableEntity
		}
		a.render(w, r, status, ui.MessageTemplatePage(a.page(r, v.Label), v))
		return
	}
	if err := a.msgs.SaveTextTemplate(r.Context(), kind, lang, tf.Raw("text")); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "messages.template.saved"))
	seeOther(w, r, templateURL(kind, lang)+"#text")
}

func (a *Admin) resetMessageText(w http.ResponseWriter, r *http.Request) {
	kind, lang, err := templateParams(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if err := a.msgs.ResetTextTemplate(r.Context(), kind, lang); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "messages.template.reset"))
	seeOther(w, r, templateURL(kind, lang)+"#text")
}
