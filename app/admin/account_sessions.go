package admin

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/errpage"
	"frontdesk/app/owner"
	"frontdesk/db"
	"frontdesk/ui"
)

// Each account's sessions (docs/security.md "Sessions"): every signed-in session carries a
// random id (keySessionID) whose SHA-256 names a row of owner_sessions, which the account
// page lists with its browser, address and times, and which "sign out" deletes. requireOwner
// lets a session through only while its row exists, so deleting the row signs that browser
// out at its next request, wherever it is.

const (
	keySessionID = "session_id"
	// touchEvery bounds the writes a busy session makes: its row's last-seen time, address
	// and browser are updated at most this often (or when the address or browser changes).
	touchEvery = time.Minute
)

func sidHash(sid string) string {
	sum := sha256.Sum256([]byte(sid))
	return hex.EncodeToString(sum[:])
}

// listSession gives the session just signed in to o a new id and row, dropping the row of the
// id it had before (a password change signs in again) and rows past their lifetime.
func (a *Admin) listSession(ctx context.Context, o owner.Owner) error {
	if old := a.sessions.GetString(ctx, keySessionID); old != "" {
		if err := a.db.W.DeleteOwnerSessionBySID(ctx, sidHash(old)); err != nil {
			return err
		}
	}
	raw := make([]byte, 32)
	rand.Read(raw)
	sid := hex.EncodeToString(raw)
	now := a.now()
	if err := a.db.W.InsertOwnerSession(ctx, db.InsertOwnerSessionParams{OwnerID: o.ID, SidHash: sidHash(sid),
		CreatedAt: db.Millis(now), LastSeenAt: db.Millis(now)}); err != nil {
		return err
	}
	a.sessions.Put(ctx, keySessionID, sid)
	if _, err := a.db.W.DeleteStaleOwnerSessions(ctx, db.DeleteStaleOwnerSessionsParams{
		SeenBefore: db.Millis(now.Add(-sessionIdle)), CreatedBefore: db.Millis(now.Add(-sessionLifetime))}); err != nil {
		a.log.WarnContext(ctx, "prune account sessions", slog.Any("err", err))
	}
	return nil
}

// sessionListed reports whether r's session of o still has its row, and notes the request on
// it. A session signed in before sessions were listed gets a row now.
func (a *Admin) sessionListed(r *http.Request, o owner.Owner) (bool, error) {
	ctx := r.Context()
	sid := a.sessions.GetString(ctx, keySessionID)
	if sid == "" {
		if err := a.listSession(ctx, o); err != nil {
			// The session was valid before it was listed; only the list misses it for now.
			a.log.WarnContext(ctx, "list session", slog.Any("err", err))
		}
		return true, nil
	}
	row, err := a.db.R.GetOwnerSession(ctx, sidHash(sid))
	if db.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if row.OwnerID != o.ID {
		return false, nil
	}
	if r.Header.Get("X-Frontdesk-Poll") == "1" {
		return true, nil // a background refresh is not the owner's activity
	}
	now := a.now()
	ip, ua := clientIP(r), userAgent(r)
	if now.Sub(db.Time(row.LastSeenAt)) >= touchEvery || row.IP != ip || row.UserAgent != ua {
		if err := a.db.W.TouchOwnerSession(ctx, db.TouchOwnerSessionParams{LastSeenAt: db.Millis(now), IP: ip, UserAgent: ua, ID: row.ID}); err != nil {
			// Only the list's details are late; the request goes on.
			a.log.WarnContext(ctx, "touch account session", slog.Any("err", err))
		}
	}
	return true, nil
}

// unlistSession drops the row of r's session (signing out).
func (a *Admin) unlistSession(ctx context.Context) error {
	if sid := a.sessions.GetString(ctx, keySessionID); sid != "" {
		return a.db.W.DeleteOwnerSessionBySID(ctx, sidHash(sid))
	}
	return nil
}

// currentSessionID is the row id of the request's session (0 if it has none).
func (a *Admin) currentSessionID(ctx context.Context) int64 {
	sid := a.sessions.GetString(ctx, keySessionID)
	if sid == "" {
		return 0
	}
	row, err := a.db.R.GetOwnerSession(ctx, sidHash(sid))
	if err != nil {
		return 0
	}
	return row.ID
}

