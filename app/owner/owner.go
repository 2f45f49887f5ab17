// Package owner manages the people who run the business: owner accounts (email + argon2id
// password), their authentication, and the one-time setup token that lets the first owner be
// created on a fresh installation (docs/contract.md). It knows nothing about HTTP or sessions.
package owner

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"

	"frontdesk/app/activity"
	"frontdesk/app/fail"
	"frontdesk/db"
)

// Password bounds: NIST SP 800-63B asks for at least 8 characters; we ask for 10 and accept
// long passphrases. The upper bound only stops absurd inputs.
const (
	MinPasswordLen = 10
	MaxPasswordLen = 1024
)

// Errors callers tell apart; wrap-compatible with errors.Is.
var (
	ErrInvalidEmail       = errors.New("enter a valid email address, like name@example.com")
	ErrPasswordTooShort   = fmt.Errorf("use at least %d characters", MinPasswordLen)
	ErrPasswordTooLong    = fmt.Errorf("use at most %d characters", MaxPasswordLen)
	ErrEmailTaken         = errors.New("an owner with this email already exists")
	ErrInvalidCredentials = errors.New("wrong email or password")
	ErrNotFound           = &fail.Error{Code: fail.CodeNotFound, Reason: "owner", Message: "no such owner"}
	ErrSetupClosed        = errors.New("setup is closed: an owner exists or the setup link is invalid")
	ErrDisabled           = errors.New("this account is disabled")
)

// Owner is an owner account as the rest of the program sees it: never the password hash.
type Owner struct {
	ID        int64
	Email     string
	CreatedAt time.Time
	// Stamp changes whenever the password changes. Sessions remember the stamp they were
	// created with, so changing or resetting a password signs out every other session.
	Stamp string
	// Language is the owner's own choice for the admin pages; "" means the business's.
	Language string
	// Name is how the team knows the account ("" for accounts from before the team).
	Name string
	// Role is what the account may do (app/staff: owner, manager, reception or provider).
	Role string
	// ProviderID is the provider record a provider account is (0 for the other roles).
	ProviderID int64
	// Disabled accounts cannot sign in, and their open sessions are refused.
	Disabled bool
}

func fromRow(r db.Owner) Owner {
	sum := sha256.Sum256([]byte(r.PasswordHash))
	return Owner{ID: r.ID, Email: r.Email, CreatedAt: db.Time(r.CreatedAt), Stamp: hex.EncodeToString(sum[:8]),
		Language: r.Language.String, Name: r.Name, Role: r.Role, ProviderID: r.ProviderID.Int64, Disabled: r.DisabledAt.Valid}
}

