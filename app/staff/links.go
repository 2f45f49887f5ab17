package staff

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"frontdesk/app/activity"
	"frontdesk/app/owner"
	"frontdesk/db"
)

// LinkLifetime is how long an invitation or a password-reset link works (once).
const LinkLifetime = 7 * 24 * time.Hour

// MaxNameLen bounds an account's name (the column's CHECK says the same).
const MaxNameLen = 200

// Link purposes.
const (
	PurposeInvite = "invite"
	PurposeReset  = "reset"
)

// More errors callers tell apart.
var (
	ErrEmailTaken   = errors.New("an account with this email already exists")
	ErrNameRequired = errors.New("enter your name")
	ErrNameTooLong  = fmt.Errorf("use at most %d characters", MaxNameLen)
)

// Link is an open single-use link: an invitation to join with Role, or a password reset for
// the account OwnerID.
type Link struct {
	ID         int64
	Purpose    string
	Email      string
	Role       Role
	ProviderID int64
	OwnerID    int64
	CreatedAt  time.Time
	ExpiresAt  time.Time
}

func linkFromRow(r db.StaffLink) Link {
	return Link{ID: r.ID, Purpose: r.Purpose, Email: r.Email, Role: Role(r.Role), ProviderID: r.ProviderID.Int64,
		OwnerID: r.OwnerID.Int64, CreatedAt: db.Time(r.CreatedAt), ExpiresAt: db.Time(r.ExpiresAt)}
}

// Invite makes a single-use link for email to join with role (and providerID, for a
// provider), valid LinkLifetime. It returns the token, which is stored only as its hash: the
// caller sends or shows it now or never. A newer invitation to the same address replaces an
// open one.
func Invite(ctx context.Context, d *db.DB, actor Account, email string, role Role, providerID int64, now time.Time) (string, Link, error) {
	email, err := owner.NormalizeEmail(email)
	if err != nil {
		return "", Link{}, err
	}
	if err := checkRole(role, providerID); err != nil {
		return "", Link{}, err
	}
	if role != RoleProvider {
		providerID = 0
	}
	if !mayManage(actor, role) {
		return "", Link{}, ErrNotAllowed
	}
	token, hash, err := newToken()
	if err != nil {
		return "", Link{}, err
	}
	var l Link
	err = d.InTx(ctx, func(q *db.Queries) error {
		if _, err := q.GetOwnerByEmail(ctx, email); err == nil {
			return ErrEmailTaken
		} else if !db.IsNotFound(err) {
			return err
		}
		if err := checkProvider(ctx, q, role, providerID); err != nil {
			return err
		}
		if l, err = addLink(ctx, q, hash, PurposeInvite, email, role, providerID, 0, actor.ID, now); err != nil {
			return err
		}
		return activity.Record(ctx, q, now, activity.Entry{Action: "owner.invited", Entity: "staff_invitation", EntityID: l.ID,
			Changes: activity.Changes{}.Set("email", nil, email).Set("role", nil, string(role)).Set("provider_id", nil, providerRef(role, providerID))})
	})
	return token, l, err
}

// ResetLink makes a single-use link that sets a new password for account id, valid
// LinkLifetime; using it signs out the account's other sessions. A manager may not make one
// for an owner.
func ResetLink(ctx context.Context, d *db.DB, actor Account, id int64, now time.Time) (string, Link, error) {
	token, hash, err := newToken()
	if err != nil {
		return "", Link{}, err
	}
	var l Link
	err = d.InTx(ctx, func(q *db.Queries) error {
		target, err := getTx(ctx, q, id)
		if err != nil {
			return err
		}
		if !mayManage(actor, RoleOf(target)) {
			return ErrNotAllowed
		}
		if l, err = addLink(ctx, q, hash, PurposeReset, target.Email, "", 0, target.ID, actor.ID, now); err != nil {
			return err
		}
		return recordAccount(ctx, q, now, "owner.reset_link_created", target.ID, activity.Changes{}.Set("email", nil, target.Email))
	})
	return token, l, err
}

func addLink(ctx context.Context, q *db.Queries, hash, purpose, email string, role Role, providerID, ownerID, by int64, now time.Time) (Link, error) {
	ms := db.Millis(now)
	if err := q.ExpireStaffLinks(ctx, db.ExpireStaffLinksParams{ExpiresAt: ms, Email: email, Purpose: purpose, ExpiresAt_2: ms}); err != nil {
		return Link{}, err
	}
	id, err := q.CreateStaffLink(ctx, db.CreateStaffLinkParams{TokenHash: hash, Purpose: purpose, Email: email, Role: string(role),
		ProviderID: nullID(providerID), OwnerID: nullID(ownerID), InvitedBy: nullID(by), CreatedAt: ms,
		ExpiresAt: db.Millis(now.Add(LinkLifetime))})
	if err != nil {
		return Link{}, fmt.Errorf("create link: %w", err)
	}
	r, err := q.GetStaffLink(ctx, id)
	if err != nil {
		return Link{}, err
	}
	return linkFromRow(r), nil
}

