package admin

import (
	"errors"
	"net/http"

	"frontdesk/app/owner"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// The signed-in account's own page, and adding an owner with a password.

func (a *Admin) showAccount(w http.ResponseWriter, r *http.Request) {
	a.renderAccount(w, r, http.StatusOK, nil, ui.NewForm(nil))
}

// renderAccount shows the account page with the two forms as given (nil: as stored).
func (a *Admin) renderAccount(w http.ResponseWriter, r *http.Request, status int, language, password *ui.Form) {
	a.renderAccountPage(w, r, status, accountForms{language: language, password: password})
}

// accountForms are the account page's forms as the request left them (nil: as stored), and
// recovery codes just made (twofactor.go).
type accountForms struct {
	language, password *ui.Form
	confirm, manage    *ui.Form
	codes              []string
	passkey            *ui.Form // adding a passkey (passkeys.go)
}

func (a *Admin) renderAccountPage(w http.ResponseWriter, r *http.Request, status int, fs accountForms) {
	language := fs.language
	if language == nil {
		language = ui.NewForm(nil)
		language.Set("language", ownerLanguage(r.Context()))
	}
	password := fs.password
	if password == nil {
		password = ui.NewForm(nil)
	}
	biz := business(r.Context())
	opts := []ui.Option{{Value: "", Label: translate(r, "account.language.business", "language", languageName(biz.Language))}}
	v := ui.AccountView{Language: language, Languages: append(opts, languageOptions()...), Password: password}
	var err error
	if v.TwoFactor, err = a.twoFactorView(r, fs.confirm, fs.manage, fs.codes); err != nil {
		a.renderError(w, r, err)
		return
	}
	me, _ := ownerFrom(r.Context())
	if v.Sessions, err = a.sessionRows(r, me); err != nil {
		a.renderError(w, r, err)
		return
	}
	if v.Passkeys, err = a.passkeyRows(r, me); err != nil {
		a.renderError(w, r, err)
		return
	}
	v.NewPasskey = fs.passkey
	if v.NewPasskey == nil {
		v.NewPasskey = ui.NewForm(nil)
	}
	a.render(w, r, status, ui.AccountPage(a.page(r, translate(r, "account.title")), v))
}

func languageName(code string) string {
	for _, l := range i18n.Languages() {
		if l.Code == code {
			return l.Name
		}
	}
	return code
}

// setLanguage records the owner's own language for the admin pages.
func (a *Admin) setLanguage(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	lang := f.Get("language")
	if lang != "" && !i18n.Supported(lang) {
		f.SetError("language", translate(r, "account.language.error"))
		a.renderAccount(w, r, http.StatusUnprocessableEntity, f, ui.NewForm(nil))
		return
	}
	me, _ := ownerFrom(r.Context())
	if err := owner.SetLanguage(r.Context(), a.db, me.ID, lang, a.now()); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, business(r.Context()).ForOwner(lang).T("account.language.saved"))
	seeOther(w, r, "/account")
}

func (a *Admin) changePassword(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	me, _ := ownerFrom(r.Context())
	if f.Raw("current") == "" {
		f.SetError("current", translate(r, "account.password.current.missing"))
	}
	validateNewCredentials(r, f, "", "password", "confirm")
	// A stolen session must not be a way around the sign-in throttle: it guesses as an
	// untrusted client from its address.
	at := attempt{email: me.Email, ip: clientIP(r)}
	if f.OK() {
		if wait, why := a.throttle.wait(at); wait > 0 {
			f.Message = throttledMessage(r, why, wait)
		}
	}
	if !f.OK() {
		a.renderAccount(w, r, http.StatusUnprocessableEntity, nil, f)
		return
	}
	updated, err := owner.ChangePassword(r.Context(), a.db, me.ID, f.Raw("current"), f.Raw("password"), a.now())
	if errors.Is(err, owner.ErrInvalidCredentials) {
		a.throttle.fail(at)
		f.SetError("current", translate(r, "account.password.current.wrong"))
		a.renderAccount(w, r, http.StatusUnprocessableEntity, nil, f)
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
	if _, err := a.endOtherSessions(r.Context(), updated); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "account.password.changed"))
	seeOther(w, r, "/account")
}

// createOwner adds an owner with a first password (an owner's shortcut beside inviting, as
// `frontdesk owner create` does on the machine).
func (a *Admin) createOwner(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	validateNewCredentials(r, f, "owner_email", "password", "")
	if !f.OK() {
		a.renderTeam(w, r, http.StatusUnprocessableEntity, teamForms{addOwner: f})
		return
	}
	o, err := owner.Create(r.Context(), a.db, f.Get("owner_email"), f.Raw("password"), a.now())
	if errors.Is(err, owner.ErrEmailTaken) {
		f.SetError("owner_email", translate(r, "owners.exists"))
		a.renderTeam(w, r, http.StatusUnprocessableEntity, teamForms{addOwner: f})
		return
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "owners.added", "email", o.Email))
	seeOther(w, r, "/settings/team")
}
