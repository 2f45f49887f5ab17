package admin

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"frontdesk/db"
)

// Device cookies, as OWASP's "Slow Down Online Guessing Attacks with Device Cookies" describes
// them: a browser that signs in to an account gets a cookie naming that account, signed with
// the installation's key (signing_keys.device_cookie). Presenting a valid one marks a sign-in
// attempt as coming from a trusted device, which throttle.go counts on its own — so guessers
// elsewhere cannot lock the owner out of their own devices. The cookie proves only that the
// browser once knew the account's password; it never signs anyone in by itself.
//
// One cookie holds up to maxDeviceEntries accounts (owners who share a front-desk computer),
// newest first; each entry is base64url(payload) "." base64url(HMAC-SHA256(payload)), with
// payload "1|<email>|<nonce>|<issued Unix seconds>". Entries expire after deviceTTL and every
// successful sign-in replaces its account's entry with a fresh nonce.
const (
	deviceCookie     = "frontdesk_device"
	deviceTTL        = 365 * 24 * time.Hour
	maxDeviceEntries = 5
	deviceKeyName    = "device_cookie"
)

type devices struct {
	db  *db.DB
	now func() time.Time

	mu  sync.Mutex
	key []byte // loaded (or made) on first use
}

// signingKey returns the installation's device-cookie key, making it the first time. Made in
// one transaction with INSERT … ON CONFLICT DO NOTHING, so two processes agree on one key.
func (d *devices) signingKey(ctx context.Context) ([]byte, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.key != nil {
		return d.key, nil
	}
	fresh := make([]byte, 32)
	rand.Read(fresh)
	var key []byte
	err := d.db.InTx(ctx, func(q *db.Queries) error {
		if err := q.InsertSigningKey(ctx, db.InsertSigningKeyParams{Name: deviceKeyName, Secret: fresh, CreatedAt: db.Millis(d.now())}); err != nil {
			return err
		}
		var err error
		key, err = q.GetSigningKey(ctx, deviceKeyName)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("device cookie key: %w", err)
	}
	d.key = key
	return key, nil
}

// deviceEntry is one account's entry in the cookie.
type deviceEntry struct {
	email, nonce string
	issued       time.Time
	raw          string
}

// trusted returns the nonce of a valid entry for email in r's device cookie, or "". A missing,
// forged, expired or foreign entry makes the attempt untrusted, nothing worse.
func (d *devices) trusted(ctx context.Context, r *http.Request, email string) (string, error) {
	c, err := r.Cookie(deviceCookie)
	if err != nil {
		return "", nil
	}
	key, err := d.signingKey(ctx)
	if err != nil {
		return "", err
	}
	for _, e := range d.entries(key, c.Value) {
		if e.email == email {
			return e.nonce, nil
		}
	}
	return "", nil
}

// entries are the valid entries of a cookie value.
func (d *devices) entries(key []byte, value string) []deviceEntry {
	var out []deviceEntry
	parts := strings.Split(value, "~")
	if len(parts) > maxDeviceEntries {
		parts = parts[:maxDeviceEntries]
	}
	for _, raw := range parts {
		if e, ok := d.parse(key, raw); ok {
			out = append(out, e)
		}
	}
	return out
}

func (d *devices) parse(key []byte, raw string) (deviceEntry, bool) {
	p64, m64, ok := strings.Cut(raw, ".")
	if !ok {
		return deviceEntry{}, false
	}
	payload, err1 := base64.RawURLEncoding.DecodeString(p64)
	mac, err2 := base64.RawURLEncoding.DecodeString(m64)
	if err1 != nil || err2 != nil || !hmac.Equal(mac, sign(key, payload)) {
		return deviceEntry{}, false
	}
	f := strings.Split(string(payload), "|")
	if len(f) != 4 || f[0] != "1" {
		return deviceEntry{}, false
	}
	sec, err := strconv.ParseInt(f[3], 10, 64)
	if err != nil {
		return deviceEntry{}, false
	}
	issued := time.Unix(sec, 0)
	if age := d.now().Sub(issued); age < -time.Minute || age > deviceTTL {
		return deviceEntry{}, false
	}
	return deviceEntry{email: f[1], nonce: f[2], issued: issued, raw: raw}, true
}

func sign(key, payload []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(payload)
	return m.Sum(nil)
}

// issue gives r's browser a fresh entry for email, first in its device cookie, keeping the
// valid entries of other accounts.
func (d *devices) issue(ctx context.Context, w http.ResponseWriter, r *http.Request, email string) error {
	key, err := d.signingKey(ctx)
	if err != nil {
		return err
	}
	nonce := make([]byte, 16)
	rand.Read(nonce)
	payload := []byte("1|" + email + "|" + hex.EncodeToString(nonce) + "|" + strconv.FormatInt(d.now().Unix(), 10))
	list := []string{base64.RawURLEncoding.EncodeToString(payload) + "." + base64.RawURLEncoding.EncodeToString(sign(key, payload))}
	if c, err := r.Cookie(deviceCookie); err == nil {
		for _, e := range d.entries(key, c.Value) {
			if e.email != email && len(list) < maxDeviceEntries {
				list = append(list, e.raw)
			}
		}
	}
	http.SetCookie(w, &http.Cookie{
		Name: deviceCookie, Value: strings.Join(list, "~"), Path: "/login",
		MaxAge: int(deviceTTL / time.Second), HttpOnly: true, SameSite: http.SameSiteStrictMode,
		Secure: r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https"),
	})
	return nil
}
