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

	"frontdesk/app/input"
	"frontdesk/db"
)

// Prefix starts every key, so a leaked key is recognisable by secret scanners.
const Prefix = "apk_live_"

// Scopes are the Connect v3 scope names. An empty scope list means full access.
var Scopes = []string{
	"bookings:read", "bookings:write",
	"clients:read", "clients:write",
	"locations:read", "services:read", "providers:read",
	"custom_attributes:read", "sales:read",
	"carts:write", "payment_requests:write",
}

// Generate returns a new key. 32 random bytes is 256 bits, well over the 128 the spec asks for;
// a fast hash is enough because the key itself is unguessable (no need for a password hash).
func Generate() (key string, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return Prefix + base64.RawURLEncoding.EncodeToString(b), nil
}

// Hash is what the database stores and looks keys up by.
func Hash(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// DisplayPrefix is the harmless start of a key shown in lists so owners can tell keys apart.
func DisplayPrefix(key string) string {
	if len(key) < len(Prefix)+4 {
		return key
	}
	return key[:len(Prefix)+4] + "…"
}

// ParseScopes validates a comma-separated scope list and returns it normalised (sorted,
// de-duplicated, joined with commas). The empty string means full access.
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
	slices.Sort(out)
	return strings.Join(out, ","), nil
}

// Allows reports whether a key's stored scope list grants scope.
func Allows(stored, scope string) bool {
	if stored == "" {
		return true
	}
	for _, s := range strings.Split(stored, ",") {
		if s == scope {
			return true
		}
	}
	return false
}

// ErrNameRequired is returned by Create for a blank name.
var ErrNameRequired = errors.New("name is required")

// Create stores a new key and returns it with the only copy of the key in clear.
func Create(ctx context.Context, d *db.DB, name, scopes string, now time.Time) (db.APIKey, string, error) {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 100 {
		return db.APIKey{}, "", fmt.Errorf("name: %w (1–100 characters)", ErrNameRequired)
	}
	if err := input.CheckName(name); err != nil {
		return db.APIKey{}, "", fmt.Errorf("name: %w", err)
	}
	scopes, err := ParseScopes(scopes)
	if err != nil {
		return db.APIKey{}, "", err
	}
	key, err := Generate()
	if err != nil {
		return db.APIKey{}, "", err
	}
	row, err := d.W.CreateAPIKey(ctx, db.CreateAPIKeyParams{
		Name: name, Prefix: DisplayPrefix(key), KeyHash: Hash(key), Scopes: scopes, CreatedAt: db.Millis(now),
	})
	if err != nil {
		return db.APIKey{}, "", fmt.Errorf("store key: %w", err)
	}
	return row, key, nil
}
