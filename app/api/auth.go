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
	// CatalogVersion is the catalog version read with the key (db.CatalogCache): handlers use
	// it to answer from the catalog cache without a statement of their own.
	CatalogVersion int64
}

func keyFrom(ctx context.Context) authKey {
	k, _ := ctx.Value(keyCtx).(authKey)
	return k
}

// authenticate resolves the Bearer key on every request (one indexed lookup on the read pool, a
// prepared statement), so a key revoked by any path — the admin UI or `frontdesk apikey revoke`
// in another process — stops working on the very next request. No in-process cache could
// promise that for a revocation made by another process. The same statement reads the catalog
// version for the handlers.
func (a *API) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || !strings.HasPrefix(token, apikey.Prefix) || len(token) > 200 {
			a.writeError(w, r, newError(http.StatusUnauthorized, "unauthorized", "invalid_api_key"))
			return
		}
		// The lookup is one index probe; with the request's cancellable context database/sql
		// and the driver would each start a goroutine to watch it, which costs as much again.
		row, err := a.db.R.AuthenticateAPIKey(context.WithoutCancel(r.Context()), apikey.Hash(token))
		if err != nil {
			if !db.IsNotFound(err) { // not found: unknown or revoked
				a.writeError(w, r, err)
				return
			}
			a.writeError(w, r, newError(http.StatusUnauthorized, "unauthorized", "invalid_api_key"))
			return
		}
		a.touch(r.Context(), row.ID)
		ctx := context.WithValue(r.Context(), keyCtx, authKey{ID: row.ID, Scopes: row.Scopes, CatalogVersion: row.CatalogVersion})
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