// OpenLink returns the link token opens, if it is unused and unexpired; anything else is
// ErrNotFound, whatever the reason.
func OpenLink(ctx context.Context, d *db.DB, token string, now time.Time) (Link, error) {
	r, err := openRow(ctx, d.R, token, now)
	if err != nil {
		return Link{}, err
	}
	return linkFromRow(r), nil
}

func openRow(ctx context.Context, q *db.Queries, token string, now time.Time) (db.StaffLink, error) {
	if token == "" || len(token) > 200 {
		return db.StaffLink{}, ErrNotFound
	}
	r, err := q.GetStaffLinkByHash(ctx, hashToken(token))
	if db.IsNotFound(err) {
		return db.StaffLink{}, ErrNotFound
	}
	if err != nil {
		return db.StaffLink{}, fmt.Errorf("find link: %w", err)
	}
	if r.UsedAt.Valid || db.Millis(now) >= r.ExpiresAt {
		return db.StaffLink{}, ErrNotFound
	}
	return r, nil
}

// Accept uses the link token: an invitation creates the account (name and password given
// here), a reset sets the account's new password. The link is used up in the same
// transaction, so a second use finds nothing. It returns the account, to sign in as.
func Accept(ctx context.Context, d *db.DB, token, name, password string, now time.Time) (Account, error) {
	name = strings.TrimSpace(name)
	hash, err := owner.HashPassword(password)
	if err != nil {
		return Account{}, err
	}
	var out Account
	err = d.InTx(ctx, func(q *db.Queries) error {
		l, err := openRow(ctx, q, token, now)
		if err != nil {
			return err
		}
		ms := db.Millis(now)
		id := l.OwnerID.Int64
		if l.Purpose == PurposeInvite {
			if err := checkName(name); err != nil {
				return err
			}
			r, err := q.CreateStaffAccount(ctx, db.CreateStaffAccountParams{Email: l.Email, PasswordHash: hash, Name: name,
				Role: l.Role, ProviderID: l.ProviderID, CreatedAt: ms, UpdatedAt: ms})
			if db.IsConstraint(err, "UNIQUE") {
				return ErrEmailTaken
			} else if err != nil {
				return fmt.Errorf("create account: %w", err)
			}
			id = r.ID
		} else if n, err := q.UpdateOwnerPassword(ctx, db.UpdateOwnerPasswordParams{PasswordHash: hash, UpdatedAt: ms, ID: id}); err != nil {
			return fmt.Errorf("reset password: %w", err)
		} else if n == 0 {
			return ErrNotFound
		}
		if n, err := q.UseStaffLink(ctx, db.UseStaffLinkParams{UsedAt: sql.NullInt64{Int64: ms, Valid: true},
			OwnerID: sql.NullInt64{Int64: id, Valid: true}, ID: l.ID}); err != nil {
			return err
		} else if n == 0 {
			return ErrNotFound
		}
		if out, err = getTx(ctx, q, id); err != nil {
			return err
		}
		if l.Purpose == PurposeInvite {
			return recordAccount(asAccount(ctx, out), q, now, "owner.joined", id, activity.Changes{}.Set("email", nil, out.Email).
				Set("name", nil, out.Name).Set("role", nil, out.Role).Set("provider_id", nil, providerRef(RoleOf(out), out.ProviderID)))
		}
		return recordAccount(asAccount(ctx, out), q, now, "owner.password_reset", id, activity.Changes{}.Set("email", nil, out.Email))
	})
	return out, err
}

// Invitations are the open invitations, newest first.
func Invitations(ctx context.Context, d *db.DB, now time.Time) ([]Link, error) {
	rows, err := d.R.ListOpenInvitations(ctx, db.Millis(now))
	if err != nil {
		return nil, fmt.Errorf("list invitations: %w", err)
	}
	out := make([]Link, 0, len(rows))
	for _, r := range rows {
		out = append(out, linkFromRow(r))
	}
	return out, nil
}

func checkName(name string) error {
	switch {
	case name == "":
		return ErrNameRequired
	case utf8.RuneCountInString(name) > MaxNameLen:
		return ErrNameTooLong
	}
	return nil
}

func newToken() (token, hash string, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", "", err
	}
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, hashToken(token), nil
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
