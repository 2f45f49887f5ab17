package webhook

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Header names from the Standard Webhooks specification. Receivers look
// them up case-insensitively; http.Header canonicalises them on the wire.
const (
	HeaderID        = "webhook-id"
	HeaderTimestamp = "webhook-timestamp"
	HeaderSignature = "webhook-signature"
)

// secretPrefix marks a secret as a Standard Webhooks secret so that any
// library's constructor accepts it as is.
const secretPrefix = "whsec_"

// Key length bounds. We generate 32-byte keys; 24 bytes is the shortest key
// the Standard Webhooks reference vectors use, and anything shorter is too
// weak to accept. 64 bytes is SHA-256's block size: longer keys are hashed
// down by HMAC anyway, so they only suggest a mistake (e.g. a pasted PEM).
const (
	secretKeyBytes = 32
	minKeyBytes    = 24
	maxKeyBytes    = 64
)

// ErrInvalidSecret is wrapped by every ParseSecret error so callers can tell
// a bad secret from other failures.
var ErrInvalidSecret = errors.New("invalid webhook secret")

// NewSecret returns a fresh signing secret, "whsec_" + base64(32 random
// bytes) in standard encoding with padding. It is shown to the owner once
// (docs/webhooks.md); store it as returned and call ParseSecret when signing.
func NewSecret() (string, error) {
	key := make([]byte, secretKeyBytes)
	if _, err := rand.Read(key); err != nil {
		return "", fmt.Errorf("generate webhook secret: %w", err)
	}
	return secretPrefix + base64.StdEncoding.EncodeToString(key), nil
}

// ParseSecret returns the HMAC key inside a secret: the base64 part after
// the optional "whsec_" prefix, decoded. The prefix is optional because
// Standard Webhooks libraries accept both forms and owners paste both.
func ParseSecret(s string) ([]byte, error) {
	b64 := strings.TrimPrefix(s, secretPrefix)
	if b64 == "" {
		return nil, fmt.Errorf("%w: empty", ErrInvalidSecret)
	}
	key, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, fmt.Errorf("%w: the part after %q is not standard base64: %v", ErrInvalidSecret, secretPrefix, err)
	}
	if len(key) < minKeyBytes || len(key) > maxKeyBytes {
		return nil, fmt.Errorf("%w: key is %d bytes, want %d to %d", ErrInvalidSecret, len(key), minKeyBytes, maxKeyBytes)
	}
	return key, nil
}

// Key modes: how a webhook's secret becomes its HMAC key (the webhooks.key_mode column,
// docs/webhooks.md "Signature key mode"). Everything else about a signature is the same.
const (
	// KeyModeStandard keys the HMAC with the secret's key bytes (the base64 part after "whsec_",
	// decoded), as Standard Webhooks does: every Standard Webhooks library verifies it.
	KeyModeStandard = "standard"
	// KeyModeSecretText keys the HMAC with the whole secret text, "whsec_" included, as bytes:
	// for receivers that implement "HMAC-SHA256 with the secret as key" literally.
	KeyModeSecretText = "secret-text"
)

// KeyModes lists the key modes, the default first.
var KeyModes = []string{KeyModeStandard, KeyModeSecretText}

// ErrInvalidKeyMode says a key mode is not one of KeyModes.
var ErrInvalidKeyMode = errors.New("invalid signature key mode")

// ValidateKeyMode checks a key mode name.
func ValidateKeyMode(mode string) error {
	if mode != KeyModeStandard && mode != KeyModeSecretText {
		return fmt.Errorf("%w %q: want %q (the default) or %q", ErrInvalidKeyMode, mode, KeyModeStandard, KeyModeSecretText)
	}
	return nil
}

// SigningKey returns the HMAC key of secret in mode. The secret must be a valid secret in
// either mode (ParseSecret), so a mode change never turns a broken secret into a usable key.
func SigningKey(secret, mode string) ([]byte, error) {
	key, err := ParseSecret(secret)
	if err != nil {
		return nil, err
	}
	switch mode {
	case KeyModeStandard:
		return key, nil
	case KeyModeSecretText:
		return []byte(secret), nil
	}
	return nil, ValidateKeyMode(mode)
}

// Sign returns the Standard Webhooks v1 signature "v1,<base64>" of one
// attempt: HMAC-SHA256 keyed with key over "{msgID}.{unix seconds}.{body}".
// ts is the attempt's own time, so a retry is signed anew and receivers'
// replay windows (typically 5 minutes) accept it.
func Sign(key []byte, msgID string, ts time.Time, body []byte) string {
	mac := hmac.New(sha256.New, key)
	var buf [24]byte
	mac.Write([]byte(msgID))
	mac.Write([]byte{'.'})
	mac.Write(strconv.AppendInt(buf[:0], ts.Unix(), 10))
	mac.Write([]byte{'.'})
	mac.Write(body)
	var sum [sha256.Size]byte
	out := make([]byte, 3, 3+base64.StdEncoding.EncodedLen(sha256.Size))
	copy(out, "v1,")
	out = base64.StdEncoding.AppendEncode(out, mac.Sum(sum[:0]))
	return string(out)
}

// SignatureHeader returns the webhook-signature value for every key that is
// valid right now, separated by spaces. During a secret rotation's grace
// period both the new and the old key sign, so receivers that still hold
// the old secret keep verifying. Pass the newest key first; with no keys the
// result is empty.
func SignatureHeader(keys [][]byte, msgID string, ts time.Time, body []byte) string {
	sigs := make([]string, len(keys))
	for i, k := range keys {
		sigs[i] = Sign(k, msgID, ts, body)
	}
	return strings.Join(sigs, " ")
}