// endOtherSessions signs out every session of o but this one.
func (a *Admin) endOtherSessions(ctx context.Context, o owner.Owner) (int64, error) {
	return a.db.W.DeleteOtherOwnerSessions(ctx, db.DeleteOtherOwnerSessionsParams{OwnerID: o.ID, KeepID: a.currentSessionID(ctx)})
}

// sessionRows are the account page's list of o's live sessions.
func (a *Admin) sessionRows(r *http.Request, o owner.Owner) ([]ui.SessionRow, error) {
	now := a.now()
	rows, err := a.db.R.ListOwnerSessions(r.Context(), db.ListOwnerSessionsParams{OwnerID: o.ID,
		SeenAfter: db.Millis(now.Add(-sessionIdle)), CreatedAfter: db.Millis(now.Add(-sessionLifetime))})
	if err != nil {
		return nil, err
	}
	current := a.currentSessionID(r.Context())
	out := make([]ui.SessionRow, 0, len(rows))
	for _, s := range rows {
		out = append(out, ui.SessionRow{ID: s.ID, Device: deviceLabel(r, s.UserAgent), IP: s.IP,
			LastSeen: db.Time(s.LastSeenAt), Created: db.Time(s.CreatedAt), Current: s.ID == current})
	}
	return out, nil
}

func (a *Admin) endSession(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
	if err != nil {
		a.renderError(w, r, errpage.NotFound)
		return
	}
	me, _ := ownerFrom(r.Context())
	current := a.currentSessionID(r.Context())
	n, err := a.db.W.DeleteOwnerSession(r.Context(), db.DeleteOwnerSessionParams{ID: id, OwnerID: me.ID})
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if n == 0 {
		a.renderError(w, r, errpage.NotFound)
		return
	}
	if id == current {
		a.logout(w, r)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "sessions.ended"))
	seeOther(w, r, "/account#sessions")
}

func (a *Admin) endOtherSessionsHandler(w http.ResponseWriter, r *http.Request) {
	me, _ := ownerFrom(r.Context())
	n, err := a.endOtherSessions(r.Context(), me)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.log.InfoContext(r.Context(), "signed out other sessions", slog.Int64("owner_id", me.ID), slog.Int64("count", n))
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "sessions.others_ended", "count", n))
	seeOther(w, r, "/account#sessions")
}

// userAgent is the request's User-Agent, bounded for storage.
func userAgent(r *http.Request) string {
	ua := r.UserAgent()
	if len(ua) > 300 {
		ua = ua[:300]
	}
	return ua
}

// deviceLabel names a browser and system from a User-Agent, well enough for an owner to tell
// their phone from their laptop ("Firefox on Windows"); anything else is "Unknown browser".
func deviceLabel(r *http.Request, ua string) string {
	browser := ""
	for _, b := range []struct{ token, name string }{
		{"Edg/", "Edge"}, {"OPR/", "Opera"}, {"SamsungBrowser/", "Samsung Internet"}, {"Firefox/", "Firefox"},
		{"FxiOS/", "Firefox"}, {"CriOS/", "Chrome"}, {"Chrome/", "Chrome"}, {"Safari/", "Safari"},
	} {
		if strings.Contains(ua, b.token) {
			browser = b.name
			break
		}
	}
	system := ""
	for _, s := range []struct{ token, name string }{
		{"iPhone", "iPhone"}, {"iPad", "iPad"}, {"Android", "Android"}, {"Windows", "Windows"},
		{"Mac OS X", "macOS"}, {"CrOS", "ChromeOS"}, {"Linux", "Linux"},
	} {
		if strings.Contains(ua, s.token) {
			system = s.name
			break
		}
	}
	switch {
	case browser != "" && system != "":
		return translate(r, "sessions.device", "browser", browser, "system", system)
	case browser != "":
		return browser
	case system != "":
		return system
	default:
		return translate(r, "sessions.device.unknown")
	}
}
