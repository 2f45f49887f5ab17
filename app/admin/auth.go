package admin

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/activity"
	"frontdesk/app/middleware"
	"frontdesk/app/owner"
	"frontdesk/app/staff"
	"frontdesk/ui"
)

// ownerFrom returns the signed-in account (of any role) put in the context by requireOwner;
// staff.AccountFrom reads the same for code outside this package.
func ownerFrom(ctx context.Context) (owner.Owner, bool) { return staff.AccountFrom(ctx) }

// requireOwner lets a request through only with a session of an account that still exists,
// is not disabled and has not changed its password since signing in; anyone else goes to the
// sign-in page. The account is read again on every request, so a role changed or an account
// disabled counts from the next one.
func (a *Admin) requireOwner(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if id := a.sessions.GetInt64(ctx, keyOwnerID); id != 0 {
			o, err := owner.Get(ctx, a.db, id)
			if err != nil && !errors.Is(err, owner.ErrNotFound) {
				a.renderError(w, r, err)
				return
			}
			if err == nil && !o.Disabled && o.Stamp == a.sessions.GetString(ctx, keyStamp) {
				// A session signed out from the account page (account_sessions.go) ends here.
				listed, err := a.sessionListed(r, o)
				if err != nil {
					a.renderError(w, r, err)
					return
				}
				if listed {
					ctx = withOwnerLanguage(staff.WithAccount(ctx, o), o.Language)
					ctx = activity.WithActor(ctx, activity.Actor{Kind: activity.KindOwner, ID: strconv.FormatInt(o.ID, 10), Label: o.Email})
					if a.mustEnrol(w, r.WithContext(ctx), o) {
						return
					}
					next.ServeHTTP(w, r.WithContext(ctx))
					return
				}
			}
			if err := a.sessions.Destroy(ctx); err != nil {
				a.renderError(w, r, err)
				return
			}
		}
		a.redirectToLogin(w, r)
	})
}

