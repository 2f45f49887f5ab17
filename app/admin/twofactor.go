package admin

import (
	"encoding/base64"
	"errors"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	qrcode "github.com/skip2/go-qrcode"

	"frontdesk/app/activity"
	"frontdesk/app/owner"
	"frontdesk/app/staff"
	"frontdesk/app/twofactor"
	"frontdesk/ui"
)

// Two-factor sign-in (docs/security.md "Two-factor sign-in"): the second step of signing in,
// enrolment and management on the account page, and the rule that makes it compulsory.
//
// Between the password and the code the session holds only the pending keys below, never
// keyOwnerID, so requireOwner lets it nowhere but the code step; the pending state lasts
// pendingTTL.

const (
	keyPendingOwnerID = "pending_owner_id"
	keyPendingStamp   = "pending_owner_stamp"
	keyPendingNext    = "pending_next"
	keyPendingUntil   = "pending_until" // Unix seconds
	pendingTTL        = 5 * time.Minute
)

// requiresTwoFactor says whether the business's rule "require two-factor for owners and
// managers" applies to the account: its role decides (reception and providers may still turn
// two-factor on for themselves).
func requiresTwoFactor(o owner.Owner) bool {
	return staff.Role(o.Role) == staff.RoleOwner || staff.Role(o.Role) == staff.RoleManager
}

// secondFactorStep starts the code step after a correct password when the account uses
// two-factor, and reports whether it answered the request.
func (a *Admin) secondFactorStep(w http.ResponseWriter, r *http.Request, o owner.Owner, next string) bool {
	ctx := r.Context()
	on, err := a.twofa.Enabled(ctx, o.ID)
	if err != nil {
		a.renderError(w, r, err)
		return true
	}
	if !on {
		return false
	}
	// A new token here too: the half-signed-in state is worth something to a thief.
	if err := a.sessions.RenewToken(ctx); err != nil {
		a.renderError(w, r, err)
		return true
	}
	a.sessions.Remove(ctx, keyOwnerID)
	a.sessions.Remove(ctx, keyStamp)
	a.sessions.Put(ctx, keyPendingOwnerID, o.ID)
	a.sessions.Put(ctx, keyPendingStamp, o.Stamp)
	a.sessions.Put(ctx, keyPendingNext, next)
	a.sessions.Put(ctx, keyPendingUntil, a.now().Add(pendingTTL).Unix())
	seeOther(w, r, "/login/code")
	return true
}

// pendingOwner is the account that passed the password step in this session, if it still
// exists, has the same password and the step has not timed out.
func (a *Admin) pendingOwner(r *http.Request) (owner.Owner, bool, error) {
	ctx := r.Context()
	id := a.sessions.GetInt64(ctx, keyPendingOwnerID)
	if id == 0 || a.now().Unix() > a.sessions.GetInt64(ctx, keyPendingUntil) {
		return owner.Owner{}, false, nil
	}
	o, err := owner.Get(ctx, a.db, id)
	if errors.Is(err, owner.ErrNotFound) {
		return owner.Owner{}, false, nil
	}
	if err != nil {
		return owner.Owner{}, false, err
	}
	return o, o.Stamp == a.sessions.GetString(ctx, keyPendingStamp), nil
}

func clearPending(a *Admin, r *http.Request) {
	for _, k := range []string{keyPendingOwnerID, keyPendingStamp, keyPendingNext, keyPendingUntil} {
		a.sessions.Remove(r.Context(), k)
	}
}

func (a *Admin) showCodeStep(w http.ResponseWriter, r *http.Request) {
	if _, ok, err := a.pendingOwner(r); err != nil || !ok {
		a.codeStepGone(w, r, err)
		return
	}
	a.render(w, r, http.StatusOK, ui.TwoFactorLoginPage(a.page(r, translate(r, "twofactor.signin.title")), ui.NewForm(nil)))
}

// codeStepGone sends a browser without a live password step back to the start.
func (a *Admin) codeStepGone(w http.ResponseWriter, r *http.Request, err error) {
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	clearPending(a, r)
	seeOther(w, r, "/login")
}

