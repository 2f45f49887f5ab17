package admin

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"
	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"frontdesk/app/errpage"
	"frontdesk/app/middleware"
	"frontdesk/app/owner"
	"frontdesk/app/passkey"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Passkeys (docs/security.md "Passkeys"): registered on the account page, used on the sign-in
// page without typing an email (discoverable credentials). A passkey sign-in needs the
// authenticator's user verification (a PIN, a fingerprint), so it counts as two factors and
// skips the code step. static/passkey.js calls navigator.credentials between the two requests
// of each ceremony: options (JSON), then an ordinary form post carrying the browser's answer.
//
// The relying party is the public URL's host (--public-url) and the origin its scheme and
// host; without a public URL, the request's host (so http://localhost works for trying it).
// Passkeys are bound to that host: after the public URL moves to another host, passkeys made
// for the old one no longer work and are made again.

const (
	keyPasskeyRegistration = "passkey_registration" // webauthn.SessionData as JSON
	keyPasskeyLogin        = "passkey_login"
)

// relyingParty is the WebAuthn configuration for r.
func (a *Admin) relyingParty(r *http.Request) (*webauthn.WebAuthn, error) {
	id, origin := a.links.Hostname(), a.links.String()
	if !a.links.Configured() {
		scheme := "http"
		if middleware.IsHTTPS(r) {
			scheme = "https"
		}
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			id = h
		} else {
			id = host
		}
		origin = scheme + "://" + host
	}
	rp, err := webauthn.New(&webauthn.Config{RPID: id, RPDisplayName: "frontdesk", RPOrigins: []string{origin}})
	if err != nil {
		// A bare IP address (or another host WebAuthn refuses) cannot hold a passkey: the owner
		// is told to sign in through a host name or set the public URL, not shown a 500.
		return nil, errPasskeyHost
	}
	return rp, nil
}

var errPasskeyHost = &errpage.Error{Status: http.StatusBadRequest, Msg: i18n.M("passkeys.error.host")}

// passkeyUser is an account as the WebAuthn library sees it.
type passkeyUser struct {
	o     owner.Owner
	creds []webauthn.Credential
}

func (u passkeyUser) WebAuthnID() []byte                         { return passkey.UserHandle(u.o.ID) }
func (u passkeyUser) WebAuthnName() string                       { return u.o.Email }
func (u passkeyUser) WebAuthnDisplayName() string                { return u.o.Email }
func (u passkeyUser) WebAuthnCredentials() []webauthn.Credential { return u.creds }

// loadPasskeyUser is o with its passkeys, and the stored rows by credential id.
func (a *Admin) loadPasskeyUser(r *http.Request, o owner.Owner) (passkeyUser, []passkey.Passkey, error) {
	keys, err := passkey.List(r.Context(), a.db, o.ID)
	if err != nil {
		return passkeyUser{}, nil, err
	}
	u := passkeyUser{o: o}
	for _, k := range keys {
		var c webauthn.Credential
		if err := json.Unmarshal([]byte(k.Credential), &c); err != nil {
			a.log.WarnContext(r.Context(), "unreadable passkey", slog.Int64("passkey_id", k.ID), slog.Any("err", err))
			continue
		}
		u.creds = append(u.creds, c)
	}
	return u, keys, nil
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(v)
}