// SetLanguage records the owner's language for the admin pages ("" = the business's). The
// caller checks that a catalog exists for it.
func SetLanguage(ctx context.Context, d *db.DB, id int64, language string, now time.Time) error {
	n, err := d.W.UpdateOwnerLanguage(ctx, db.UpdateOwnerLanguageParams{
		Language: sql.NullString{String: language, Valid: language != ""}, UpdatedAt: db.Millis(now), ID: id,
	})
	if err != nil {
		return fmt.Errorf("set owner language: %w", err)
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// NormalizeEmail trims and lower-cases an email and checks it is a plain address.
func NormalizeEmail(s string) (string, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" || len(s) > 254 {
		return "", ErrInvalidEmail
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s {
		return "", ErrInvalidEmail
	}
	return s, nil
}

// ValidatePassword checks a new password's length (in characters, not bytes).
func ValidatePassword(p string) error {
	switch {
	case utf8.RuneCountInString(p) < MinPasswordLen:
		return ErrPasswordTooShort
	case len(p) > MaxPasswordLen:
		return ErrPasswordTooLong
	}
	return nil
}

// Count returns how many owners exist.
func Count(ctx context.Context, d *db.DB) (int64, error) { return d.R.CountOwners(ctx) }

// FromRow is the account a row holds, for app/staff, which reads and writes the same table.
func FromRow(r db.Owner) Owner { return fromRow(r) }

// Get returns the owner with id, or ErrNotFound.
func Get(ctx context.Context, d *db.DB, id int64) (Owner, error) {
	r, err := d.R.GetOwner(ctx, id)
	if db.IsNotFound(err) {
		return Owner{}, ErrNotFound
	}
	if err != nil {
		return Owner{}, fmt.Errorf("get owner: %w", err)
	}
	return fromRow(r), nil
}

// List returns every owner, by email.
func List(ctx context.Context, d *db.DB) ([]Owner, error) {
	rows, err := d.R.ListOwners(ctx)
	if err != nil {
		return nil, fmt.Errorf("list owners: %w", err)
	}
	out := make([]Owner, 0, len(rows))
	for _, r := range rows {
		out = append(out, fromRow(r))
	}
	return out, nil
}

// Create adds an owner. Once any owner exists the setup token is useless, so it is deleted too.
func Create(ctx context.Context, d *db.DB, email, password string, now time.Time) (Owner, error) {
	email, hash, err := prepare(email, password)
	if err != nil {
		return Owner{}, err
	}
	var o Owner
	err = d.InTx(ctx, func(q *db.Queries) error {
		if err := q.DeleteSetupTokens(ctx); err != nil {
			return err
		}
		o, err = insert(ctx, q, email, hash, now)
		return err
	})
	return o, err
}

func prepare(email, password string) (string, string, error) {
	email, err := NormalizeEmail(email)
	if err != nil {
		return "", "", err
	}
	if err := ValidatePassword(password); err != nil {
		return "", "", err
	}
	hash, err := hashPassword(password)
	if err != nil {
		return "", "", fmt.Errorf("hash password: %w", err)
	}
	return email, hash, nil
}

func insert(ctx context.Context, q *db.Queries, email, hash string, now time.Time) (Owner, error) {
	ms := db.Millis(now)
	r, err := q.CreateOwner(ctx, db.CreateOwnerParams{Email: email, PasswordHash: hash, CreatedAt: ms, UpdatedAt: ms})
	if db.IsConstraint(err, "UNIQUE") {
		return Owner{}, ErrEmailTaken
	}
	if err != nil {
		return Owner{}, fmt.Errorf("create owner: %w", err)
	}
	if err := activity.Record(ctx, q, now, activity.Entry{Action: "owner.created", EntityID: r.ID,
		Changes: activity.Changes{}.Set("email", nil, email)}); err != nil {
		return Owner{}, err
	}
	return fromRow(r), nil
}

// Authenticate returns the owner whose email and password match, or ErrInvalidCredentials. It
// takes as long for an unknown email as for a wrong password.
func Authenticate(ctx context.Context, d *db.DB, email, password string) (Owner, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	r, err := d.R.GetOwnerByEmail(ctx, email)
	if db.IsNotFound(err) || len(password) > MaxPasswordLen {
		checkPassword(dummyHash(), password[:min(len(password), MaxPasswordLen)])
		return Owner{}, ErrInvalidCredentials
	}
	if err != nil {
		return Owner{}, fmt.Errorf("find owner: %w", err)
	}
	ok, err := checkPassword(r.PasswordHash, password)
	if err != nil {
		return Owner{}, fmt.Errorf("owner %d: %w", r.ID, err)
	}
	if !ok {
		return Owner{}, ErrInvalidCredentials
	}
	if r.DisabledAt.Valid {
		return Owner{}, ErrDisabled
	}
	return fromRow(r), nil
}

// ChangePassword replaces an owner's password after checking the current one, and returns the
// owner with its new Stamp.
func ChangePassword(ctx context.Context, d *db.DB, id int64, current, next string, now time.Time) (Owner, error) {
	r, err := d.R.GetOwner(ctx, id)
	if db.IsNotFound(err) {
		return Owner{}, ErrNotFound
	}
	if err != nil {
		return Owner{}, fmt.Errorf("get owner: %w", err)
	}
	ok, err := checkPassword(r.PasswordHash, current)
	if err != nil {
		return Owner{}, fmt.Errorf("owner %d: %w", id, err)
	}
	if !ok {
		return Owner{}, ErrInvalidCredentials
	}
	return setPassword(ctx, d, r, next, now)
}

// ResetPassword sets a new password for the owner with email, without knowing the old one
// (the CLI's recovery path for someone with access to the machine).
func ResetPassword(ctx context.Context, d *db.DB, email, password string, now time.Time) (Owner, error) {
	email, err := NormalizeEmail(email)
	if err != nil {
		return Owner{}, err
	}
	r, err := d.R.GetOwnerByEmail(ctx, email)
	if db.IsNotFound(err) {
		return Owner{}, ErrNotFound
	}
	if err != nil {
		return Owner{}, fmt.Errorf("find owner: %w", err)
	}
	return setPassword(ctx, d, r, password, now)
}

func setPassword(ctx context.Context, d *db.DB, r db.Owner, password string, now time.Time) (Owner, error) {
	if err := ValidatePassword(password); err != nil {
		return Owner{}, err
	}
	hash, err := hashPassword(password)
	if err != nil {
		return Owner{}, fmt.Errorf("hash password: %w", err)
	}
	var n int64
	err = d.InTx(ctx, func(q *db.Queries) error {
		var err error
		if n, err = q.UpdateOwnerPassword(ctx, db.UpdateOwnerPasswordParams{PasswordHash: hash, UpdatedAt: db.Millis(now), ID: r.ID}); err != nil || n == 0 {
			return err
		}
		// The trail says the password changed; Record hides both hashes.
		return activity.Record(ctx, q, now, activity.Entry{Action: "owner.password_changed", EntityID: r.ID,
			Changes: activity.Changes{}.Set("password_hash", r.PasswordHash, hash)})
	})
	if err != nil {
		return Owner{}, fmt.Errorf("update password: %w", err)
	}
	if n == 0 {
		return Owner{}, ErrNotFound
	}
	r.PasswordHash = hash
	return fromRow(r), nil
}
