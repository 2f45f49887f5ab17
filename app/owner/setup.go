package owner

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"time"

	"frontdesk/db"
)

// NewSetupToken makes the one-time token that lets /setup create the first owner, and reports
// needed=false (and no token) when an owner already exists. Only its hash is stored; any token
// from an earlier start is replaced, so only the most recently printed link works.
func NewSetupToken(ctx context.Context, d *db.DB, now time.Time) (token string, needed bool, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", false, err
	}
	token = base64.RawURLEncoding.EncodeToString(b)
	err = d.InTx(ctx, func(q *db.Queries) error {
		n, err := q.CountOwners(ctx)
		if err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
		needed = true
		if err := q.DeleteSetupTokens(ctx); err != nil {
			return err
		}
		return q.CreateSetupToken(ctx, db.CreateSetupTokenParams{TokenHash: hashToken(token), CreatedAt: db.Millis(now)})
	})
	if err != nil {
		return "", false, fmt.Errorf("setup token: %w", err)
	}
	if !needed {
		return "", false, nil
	}
	return token, true, nil
}

// SetupOpen reports whether token may create the first owner: no owner exists yet and the
// token is the current one.
func SetupOpen(ctx context.Context, d *db.DB, token string) (bool, error) {
	if token == "" {
		return false, nil
	}
	n, err := d.R.CountOwners(ctx)
	if err != nil || n > 0 {
		return false, err
	}
	m, err := d.R.CountSetupTokensByHash(ctx, hashToken(token))
	return m == 1, err
}

// CreateFirst creates the first owner with the setup token, which is used up in the same
// transaction: a second request with the same token gets ErrSetupClosed.
func CreateFirst(ctx context.Context, d *db.DB, token, email, password string, now time.Time) (Owner, error) {
	email, hash, err := prepare(email, password)
	if err != nil {
		return Owner{}, err
	}
	var o Owner
	err = d.InTx(ctx, func(q *db.Queries) error {
		n, err := q.CountOwners(ctx)
		if err != nil {
			return err
		}
		m, err := q.CountSetupTokensByHash(ctx, hashToken(token))
		if err != nil {
			return err
		}
		if n > 0 || m != 1 || token == "" {
			return ErrSetupClosed
		}
		if err := q.DeleteSetupTokens(ctx); err != nil {
			return err
		}
		o, err = insert(ctx, q, email, hash, now)
		return err
	})
	return o, err
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
