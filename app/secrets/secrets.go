// Package secrets seals the credentials frontdesk must keep to use them later (an SMTP password,
// a payment provider's secret key), so that a copy of the database alone — a backup, a
// Litestream replica — does not reveal them. The key is a file in the data directory, beside
// the database but never inside it: back it up separately (docs/messages.md, "Credentials").
//
// A sealed value is "v1:" and base64 (standard, padded) of a random 24-byte nonce followed by
// the XChaCha20-Poly1305 ciphertext. The purpose ("smtp_password") is authenticated with it,
// so a value sealed for one use cannot be passed off as another.
package secrets

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/crypto/chacha20poly1305"
)

// KeyFile is the key's file name inside the data directory.
const KeyFile = "secrets.key"

// ErrKeyMismatch is returned by Open for a value this key did not seal (the database was
// restored without its key file, or the value was tampered with).
var ErrKeyMismatch = errors.New("sealed with another key: enter the secret again")

// Box seals and opens values with one installation's key.
type Box struct{ key []byte }

// Load reads the key from dataDir, creating it (0600, 32 random bytes) on first use. Every
// process of an installation (serve, the CLI) gets the same key.
func Load(dataDir string) (*Box, error) {
	path := filepath.Join(dataDir, KeyFile)
	key, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return create(path)
	}
	if err != nil {
		return nil, fmt.Errorf("secrets key: %w", err)
	}
	if len(key) != chacha20poly1305.KeySize {
		return nil, fmt.Errorf("secrets key %s: %d bytes, want %d", path, len(key), chacha20poly1305.KeySize)
	}
	return &Box{key: key}, nil
}

func create(path string) (*Box, error) {
	key := make([]byte, chacha20poly1305.KeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	// O_EXCL: of two processes creating it at once, one wins and the other reads its key.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return Load(filepath.Dir(path))
	}
	if err != nil {
		return nil, fmt.Errorf("secrets key: %w", err)
	}
	if _, err := f.Write(key); err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("secrets key: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, err
	}
	return &Box{key: key}, f.Close()
}

// New returns a box over a key of 32 bytes (tests, and callers that keep the key elsewhere).
func New(key []byte) (*Box, error) {
	if len(key) != chacha20poly1305.KeySize {
		return nil, fmt.Errorf("secrets key: %d bytes, want %d", len(key), chacha20poly1305.KeySize)
	}
	return &Box{key: append([]byte(nil), key...)}, nil
}

const prefix = "v1:"

// Seal encrypts plaintext for purpose. An empty plaintext seals to "" (nothing stored).
func (b *Box) Seal(purpose, plaintext string) (string, error) {
	if plaintext == "" {
		return "", nil
	}
	aead, err := chacha20poly1305.NewX(b.key)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plaintext)+aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	out := aead.Seal(nonce, nonce, []byte(plaintext), []byte(purpose))
	return prefix + base64.StdEncoding.EncodeToString(out), nil
}

// Open decrypts a value Seal made for purpose. "" opens to "".
func (b *Box) Open(purpose, sealed string) (string, error) {
	if sealed == "" {
		return "", nil
	}
	raw, ok := strings.CutPrefix(sealed, prefix)
	if !ok {
		return "", errors.New("not a sealed value")
	}
	data, err := base64.StdEncoding.DecodeString(raw)
	if err != nil {
		return "", errors.New("not a sealed value")
	}
	aead, err := chacha20poly1305.NewX(b.key)
	if err != nil {
		return "", err
	}
	if len(data) < aead.NonceSize()+aead.Overhead() {
		return "", errors.New("not a sealed value")
	}
	plain, err := aead.Open(nil, data[:aead.NonceSize()], data[aead.NonceSize():], []byte(purpose))
	if err != nil {
		return "", ErrKeyMismatch
	}
	return string(plain), nil
}