// verifyCode is the second sign-in step, held to the same throttle as the password step.
func (a *Admin) verifyCode(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	o, ok, err := a.pendingOwner(r)
	if err != nil || !ok {
		a.codeStepGone(w, r, err)
		return
	}
	fail := func(status int, msg string) {
		f.SetError("code", msg)
		a.render(w, r, status, ui.TwoFactorLoginPage(a.page(r, translate(r, "twofactor.signin.title")), f))
	}
	code := f.Get("code")
	if code == "" {
		fail(http.StatusUnprocessableEntity, translate(r, "twofactor.code.missing"))
		return
	}
	at := attempt{email: o.Email, ip: clientIP(r)}
	if at.device, err = a.devices.trusted(r.Context(), r, o.Email); err != nil {
		a.log.WarnContext(r.Context(), "device cookie", slog.Any("err", err))
	}
	if wait, why := a.throttle.wait(at); wait > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
		fail(http.StatusTooManyRequests, throttledMessage(r, why, wait))
		return
	}
	err = a.twofa.Verify(r.Context(), o.ID, code, a.now())
	if errors.Is(err, twofactor.ErrWrongCode) || errors.Is(err, twofactor.ErrReplayed) {
		a.throttle.fail(at)
		a.log.InfoContext(r.Context(), "two-factor code refused", slog.Int64("owner_id", o.ID), slog.String("ip", at.ip),
			slog.Bool("replayed", errors.Is(err, twofactor.ErrReplayed)))
		msg := translate(r, "twofactor.code.wrong")
		if errors.Is(err, twofactor.ErrReplayed) {
			msg = translate(r, "twofactor.code.used")
		}
		fail(http.StatusUnprocessableEntity, msg)
		return
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.throttle.succeeded(at)
	next := safeNext(a.sessions.GetString(r.Context(), keyPendingNext))
	a.completeSignIn(w, r, o, next)
}

// completeSignIn ends a sign-in whose factors all passed: the session, the device cookie,
// the log line, and on to next.
func (a *Admin) completeSignIn(w http.ResponseWriter, r *http.Request, o owner.Owner, next string) {
	clearPending(a, r)
	if err := a.signIn(r.Context(), o); err != nil {
		a.renderError(w, r, err)
		return
	}
	in := activity.WithActor(r.Context(), activity.Actor{Kind: activity.KindOwner, ID: strconv.FormatInt(o.ID, 10), Label: o.Email})
	if err := activity.Write(in, a.db, a.now(), activity.Entry{Action: "owner.signed_in", EntityID: o.ID}); err != nil {
		a.log.WarnContext(r.Context(), "activity", slog.Any("err", err))
	}
	if err := a.devices.issue(r.Context(), w, r, o.Email); err != nil {
		a.log.WarnContext(r.Context(), "device cookie", slog.Any("err", err))
	}
	a.log.InfoContext(r.Context(), "signed in", slog.Int64("owner_id", o.ID), slog.String("ip", clientIP(r)))
	seeOther(w, r, next)
}

// mustEnrol sends an account the two-factor rule applies to, and that has no second factor
// yet, to enrol on the account page before anything else; it reports whether it answered.
func (a *Admin) mustEnrol(w http.ResponseWriter, r *http.Request, o owner.Owner) bool {
	if r.URL.Path == "/account" || strings.HasPrefix(r.URL.Path, "/account/two-factor/") || r.URL.Path == "/logout" || !requiresTwoFactor(o) {
		return false
	}
	missing, err := a.twoFactorMissing(r, o)
	if err != nil {
		a.renderError(w, r, err)
		return true
	}
	if !missing {
		return false
	}
	if r.Header.Get("HX-Request") == "true" {
		w.Header().Set("HX-Redirect", "/account#two-factor")
		w.WriteHeader(http.StatusNoContent)
		return true
	}
	seeOther(w, r, "/account#two-factor")
	return true
}

// twoFactorMissing: the rule is on, applies to o, and o has no second factor.
func (a *Admin) twoFactorMissing(r *http.Request, o owner.Owner) (bool, error) {
	if !requiresTwoFactor(o) {
		return false, nil
	}
	required, err := a.twofa.Required(r.Context())
	if err != nil || !required {
		return false, err
	}
	on, err := a.twofa.Enabled(r.Context(), o.ID)
	return !on, err
}

// renderAccountWith shows the account page with the two-factor forms as given.
func (a *Admin) renderAccountWith(w http.ResponseWriter, r *http.Request, status int, confirm, manage *ui.Form, codes []string) {
	a.renderAccountPage(w, r, status, accountForms{confirm: confirm, manage: manage, codes: codes})
}

// twoFactorView is the account page's two-factor section as stored; codes are new recovery
// codes to show once.
func (a *Admin) twoFactorView(r *http.Request, confirm, manage *ui.Form, codes []string) (ui.TwoFactorView, error) {
	me, _ := ownerFrom(r.Context())
	st, err := a.twofa.Get(r.Context(), me.ID)
	if err != nil {
		return ui.TwoFactorView{}, err
	}
	v := ui.TwoFactorView{Enabled: st.Enabled, Pending: st.Pending, RecoveryLeft: st.RecoveryLeft, NewCodes: codes,
		Confirm: confirm, Manage: manage}
	if v.Confirm == nil {
		v.Confirm = ui.NewForm(nil)
	}
	if v.Manage == nil {
		v.Manage = ui.NewForm(nil)
	}
	if v.Required, err = a.twoFactorMissing(r, me); err != nil {
		return ui.TwoFactorView{}, err
	}
	if st.Pending {
		e, err := a.twofa.Pending(r.Context(), me.ID, me.Email)
		if err != nil {
			return ui.TwoFactorView{}, err
		}
		v.Secret, v.URI = e.Secret, e.URI
		if png, err := qrcode.Encode(e.URI, qrcode.Medium, 256); err == nil {
			v.QR = "data:image/png;base64," + base64.StdEncoding.EncodeToString(png)
		}
	}
	return v, nil
}

