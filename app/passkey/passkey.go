// Package passkey keeps the passkeys (WebAuthn credentials) accounts sign in with
// (docs/security.md "Passkeys"). It stores verified credential records and finds them by
// credential id; the WebAuthn ceremonies themselves, which need the HTTP request (origin,
// relying party id), are app/admin's (passkeys.go).
package passkey

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"frontdesk/db"
)

// Limits: a name for people to tell their passkeys apart, and a bound on how many one
// account keeps.
const (
	MaxName       = 60
	MaxPerAccount = 20
)

// Errors callers tell apart.
var (
	ErrName     = fmt.Errorf("name the passkey in 1 to %d characters", MaxName)
	ErrTooMany  = fmt.Errorf("an account keeps at most %d passkeys", MaxPerAccount)
	ErrNotFound = errors.New("no such passkey")
	ErrTaken    = errors.New("this passkey is already registered")
)

// Passkey is one registered passkey.
type Passkey struct {
	ID           int64
	OwnerID      int64
	Name         string
	CredentialID []byte
	// Credential is the credential record as the WebAuthn library writes it (JSON).
	Credential string
	CreatedAt  time.Time
	LastUsedAt time.Time // zero: never used
}

func fromRow(r db.OwnerPasskey) Passkey {
	p := Passkey{ID: r.ID, OwnerID: r.OwnerID, Name: r.Name, CredentialID: r.CredentialID, Credential: r.Credential,
		CreatedAt: db.Time(r.CreatedAt)}
	if r.LastUsedAt.Valid {
		p.LastUsedAt = db.Time(r.LastUsedAt.Int64)
	}
	return p
}

// UserHandle is the WebAuthn user handle of an account: its id, 8 bytes big-endian. It names
// the account to the authenticator without any personal data.
func UserHandle(ownerID int64) []byte {
	return binary.BigEndian.AppendUint64(nil, uint64(ownerID))
}

// OwnerOf reads a user handle back; false if it is not one of ours.
func OwnerOf(handle []byte) (int64, bool) {
	if len(handle) != 8 {
		return 0, false
	}
	id := int64(binary.BigEndian.Uint64(handle))
	return id, id > 0
}

// CleanName trims a passkey's name and checks its length.
func CleanName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" || utf8.RuneCountInString(name) > MaxName {
		return "", ErrName
	}
	return name, nil
}

// List returns the account's passkeys, oldest first.
func List(ctx context.Context, d *db.DB, ownerID int64) ([]Passkey, error) {
	rows, err := d.R.ListOwnerPasskeys(ctx, ownerID)
	if err != nil {
		return nil, fmt.Errorf("list passkeys: %w", err)
	}
	out := make([]Passkey, 0, len(rows))
	for _, r := range rows {
		out = append(out, fromRow(r))
	}
	return out, nil
}

// Add records a verified passkey for the account.
func Add(ctx context.Context, d *db.DB, ownerID int64, name string, credentialID []byte, credential string, now time.Time) error {
	name, err := CleanName(name)
	if err != nil {
		return err
	}
	return d.InTx(ctx, func(q *db.Queries) error {
		n, err := q.CountOwnerPasskeys(ctx, ownerID)
		if err != nil {
			return err
		}
		if n >= MaxPerAccount {
			return ErrTooMany
		}
		if _, err := q.GetOwnerPasskeyByCredentialID(ctx, credentialID); err == nil {
			return ErrTaken
		} else if !db.IsNotFound(err) {
			return err
		}
		return q.InsertOwnerPasskey(ctx, db.InsertOwnerPasskeyParams{OwnerID: ownerID, Name: name, CredentialID: credentialID,
			Credential: credential, CreatedAt: db.Millis(now)})
	})
}

// ByCredentialID finds the passkey a sign-in names.
func ByCredentialID(ctx context.Context, d *db.DB, credentialID []byte) (Passkey, error) {
	r, err := d.R.GetOwnerPasskeyByCredentialID(ctx, credentialID)
	if db.IsNotFound(err) {
		return Passkey{}, ErrNotFound
	}
	if err != nil {
		return Passkey{}, fmt.Errorf("find passkey: %w", err)
	}
	return fromRow(r), nil
}

// Used records a sign-in with the passkey: its updated record (the sign count) and the time.
func Used(ctx context.Context, d *db.DB, id int64, credential string, now time.Time) error {
	return d.W.UseOwnerPasskey(ctx, db.UseOwnerPasskeyParams{Credential: credential, LastUsedAt: db.NullMillis(&now), ID: id})
}

// Remove deletes one of the account's passkeys.
func Remove(ctx context.Context, d *db.DB, ownerID, id int64) error {
	n, err := d.W.DeleteOwnerPasskey(ctx, db.DeleteOwnerPasskeyParams{ID: id, OwnerID: ownerID})
	if err != nil {
		return fmt.Errorf("remove passkey: %w", err)
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}
