// Package apikey makes and checks /v3 API keys: "apk_live_" followed by 32 random bytes in
// unpadded base64url, stored only as a SHA-256 hash, with Connect v3 scopes.
package apikey

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"frontdesk/app/activity"
	"frontdesk/app/input"
	"frontdesk/db"
)

// Prefix starts every key, so a leaked key is recognisable by secret scanners.
const Prefix = "apk_live_"

// Scopes are the Connect v3 scope names, plus products:read for the products catalogue (an
// addition: Connect v3 has no products operations).
var Scopes = []string{
	"bookings:read", "bookings:write",
	"clients:read", "clients:write",
	"locations:read", "services:read", "providers:read",
	"custom_attributes:read", "sales:read",
	"carts:write", "payment_requests:write",
	"products:read",
}

// FullAccess is the stored scope list of a key that may do everything. Full access is a named
// choice (`apikey create --full-access`, the "Full access" option in the admin UI), never an
// empty list: an empty list is a mistake (`--scopes ','`, nothing ticked) and is refused, and
// the database refuses to store one (migration 00220).
const FullAccess = "*"

// ErrNoScopes is returned by ParseScopes for a list that names no scope.
var ErrNoScopes = errors.New("no scopes given (choose full access explicitly, or name at least one scope)")

// Generate returns a new key. 32 random bytes is 256 bits, well over the 128 the spec asks for;
// a fast hash is enough because the key itself is unguessable (no need for a password hash).
func Generate() (key string, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return Prefix + base64.RawURLEncoding.EncodeToString(b), nil
}

// Hash is what the database stores and looks keys up by: Digest in hex.
func Hash(key string) string { return HashOf(Digest(key)) }

// Digest is the SHA-256 of key, a fixed-size value to keep keys by in memory.
func Digest(key string) [sha256.Size]byte {
	var buf [256]byte // a key fits: no copy of it on the heap
	if len(key) <= len(buf) {
		return sha256.Sum256(append(buf[:0], key...))
	}
	return sha256.Sum256([]byte(key))
}

// HashOf is the Hash of the key whose Digest is d.
func HashOf(d [sha256.Size]byte) string { return hex.EncodeToString(d[:]) }

// DisplayPrefix is the harmless start of a key shown in lists so owners can tell keys apart.
func DisplayPrefix(key string) string {
	if len(key) < len(Prefix)+4 {
		return key
	}
	return key[:len(Prefix)+4] + "…"
}

// ParseScopes validates a comma-separated scope list and returns it normalised (sorted,
// de-duplicated, joined with commas). A list that names no scope is ErrNoScopes; full access is
// not a scope list (see FullAccess).
func ParseScopes(s string) (string, error) {
	var out []string
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if !slices.Contains(Scopes, part) {
			return "", fmt.Errorf("unknown scope %q (known: %s)", part, strings.Join(Scopes, ", "))
		}
		if !slices.Contains(out, part) {
			out = append(out, part)
		}
	}
	if len(out) == 0 {
		return "", ErrNoScopes
	}
	slices.Sort(out)
	return strings.Join(out, ","), nil
}

// Allows reports whether a key's stored scope list grants scope. Only FullAccess grants
// everything; an empty list (which the database refuses to store) grants nothing.
func Allows(stored, scope string) bool {
	if stored == FullAccess {
		return true
	}
	for _, s := range strings.Split(stored, ",") {
		if s == scope {
			return true
		}
	}
	return false
}

// ScopeList is a stored scope list as names, nil for FullAccess.
func ScopeList(stored string) []string {
	if stored == FullAccess || stored == "" {
		return nil
	}
	return strings.Split(stored, ",")
}

// ErrNameRequired is returned by Create for a blank name.
var ErrNameRequired = errors.New("name is required")

// NewKey is a key to create. Scopes is FullAccess or a scope list for ParseScopes.
type NewKey struct {
	Name   string
	Scopes string
	// ZMeansLocal makes the API read a Z or +00:00 time in this key's booking and cart writes as
	// the location's wall clock (docs/api.md, "Local times sent with Z").
	ZMeansLocal bool
}

// Create stores a new key and returns it with the only copy of the key in clear.
func Create(ctx context.Context, d *db.DB, nk NewKey, now time.Time) (db.APIKey, string, error) {
	name := strings.TrimSpace(nk.Name)
	if name == "" || len(name) > 100 {
		return db.APIKey{}, "", fmt.Errorf("name: %w (1–100 characters)", ErrNameRequired)
	}
	if err := input.CheckName(name); err != nil {
		return db.APIKey{}, "", fmt.Errorf("name: %w", err)
	}
	scopes := FullAccess
	if nk.Scopes != FullAccess {
		var err error
		if scopes, err = ParseScopes(nk.Scopes); err != nil {
			return db.APIKey{}, "", err
		}
	}
	key, err := Generate()
	if err != nil {
		return db.APIKey{}, "", err
	}
	var row db.APIKey
	err = d.InTx(ctx, func(q *db.Queries) error {
		var err error
		row, err = q.CreateAPIKey(ctx, db.CreateAPIKeyParams{
			Name: name, Prefix: DisplayPrefix(key), KeyHash: Hash(key), Scopes: scopes, CreatedAt: db.Millis(now),
		})
		if err != nil {
			return err
		}
		// The trail keeps the key's name and access, never the key or its hash.
		ch := activity.Changes{}.Set("name", nil, name).Set("scopes", nil, scopes).Set("prefix", nil, row.Prefix)
		if err := activity.Record(ctx, q, now, activity.Entry{Action: "apikey.created", EntityID: row.ID, Changes: ch}); err != nil {
			return err
		}
		if !nk.ZMeansLocal {
			return nil
		}
		row.ZMeansLocal = true
		return q.SetAPIKeyZMeansLocal(ctx, db.SetAPIKeyZMeansLocalParams{ZMeansLocal: true, ID: row.ID})
	})
	if err != nil {
		return db.APIKey{}, "", fmt.Errorf("store key: %w", err)
	}
	return row, key, nil
}

// Revoke revokes key id at now: the key stops authenticating on the very next request of every
// surface (app/keyauth reads the keys' change counter), and it stays listed as revoked. revoked
// is false when there is no such key or it was revoked already (nothing is written then). Every
// revocation goes through here: the owner's settings page, `frontdesk apikey revoke`.
func Revoke(ctx context.Context, d *db.DB, id int64, now time.Time) (revoked bool, err error) {
	err = d.InTx(ctx, func(q *db.Queries) error {
		n, err := q.RevokeAPIKey(ctx, db.RevokeAPIKeyParams{RevokedAt: db.NullMillis(&now), ID: id})
		if revoked = n == 1; err != nil || !revoked {
			return err
		}
		name, err := q.APIKeyName(ctx, id)
		if err != nil {
			return err
		}
		return activity.Record(ctx, q, now, activity.Entry{Action: "apikey.revoked", EntityID: id,
			Changes: activity.Changes{"name": {name, name}}.Set("revoked", false, true)})
	})
	if err != nil {
		return false, fmt.Errorf("revoke key %d: %w", id, err)
	}
	return revoked, nil
}
