package api

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"frontdesk/app/activity"
	"frontdesk/app/keyauth"
	"frontdesk/app/middleware"
)

type ctxKey int

const (
	keyCtx ctxKey = iota
)

// authKey is the API key a request authenticated with.
type authKey = keyauth.Key

func keyFrom(ctx context.Context) authKey {
	k, _ := ctx.Value(keyCtx).(authKey)
	return k
}

// authenticate resolves the Bearer key on every request (app/keyauth: one indexed lookup, so a
// revoked key stops working on the very next request) and puts it in the context.
func (a *API) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.Header.Values("Authorization")) > 1 {
			// Which credential was meant cannot be guessed; a proxy adding its own header in
			// front of the client's must not decide whose key is used.
			a.writeError(w, r, badRequest("duplicate_authorization_header"))
			return
		}
		// An address that keeps failing is refused before any lookup (keyauth/failures.go); the
		// address is the real client's, behind a trusted proxy too (middleware.ClientIP).
		client := middleware.ClientIP(r)
		if wait := a.keys.FailuresBlock(client); wait > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(max(int(wait.Seconds()+0.999), 1)))
			a.writeError(w, r, newError(http.StatusTooManyRequests, "rate_limited", "too_many_failed_authentications"))
			return
		}
		key, err := a.keys.Authenticate(r.Context(), r.Header.Get("Authorization"))
		if err != nil {
			if errors.Is(err, keyauth.ErrInvalidKey) {
				a.keys.Failed(client)
				err = newError(http.StatusUnauthorized, "unauthorized", "invalid_api_key")
			}
			a.writeError(w, r, err)
			return
		}
		ctx := activity.WithActor(r.Context(), activity.Actor{Kind: activity.KindAPIKey, ID: strconv.FormatInt(key.ID, 10), Label: key.Name})
		next.ServeHTTP(w, r.WithContext(context.WithValue(ctx, keyCtx, key)))
	})
}

// requireScope wraps a handler with the Connect v3 scope it needs.
func (a *API) requireScope(scope string, h http.HandlerFunc) http.HandlerFunc {
	next := a.conditional(h) // after the check: no 304 or kept answer for a key without scope
	return func(w http.ResponseWriter, r *http.Request) {
		if !keyFrom(r.Context()).Allows(scope) {
			a.writeError(w, r, newError(http.StatusForbidden, "forbidden", "scope_denied"))
			return
		}
		next.ServeHTTP(w, r)
	}
}
