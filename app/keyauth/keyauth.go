// Package keyauth authenticates requests by API key and counts them against the key's rate
// limits. It is the one implementation both key-authenticated surfaces use: the /v3 API
// (app/api) and the MCP endpoint (app/mcp). Each surface turns the outcomes into its own
// answers; the rules — how a Bearer key is read and looked up, when last use is recorded, how
// the windows count — live only here, and one Keys value shared by both surfaces means a key
// has one budget however it is used.
package keyauth

import (
	"context"
	"crypto/sha256"
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
	Name   string // the owner's name for the key, which the activity trail shows
	Scopes string // as stored: comma-separated Connect v3 scopes, or apikey.FullAccess ("*")
	// ZMeansLocal: the key's Z and +00:00 booking and cart times are wall-clock readings of
	// the location (app/api/zlocal.go; docs/api.md, "Local times sent with Z").
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
	kept    keptKeys // authenticated keys by token digest (Authenticate)
	// rounds reads the counters Authenticate needs for every request waiting at once (rounds.go).
	rounds versionRounds
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
	return &Keys{db: d, now: o.Now, log: o.Log, limiter: newLimiter(o.Limits), touched: touchLog{last: map[int64]time.Time{}},
		rounds: versionRounds{stamp: d.Stamp}}
}

// Authenticate resolves the Bearer key of an Authorization header value on every request, so
// a key revoked or changed by any path — the admin UI, `frontdesk apikey revoke` in another
// process, plain SQL — is refused or read afresh on the very next request. A key is kept by
// the digest of its token under the api_keys counter that triggers raise on any write to
// api_keys (db/migrations/00371_api_keys_counter.sql): each request reads that counter and
// the catalog version in one statement (AuthenticationVersions, two index probes; requests
// that arrive together share one reading taken after all of them arrived: rounds.go) and looks
// the key up only when the counter has moved since it was kept. Errors: ErrInvalidKey, or a
// database failure.
func (k *Keys) Authenticate(ctx context.Context, authorization string) (Key, error) {
	scheme, token, ok := strings.Cut(authorization, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || !strings.HasPrefix(token, apikey.Prefix) || len(token) > 200 {
		return Key{}, ErrInvalidKey
	}
	digest := apikey.Digest(token)
	// The counter is read before the key, so a key kept under a reading reflects every write
	// up to it (db.CountedCache's rule).
	v, err := k.rounds.read(ctx, k.db.R)
	if err != nil {
		return Key{}, err
	}
	key, ok := k.kept.lookup(digest, v.KeysVersion)
	if !ok {
		row, err := k.db.R.AuthenticateAPIKey(withoutCancel(ctx), apikey.HashOf(digest))
		if err != nil {
			if db.IsNotFound(err) { // unknown or revoked
				return Key{}, ErrInvalidKey
			}
			return Key{}, err
		}
		key = Key{ID: row.ID, Name: row.Name, Scopes: row.Scopes, ZMeansLocal: row.ZMeansLocal}
		k.kept.store(digest, v.KeysVersion, key)
	}
	key.CatalogVersion = v.CatalogVersion
	k.touch(ctx, key.ID)
	return key, nil
}

// withoutCancel is ctx for one of Authenticate's reads, each a few index probes: with the
// request's cancellable context database/sql and the driver would each start a goroutine to
// watch it, which costs as much again. It is made only for a statement that runs; most
// requests run none.
func withoutCancel(ctx context.Context) context.Context { return context.WithoutCancel(ctx) }

// maxKeptKeys bounds the kept keys: past it they start over. Only keys that authenticated are
// kept, so unknown tokens cannot fill it.
const maxKeptKeys = 1024

// keptKeys holds authenticated keys by their token's digest (apikey.Digest), each with the api_keys counter reading it
// was read under.
type keptKeys struct {
	mu   sync.RWMutex
	keys map[[sha256.Size]byte]keptKey
}

type keptKey struct {
	version int64
	key     Key
}

func (c *keptKeys) lookup(digest [sha256.Size]byte, v int64) (Key, bool) {
	c.mu.RLock()
	e, ok := c.keys[digest]
	c.mu.RUnlock()
	return e.key, ok && e.version == v
}

func (c *keptKeys) store(digest [sha256.Size]byte, v int64, key Key) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.keys[digest]; ok && e.version > v {
		return
	}
	if c.keys == nil || len(c.keys) >= maxKeptKeys {
		c.keys = map[[sha256.Size]byte]keptKey{}
	}
	c.keys[digest] = keptKey{v, key}
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
		err := k.db.W.TouchAPIKey(withoutCancel(ctx), db.TouchAPIKeyParams{LastUsedAt: db.NullMillis(&now), ID: keyID})
		if err != nil && !k.db.NoteWriteError(err) { // a full disk is reported once, elsewhere
			k.log.WarnContext(ctx, "record key use", "err", err)
		}
	}
}