func (a *Admin) startTwoFactor(w http.ResponseWriter, r *http.Request) {
	me, _ := ownerFrom(r.Context())
	_, err := a.twofa.Begin(r.Context(), me.ID, me.Email, a.now())
	if err != nil && !errors.Is(err, twofactor.ErrNotEnrolling) {
		a.renderError(w, r, err)
		return
	}
	seeOther(w, r, "/account#two-factor")
}

func (a *Admin) confirmTwoFactor(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	me, _ := ownerFrom(r.Context())
	codes, err := a.twofa.Confirm(r.Context(), me.ID, f.Get("tf_code"), a.now())
	switch {
	case errors.Is(err, twofactor.ErrNotEnrolling):
		seeOther(w, r, "/account#two-factor")
	case errors.Is(err, twofactor.ErrWrongCode):
		f.SetError("tf_code", translate(r, "twofactor.code.wrong"))
		a.renderAccountWith(w, r, http.StatusUnprocessableEntity, f, nil, nil)
	case err != nil:
		a.renderError(w, r, err)
	default:
		a.log.InfoContext(r.Context(), "two-factor turned on", slog.Int64("owner_id", me.ID))
		a.flash(r.Context(), ui.FlashSuccess, translate(r, "twofactor.enabled"))
		// The codes are shown in this answer only: they are never stored in clear.
		w.Header().Set("Cache-Control", "no-store")
		a.renderAccountWith(w, r, http.StatusOK, nil, nil, codes)
	}
}

// manageTwoFactor regenerates the recovery codes or turns two-factor off, after the password
// (held to the sign-in throttle, like a password change).
func (a *Admin) manageTwoFactor(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	me, _ := ownerFrom(r.Context())
	action := f.Get("action")
	if action != "codes" && action != "off" {
		f.Message = translate(r, "twofactor.manage.action")
		a.renderAccountWith(w, r, http.StatusUnprocessableEntity, nil, f, nil)
		return
	}
	if f.Raw("tf_password") == "" {
		f.SetError("tf_password", translate(r, "account.password.current.missing"))
		a.renderAccountWith(w, r, http.StatusUnprocessableEntity, nil, f, nil)
		return
	}
	at := attempt{email: me.Email, ip: clientIP(r)}
	if wait, why := a.throttle.wait(at); wait > 0 {
		f.Message = throttledMessage(r, why, wait)
		a.renderAccountWith(w, r, http.StatusTooManyRequests, nil, f, nil)
		return
	}
	if _, err := owner.Authenticate(r.Context(), a.db, me.Email, f.Raw("tf_password")); errors.Is(err, owner.ErrInvalidCredentials) {
		a.throttle.fail(at)
		f.SetError("tf_password", translate(r, "account.password.current.wrong"))
		a.renderAccountWith(w, r, http.StatusUnprocessableEntity, nil, f, nil)
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	if action == "codes" {
		codes, err := a.twofa.RegenerateRecoveryCodes(r.Context(), me.ID, a.now())
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		a.renderAccountWith(w, r, http.StatusOK, nil, nil, codes)
		return
	}
	if required, err := a.twofa.Required(r.Context()); err != nil {
		a.renderError(w, r, err)
		return
	} else if required && requiresTwoFactor(me) {
		f.Message = translate(r, "twofactor.off.required")
		a.renderAccountWith(w, r, http.StatusUnprocessableEntity, nil, f, nil)
		return
	}
	if err := a.twofa.Disable(r.Context(), me.ID); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.log.InfoContext(r.Context(), "two-factor turned off", slog.Int64("owner_id", me.ID))
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "twofactor.disabled"))
	seeOther(w, r, "/account#two-factor")
}

// setTwoFactorRule switches "require two-factor for owners and managers".
func (a *Admin) setTwoFactorRule(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if err := a.twofa.SetRequired(r.Context(), f.Get("require_two_factor") == "1", a.now()); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "twofactor.rule.saved"))
	seeOther(w, r, "/settings/team")
}

// twoFactorRuleForm is the rule's form as stored.
func (a *Admin) twoFactorRuleForm(r *http.Request) (*ui.Form, error) {
	required, err := a.twofa.Required(r.Context())
	if err != nil {
		return nil, err
	}
	f := ui.NewForm(nil)
	if required {
		f.Set("require_two_factor", "1")
	}
	return f, nil
}