// passkeyRegistrationOptions starts adding a passkey: the options navigator.credentials.create
// takes.
func (a *Admin) passkeyRegistrationOptions(w http.ResponseWriter, r *http.Request) {
	me, _ := ownerFrom(r.Context())
	rp, err := a.relyingParty(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	u, _, err := a.loadPasskeyUser(r, me)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	exclude := make([]protocol.CredentialDescriptor, 0, len(u.creds))
	for _, c := range u.creds {
		exclude = append(exclude, c.Descriptor())
	}
	creation, session, err := rp.BeginRegistration(u,
		webauthn.WithAuthenticatorSelection(protocol.AuthenticatorSelection{
			ResidentKey: protocol.ResidentKeyRequirementRequired, RequireResidentKey: protocol.ResidentKeyRequired(),
			UserVerification: protocol.VerificationRequired}),
		webauthn.WithExclusions(exclude))
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	b, _ := json.Marshal(session)
	a.sessions.Put(r.Context(), keyPasskeyRegistration, string(b))
	writeJSON(w, creation)
}

// addPasskey finishes adding a passkey from the browser's answer.
func (a *Admin) addPasskey(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	me, _ := ownerFrom(r.Context())
	fail := func(field, msg string) {
		f.SetError(field, msg)
		a.renderAccountPage(w, r, http.StatusUnprocessableEntity, accountForms{passkey: f})
	}
	name, err := passkey.CleanName(f.Get("passkey_name"))
	if err != nil {
		fail("passkey_name", translate(r, "passkeys.name.invalid", "max", passkey.MaxName))
		return
	}
	var session webauthn.SessionData
	raw, _ := a.sessions.Pop(r.Context(), keyPasskeyRegistration).(string)
	if raw == "" || f.Raw("credential") == "" || json.Unmarshal([]byte(raw), &session) != nil {
		fail("passkey_name", translate(r, "passkeys.unsupported"))
		return
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes([]byte(f.Raw("credential")))
	if err != nil {
		fail("passkey_name", translate(r, "passkeys.failed"))
		return
	}
	rp, err := a.relyingParty(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	u, _, err := a.loadPasskeyUser(r, me)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	cred, err := rp.CreateCredential(u, session, parsed)
	if err != nil {
		a.log.InfoContext(r.Context(), "passkey registration refused", slog.Int64("owner_id", me.ID), slog.Any("err", err))
		fail("passkey_name", translate(r, "passkeys.failed"))
		return
	}
	record, err := json.Marshal(cred)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	err = passkey.Add(r.Context(), a.db, me.ID, name, cred.ID, string(record), a.now())
	switch {
	case errors.Is(err, passkey.ErrTooMany):
		fail("passkey_name", translate(r, "passkeys.too_many", "max", passkey.MaxPerAccount))
	case errors.Is(err, passkey.ErrTaken):
		fail("passkey_name", translate(r, "passkeys.taken"))
	case err != nil:
		a.renderError(w, r, err)
	default:
		a.log.InfoContext(r.Context(), "passkey added", slog.Int64("owner_id", me.ID))
		a.flash(r.Context(), ui.FlashSuccess, translate(r, "passkeys.added", "name", name))
		seeOther(w, r, "/account#passkeys")
	}
}

func (a *Admin) removePasskey(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
	if err != nil {
		a.renderError(w, r, errpage.NotFound)
		return
	}
	me, _ := ownerFrom(r.Context())
	err = passkey.Remove(r.Context(), a.db, me.ID, id)
	if errors.Is(err, passkey.ErrNotFound) {
		a.renderError(w, r, errpage.NotFound)
		return
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "passkeys.removed"))
	seeOther(w, r, "/account#passkeys")
}

// passkeyRows are the account page's list.
func (a *Admin) passkeyRows(r *http.Request, o owner.Owner) ([]ui.PasskeyRow, error) {
	keys, err := passkey.List(r.Context(), a.db, o.ID)
	if err != nil {
		return nil, err
	}
	out := make([]ui.PasskeyRow, 0, len(keys))
	for _, k := range keys {
		out = append(out, ui.PasskeyRow{ID: k.ID, Name: k.Name, Created: k.CreatedAt, LastUsed: k.LastUsedAt})
	}
	return out, nil
}

// passkeyLoginOptions starts a passkey sign-in: the options navigator.credentials.get takes,
// naming no account (the authenticator offers the passkeys it holds for this site).
func (a *Admin) passkeyLoginOptions(w http.ResponseWriter, r *http.Request) {
	rp, err := a.relyingParty(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	assertion, session, err := rp.BeginDiscoverableLogin(webauthn.WithUserVerification(protocol.VerificationRequired))
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	b, _ := json.Marshal(session)
	a.sessions.Put(r.Context(), keyPasskeyLogin, string(b))
	writeJSON(w, assertion)
}

// passkeyLogin signs in with the browser's answer. It is not throttled: an answer is a
// signature over a fresh challenge by a key only the authenticator holds, nothing to guess.
func (a *Admin) passkeyLogin(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	next := safeNext(f.Get("next"))
	fail := func(status int, msg string) {
		lf := ui.NewForm(nil)
		lf.Message = msg
		a.render(w, r, status, ui.LoginPage(a.page(r, translate(r, "auth.signin.title")), lf, next, a.setupPending(r.Context())))
	}
	var session webauthn.SessionData
	raw, _ := a.sessions.Pop(r.Context(), keyPasskeyLogin).(string)
	if raw == "" || f.Raw("credential") == "" || json.Unmarshal([]byte(raw), &session) != nil {
		fail(http.StatusUnprocessableEntity, translate(r, "passkeys.unsupported"))
		return
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes([]byte(f.Raw("credential")))
	if err != nil {
		fail(http.StatusUnprocessableEntity, translate(r, "passkeys.signin.failed"))
		return
	}
	rp, err := a.relyingParty(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	var found owner.Owner
	var rows []passkey.Passkey
	user, cred, err := rp.ValidatePasskeyLogin(func(_, handle []byte) (webauthn.User, error) {
		id, ok := passkey.OwnerOf(handle)
		if !ok {
			return nil, passkey.ErrNotFound
		}
		o, err := owner.Get(r.Context(), a.db, id)
		if err != nil {
			return nil, err
		}
		u, keys, err := a.loadPasskeyUser(r, o)
		found, rows = o, keys
		return u, err
	}, session, parsed)
	if err != nil || user == nil {
		a.log.InfoContext(r.Context(), "passkey sign-in refused", slog.String("ip", clientIP(r)), slog.Any("err", err))
		fail(http.StatusUnprocessableEntity, translate(r, "passkeys.signin.failed"))
		return
	}
	// Keep the updated record (its sign count guards against cloned authenticators).
	if record, err := json.Marshal(cred); err == nil {
		for _, k := range rows {
			if string(k.CredentialID) == string(cred.ID) {
				if err := passkey.Used(r.Context(), a.db, k.ID, string(record), a.now()); err != nil {
					a.renderError(w, r, err)
					return
				}
			}
		}
	}
	a.completeSignIn(w, r, found, next)
}