// redirectToLogin sends the browser to sign in, then back to the page it asked for (only for
// GET: a form post cannot be replayed after a redirect). htmx requests get HX-Redirect, so the
// whole page changes instead of the sign-in form landing inside the current one.
func (a *Admin) redirectToLogin(w http.ResponseWriter, r *http.Request) {
	to := "/login"
	if r.Method == http.MethodGet && r.URL.Path != "/" {
		to += "?next=" + url.QueryEscape(r.URL.RequestURI())
	}
	if r.Header.Get("HX-Request") == "true" {
		w.Header().Set("HX-Redirect", to)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	seeOther(w, r, to)
}

// safeNext keeps a post-sign-in destination only if it is a path on this site: never another
// host ("//evil", "/\evil", "https://evil"), never back to the sign-in page.
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.ContainsAny(next, "\\\r\n\t") || len(next) > 2000 {
		return "/"
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Path == "/login" || u.Path == "/logout" {
		return "/"
	}
	return next
}

// clientIP is the real client's address: the connection's, or behind a proxy listed in
// --trusted-proxies the one it vouches for (middleware.ClientIP; X-Forwarded-For from anyone
// else is ignored).
func clientIP(r *http.Request) string { return middleware.ClientIP(r) }

// signIn starts a fresh session for o: a new token (so a token planted before sign-in is
// worthless — session fixation), remembering the password stamp.
func (a *Admin) signIn(ctx context.Context, o owner.Owner) error {
	if err := a.sessions.RenewToken(ctx); err != nil {
		return err
	}
	a.sessions.Put(ctx, keyOwnerID, o.ID)
	a.sessions.Put(ctx, keyStamp, o.Stamp)
	if err := a.listSession(ctx, o); err != nil {
		return err
	}
	if n, err := (sessionStore{db: a.db}).pruneExpired(ctx); err != nil {
		a.log.WarnContext(ctx, "prune sessions", slog.Any("err", err))
	} else if n > 0 {
		a.log.InfoContext(ctx, "pruned expired sessions", slog.Int64("count", n))
	}
	return nil
}

func (a *Admin) showLogin(w http.ResponseWriter, r *http.Request) {
	next := safeNext(r.URL.Query().Get("next"))
	if a.sessions.GetInt64(r.Context(), keyOwnerID) != 0 {
		seeOther(w, r, next)
		return
	}
	a.render(w, r, http.StatusOK, ui.LoginPage(a.page(r, translate(r, "auth.signin.title")), ui.NewForm(nil), next, a.setupPending(r.Context())))
}

func (a *Admin) login(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	next := safeNext(f.Get("next"))
	email := strings.ToLower(f.Get("email"))
	password := f.Raw("password")
	fail := func(status int, msg string) {
		f.Message = msg
		a.render(w, r, status, ui.LoginPage(a.page(r, translate(r, "auth.signin.title")), f, next, a.setupPending(r.Context())))
	}
	if email == "" || password == "" {
		fail(http.StatusUnprocessableEntity, translate(r, "auth.signin.missing"))
		return
	}
	at := attempt{email: email, ip: clientIP(r)}
	if at.device, err = a.devices.trusted(r.Context(), r, email); err != nil {
		// Without the key every device is new: sign-in goes on under the stricter limits.
		a.log.WarnContext(r.Context(), "device cookie", slog.Any("err", err))
	}
	if wait, why := a.throttle.wait(at); wait > 0 {
		a.log.WarnContext(r.Context(), "sign-in throttled", slog.String("email", email), slog.String("ip", at.ip),
			slog.Bool("trusted_device", at.device != ""), slog.String("limit", why))
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
		fail(http.StatusTooManyRequests, throttledMessage(r, why, wait))
		return
	}
	o, err := owner.Authenticate(r.Context(), a.db, email, password)
	if errors.Is(err, owner.ErrDisabled) {
		fail(http.StatusForbidden, translate(r, "auth.signin.disabled"))
		return
	}
	if errors.Is(err, owner.ErrInvalidCredentials) {
		a.throttle.fail(at)
		// The address and the email typed, never the password; the actor is who tried.
		failed := activity.WithActor(r.Context(), activity.Actor{Kind: activity.KindOwner, Label: email})
		if err := activity.Write(failed, a.db, a.now(), activity.Entry{Action: "owner.sign_in_failed", Entity: "owner"}); err != nil {
			a.log.WarnContext(r.Context(), "activity", slog.Any("err", err))
		}
		a.log.InfoContext(r.Context(), "sign-in failed", slog.String("email", email), slog.String("ip", at.ip),
			slog.Bool("trusted_device", at.device != ""))
		fail(http.StatusUnprocessableEntity, translate(r, "auth.signin.wrong"))
		return
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.throttle.succeeded(at)
	if a.secondFactorStep(w, r, o, next) {
		return
	}
	a.completeSignIn(w, r, o, next)
}

// throttledMessage tells the owner why sign-in is paused and for how long, and — when it is
// not their device that is paused — that the devices they used before still get in.
func throttledMessage(r *http.Request, why string, wait time.Duration) string {
	mins := translate(r, "guard.signin.minutes", "count", int(math.Ceil(wait.Minutes())))
	switch why {
	case blockedDevice:
		return translate(r, "guard.signin.device_paused", "wait", mins)
	case blockedAccount:
		return translate(r, "guard.signin.account_paused", "wait", mins)
	default:
		return translate(r, "guard.signin.address_paused", "wait", mins)
	}
}

// logout ends the session on the server (its row is deleted, so the old cookie is worthless
// even if copied) and hands the browser a fresh, empty one.
func (a *Admin) logout(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if err := a.unlistSession(ctx); err != nil {
		a.renderError(w, r, err)
		return
	}
	if err := a.sessions.Destroy(ctx); err != nil {
		a.renderError(w, r, err)
		return
	}
	if err := a.sessions.RenewToken(ctx); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(ctx, ui.FlashInfo, translate(r, "auth.signed_out"))
	seeOther(w, r, "/login")
}

// setupPending reports whether no owner exists yet (first-run setup not finished).
func (a *Admin) setupPending(ctx context.Context) bool {
	n, err := owner.Count(ctx, a.db)
	return err == nil && n == 0
}
