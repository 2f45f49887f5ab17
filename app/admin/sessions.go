package admin

import (
	"context"
	"encoding/gob"
	"log/slog"
	"net/http"
	"time"

	"github.com/alexedwards/scs/v2"

	"frontdesk/app/middleware"
	"frontdesk/db"
	"frontdesk/ui"
)

// Session lifetimes: an idle owner is signed out after 12 hours, anyone after 7 days.
const (
	sessionIdle     = 12 * time.Hour
	sessionLifetime = 7 * 24 * time.Hour
	sessionCookie   = "frontdesk_session"
)

// Session keys.
const (
	keyOwnerID   = "owner_id"
	keyStamp     = "owner_stamp" // owner.Owner.Stamp at sign-in; a password change invalidates it
	keyFlashes   = "flashes"
	keyNewAPIKey = "new_api_key"
)

func init() {
	// Session values travel through gob inside interface values.
	gob.Register([]ui.Flash(nil))
	gob.Register(ui.NewAPIKey{})
}

// sessionStore keeps scs sessions in the sessions table: reads on the read pool, writes on the
// writer. scs hands it tokens already hashed (HashTokenInStore), so the table never holds a
// token a thief could replay. Expiry is compared with the wall clock, as scs computes it.
type sessionStore struct{ db *db.DB }

var _ scs.CtxStore = sessionStore{}

func (s sessionStore) FindCtx(ctx context.Context, token string) ([]byte, bool, error) {
	b, err := s.db.R.FindSession(ctx, db.FindSessionParams{Token: token, ExpiryAt: time.Now().UnixMilli()})
	if db.IsNotFound(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return b, true, nil
}

func (s sessionStore) CommitCtx(ctx context.Context, token string, b []byte, expiry time.Time) error {
	return s.db.W.CommitSession(ctx, db.CommitSessionParams{Token: token, Data: b, ExpiryAt: expiry.UnixMilli()})
}

func (s sessionStore) DeleteCtx(ctx context.Context, token string) error {
	return s.db.W.DeleteSession(ctx, token)
}

func (s sessionStore) Find(token string) ([]byte, bool, error) {
	return s.FindCtx(context.Background(), token)
}

func (s sessionStore) Commit(token string, b []byte, expiry time.Time) error {
	return s.CommitCtx(context.Background(), token, b, expiry)
}

func (s sessionStore) Delete(token string) error { return s.DeleteCtx(context.Background(), token) }

// pruneExpired removes sessions past their expiry. It runs at sign-in, often enough for a
// table that grows by one row per sign-in.
func (s sessionStore) pruneExpired(ctx context.Context) (int64, error) {
	return s.db.W.DeleteExpiredSessions(ctx, time.Now().UnixMilli())
}

func newSessionManager(d *db.DB) *scs.SessionManager {
	sm := scs.New()
	sm.Store = sessionStore{db: d}
	sm.IdleTimeout = sessionIdle
	sm.Lifetime = sessionLifetime
	sm.HashTokenInStore = true
	sm.Cookie.Name = sessionCookie
	return sm
}

// loadSession is scs's LoadAndSave with one difference: the cookie is marked Secure whenever
// the request came over HTTPS (directly, or through a proxy listed in --trusted-proxies that
// says so; middleware.IsHTTPS), so the same binary
// works on plain http://localhost and behind TLS without a setting. It is HttpOnly and
// SameSite=Lax always.
func (a *Admin) loadSession(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Cookie")
		var token string
		if c, err := r.Cookie(sessionCookie); err == nil {
			token = c.Value
		}
		ctx, err := a.sessions.Load(r.Context(), token)
		if err != nil {
			a.log.ErrorContext(r.Context(), "load session", slog.Any("err", err))
			http.Error(w, "session unavailable", http.StatusInternalServerError)
			return
		}
		r = r.WithContext(ctx)
		sw := &sessionWriter{ResponseWriter: w, save: func() { a.saveSession(w, r) }}
		next.ServeHTTP(sw, r)
		sw.saveOnce()
	})
}

func (a *Admin) saveSession(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if r.Header.Get("X-Frontdesk-Poll") == "1" && a.sessions.Status(ctx) != scs.Destroyed {
		return // a background refresh (ui.PollHeaders) must not count as activity
	}
	c := &http.Cookie{
		Name: sessionCookie, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: middleware.IsHTTPS(r),
	}
	switch a.sessions.Status(ctx) {
	case scs.Modified:
		// Committed even when the client has gone (its context cancelled): the answer was
		// decided with this session state, and a client that only stopped sending still reads it.
		token, expiry, err := a.sessions.Commit(context.WithoutCancel(ctx))
		if err != nil {
			// The response is already decided; the change is lost and the owner sees it. A
			// full disk is reported once by the storage watcher and shown in a banner.
			level := slog.LevelError
			if a.db.NoteWriteError(err) {
				level = slog.LevelWarn
			}
			a.log.Log(ctx, level, "commit session", slog.Any("err", err))
			return
		}
		c.Value = token
		c.Expires = time.Unix(expiry.Unix()+1, 0)
		c.MaxAge = int(time.Until(expiry).Seconds() + 1)
	case scs.Destroyed:
		c.Expires = time.Unix(1, 0)
		c.MaxAge = -1
	default:
		return
	}
	w.Header().Add("Set-Cookie", c.String())
	w.Header().Add("Cache-Control", `no-cache="Set-Cookie"`)
}

// sessionWriter saves the session just before the response's headers go out.
type sessionWriter struct {
	http.ResponseWriter
	save  func()
	saved bool
}

func (sw *sessionWriter) saveOnce() {
	if !sw.saved {
		sw.saved = true
		sw.save()
	}
}

func (sw *sessionWriter) WriteHeader(code int) {
	sw.saveOnce()
	sw.ResponseWriter.WriteHeader(code)
}

func (sw *sessionWriter) Write(b []byte) (int, error) {
	sw.saveOnce()
	return sw.ResponseWriter.Write(b)
}

func (sw *sessionWriter) Unwrap() http.ResponseWriter { return sw.ResponseWriter }

// flash queues a message for the next page the owner sees.
func (a *Admin) flash(ctx context.Context, kind, msg string) {
	fs, _ := a.sessions.Get(ctx, keyFlashes).([]ui.Flash)
	a.sessions.Put(ctx, keyFlashes, append(fs, ui.Flash{Kind: kind, Message: msg}))
}

func (a *Admin) popFlashes(ctx context.Context) []ui.Flash {
	fs, _ := a.sessions.Pop(ctx, keyFlashes).([]ui.Flash)
	return fs
}
