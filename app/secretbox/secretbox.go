// Package secretbox seals the few secrets frontdesk must be able to read back — a payment
// provider's API key and webhook signing secret — so that the database alone does not reveal
// them. The key is 32 random bytes in a file of the data directory (KeyFile), made on first use
// with mode 0600. A database backup without that file holds only ciphertext; restoring both
// restores the secrets, restoring the database alone means typing them in again
// (docs/payments.md "Where the keys are kept").
//
// Sealing is AES-256-GCM with a fresh random nonce per value, and the value's purpose as
// additional data, so a sealed API key cannot be passed off as a webhook secret.
package secretbox

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// KeyFile is the key's file name inside the data directory.
const KeyFile = "secrets.key"

// prefix marks a sealed value (and its format version); the schema checks for it.
const prefix = "sealed1:"

// ErrUnreadable is a sealed value the key cannot open: another key file, or a damaged value.
var ErrUnreadable = errors.New("sealed value cannot be opened with this data directory's key")

// Box seals and opens values with one key.
type Box struct {
	aead cipher.AEAD
}

// Open returns the box of data directory dir, creating its key file when there is none.
func Open(dir string) (*Box, error) {
	path := filepath.Join(dir, KeyFile)
	key, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		key, err = create(path)
	}
	if err != nil {
		return nil, fmt.Errorf("secret key: %w", err)
	}
	if len(key) != 32 {
		return nil, fmt.Errorf("secret key %s: want 32 bytes, found %d", path, len(key))
	}
	return New(key)
}

// create writes a new random key; O_EXCL so two processes starting at once cannot each write
// their own (the loser reads the winner's).
func create(path string) ([]byte, error) {
	key := make([]byte, 32)
	rand.Read(key) // never fails (crypto/rand)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return os.ReadFile(path)
	} else if err != nil {
		return nil, err
	}
	if _, err := f.Write(key); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, err
	}
	return key, f.Close()
}

// New returns a box over a 32-byte key (tests use it directly).
func New(key []byte) (*Box, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Box{aead: aead}, nil
}

// Seal returns plain sealed for purpose ("stripe.secret_key"); "" stays "".
func (b *Box) Seal(purpose, plain string) string {
	if plain == "" {
		return ""
	}
	nonce := make([]byte, b.aead.NonceSize())
	rand.Read(nonce)
	out := b.aead.Seal(nonce, nonce, []byte(plain), []byte(purpose))
	return prefix + base64.RawStdEncoding.EncodeToString(out)
}

// Unseal opens a value Seal returned for the same purpose; "" stays "".
func (b *Box) Unseal(purpose, sealed string) (string, error) {
	if sealed == "" {
		return "", nil
	}
	raw, ok := strings.CutPrefix(sealed, prefix)
	if !ok {
		return "", ErrUnreadable
	}
	data, err := base64.RawStdEncoding.DecodeString(raw)
	n := b.aead.NonceSize()
	if err != nil || len(data) < n {
		return "", ErrUnreadable
	}
	plain, err := b.aead.Open(nil, data[:n], data[n:], []byte(purpose))
	if err != nil {
		return "", ErrUnreadable
	}
	return string(plain), nil
}
