// Package keyauth authenticates requests by API key and counts them against the key's rate
// limits. It is the one implementation both key-authenticated surfaces use: the /v3 API
// (app/api) and the MCP endpoint (app/mcp). Each surface turns the outcomes into its own
// answers; the rules — how a Bearer key is read and looked up, when last use is recorded, how
// the windows count — live only here, and one Keys value shared by both surfaces means a key
// has one budget however it is used.
package keyauth

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"

	"frontdesk/app/apikey"
	"frontdesk/db"
)

// Key is the API key a request authenticated with.
type Key struct {
	ID     int64
	Scopes string // as stored: comma-separated Connect v3 scopes, or apikey.FullAccess ("*")
	// ZMeansLocal: the key's Z and +00:00 booking and cart times are wall-clock readings of
	// the location (app/api/zlocal.go, issue 10).
	ZMeansLocal bool
	// CatalogVersion is the catalog version read with the key (db.CatalogCache): handlers use
	// it to answer from the catalog cache without a statement of their own.
	CatalogVersion int64
}

// Allows reports whether the key grants scope.
func (k Key) Allows(scope string) bool { return apikey.Allows(k.Scopes, scope) }

// ErrInvalidKey is a missing, malformed, unknown or revoked key.
var ErrInvalidKey = errors.New("invalid_api_key")

// Options configure Keys.
type Options struct {
	Now    func() time.Time
	Log    *slog.Logger
	Limits Limits
}

// Keys authenticates keys and keeps their rate-limit windows.
type Keys struct {
	db      *db.DB
	now     func() time.Time
	log     *slog.Logger
	limiter *limiter
	touched touchLog
	// failures limits failed authentications per client address (failures.go).
	failures failures
}

// New returns Keys over d.
func New(d *db.DB, o Options) *Keys {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return &Keys{db: d, now: o.Now, log: o.Log, limiter: newLimiter(o.Limits), touched: touchLog{last: map[int64]time.Time{}}}
}

// Authenticate resolves the Bearer key of an Authorization header value on every request (one
// indexed lookup on the read pool, a prepared statement), so a key revoked by any path — the
// admin UI or `frontdesk apikey revoke` in another process — stops working on the very next
// request. No in-process cache could promise that for a revocation made by another process.
// The same statement reads the catalog version for the handlers. Errors: ErrInvalidKey, or a
// database failure.
func (k *Keys) Authenticate(ctx context.Context, authorization string) (Key, error) {
	scheme, token, ok := strings.Cut(authorization, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || !strings.HasPrefix(token, apikey.Prefix) || len(token) > 200 {
		return Key{}, ErrInvalidKey
	}
	// The lookup is one index probe; with the request's cancellable context database/sql and
	// the driver would each start a goroutine to watch it, which costs as much again.
	row, err := k.db.R.AuthenticateAPIKey(context.WithoutCancel(ctx), apikey.Hash(token))
	if err != nil {
		if db.IsNotFound(err) { // unknown or revoked
			return Key{}, ErrInvalidKey
		}
		return Key{}, err
	}
	k.touch(ctx, row.ID)
	return Key{ID: row.ID, Scopes: row.Scopes, ZMeansLocal: row.ZMeansLocal, CatalogVersion: row.CatalogVersion}, nil
}

// touchEvery limits last_used_at writes to one per key per interval, so reads never queue
// behind the single writer connection.
const touchEvery = time.Minute

type touchLog struct {
	mu   sync.Mutex
	last map[int64]time.Time
}

func (k *Keys) touch(ctx context.Context, keyID int64) {
	now := k.now()
	k.touched.mu.Lock()
	due := now.Sub(k.touched.last[keyID]) >= touchEvery
	if due {
		k.touched.last[keyID] = now
	}
	k.touched.mu.Unlock()
	if due {
		err := k.db.W.TouchAPIKey(ctx, db.TouchAPIKeyParams{LastUsedAt: db.NullMillis(&now), ID: keyID})
		if err != nil && !k.db.NoteWriteError(err) { // a full disk is reported once, elsewhere
			k.log.WarnContext(ctx, "record key use", "err", err)
		}
	}
}
