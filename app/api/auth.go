package api

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"frontdesk/app/apikey"
	"frontdesk/db"
)

type ctxKey int

const (
	keyCtx ctxKey = iota
)

// authKey is the API key a request authenticated with.
type authKey struct {
	ID     int64
	Scopes string
}

func keyFrom(ctx context.Context) authKey {
	k, _ := ctx.Value(keyCtx).(authKey)
	return k
}

// authenticate resolves the Bearer key on every request (a primary-key lookup on the read pool),
// so a revoked key stops working on the very next request.
func (a *API) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || !strings.HasPrefix(token, apikey.Prefix) || len(token) > 200 {
			a.writeError(w, r, newError(http.StatusUnauthorized, "unauthorized", "invalid_api_key"))
			return
		}
		row, err := a.db.R.GetAPIKeyByHash(r.Context(), apikey.Hash(token))
		if err != nil || row.RevokedAt.Valid {
			if err != nil && !db.IsNotFound(err) {
				a.writeError(w, r, err)
				return
			}
			a.writeError(w, r, newError(http.StatusUnauthorized, "unauthorized", "invalid_api_key"))
			return
		}
		a.touch(r.Context(), row.ID)
		ctx := context.WithValue(r.Context(), keyCtx, authKey{ID: row.ID, Scopes: row.Scopes})
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// requireScope wraps a handler with the Connect v3 scope it needs.
func (a *API) requireScope(scope string, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !apikey.Allows(keyFrom(r.Context()).Scopes, scope) {
			a.writeError(w, r, newError(http.StatusForbidden, "forbidden", "scope_denied"))
			return
		}
		h(w, r)
	}
}

// touchEvery limits last_used_at writes to one per key per interval, so reads never queue
// behind the single writer connection.
const touchEvery = time.Minute

type touchLog struct {
	mu   sync.Mutex
	last map[int64]time.Time
}

func (a *API) touch(ctx context.Context, keyID int64) {
	now := a.now()
	a.touched.mu.Lock()
	due := now.Sub(a.touched.last[keyID]) >= touchEvery
	if due {
		a.touched.last[keyID] = now
	}
	a.touched.mu.Unlock()
	if due {
		if err := a.db.W.TouchAPIKey(ctx, db.TouchAPIKeyParams{LastUsedAt: nullMillis(now), ID: keyID}); err != nil {
			a.log.WarnContext(ctx, "record key use", "err", err)
		}
	}
}
