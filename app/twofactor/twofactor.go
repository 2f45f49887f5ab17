// Package twofactor is an account's second sign-in factor (docs/security.md "Two-factor
// sign-in"): an authenticator app's time-based codes (RFC 6238, six digits, 30-second steps)
// and one-use recovery codes, plus the installation's rule that owners and managers must use
// it. It knows nothing about HTTP or sessions: app/admin asks it to enrol, confirm and verify.
//
// The app secret is stored sealed with the data directory's key (app/secrets). A code is
// accepted for the current step or the one before or after (clocks drift), and only for a
// step later than the last one accepted, so a code cannot be used twice.
package twofactor

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"frontdesk/app/secrets"
	"frontdesk/db"
)

// Errors callers tell apart.
var (
	// ErrWrongCode: neither a current app code nor an unused recovery code.
	ErrWrongCode = errors.New("wrong code")
	// ErrReplayed: an app code for a step already used (the same code, or an older one).
	ErrReplayed = errors.New("code already used")
	// ErrNotEnrolling: confirming without a pending secret (already on, or never started).
	ErrNotEnrolling = errors.New("two-factor enrolment was not started")
	// ErrNoSealer: the installation has no key to seal secrets with.
	ErrNoSealer = errors.New("no key to seal the two-factor secret")
)

const (
	period     = 30 // seconds per step
	skew       = 1  // steps accepted either side of now
	digits     = otp.DigitsSix
	purpose    = "totp_secret" // the sealing purpose (app/secrets)
	codeCount  = 10            // recovery codes per set
	codeGroups = 4             // of 4 base32 characters each: 80 random bits
)

// Service enrols and verifies second factors.
type Service struct {
	DB  *db.DB
	Box *secrets.Box
	// Issuer names the installation in authenticator apps ("frontdesk", or the business).
	Issuer string
}

// Status is an account's two-factor state.
type Status struct {
	Enabled      bool // confirmed: sign-in asks for a code
	Pending      bool // a secret was shown but not yet confirmed
	RecoveryLeft int64
	EnabledAt    time.Time
}

// Get returns the account's two-factor status.
func (s Service) Get(ctx context.Context, ownerID int64) (Status, error) {
	row, err := s.DB.R.GetOwnerTOTP(ctx, ownerID)
	if db.IsNotFound(err) {
		return Status{}, nil
	}
	if err != nil {
		return Status{}, fmt.Errorf("two-factor status: %w", err)
	}
	st := Status{Enabled: row.ConfirmedAt.Valid, Pending: !row.ConfirmedAt.Valid}
	if st.Enabled {
		st.EnabledAt = db.Time(row.ConfirmedAt.Int64)
		if st.RecoveryLeft, err = s.DB.R.CountUnusedRecoveryCodes(ctx, ownerID); err != nil {
			return Status{}, fmt.Errorf("two-factor status: %w", err)
		}
	}
	return st, nil
}

// Enabled reports whether sign-in asks ownerID for a second factor.
func (s Service) Enabled(ctx context.Context, ownerID int64) (bool, error) {
	st, err := s.Get(ctx, ownerID)
	return st.Enabled, err
}

// Enrolment is what the account page shows while enrolling: the secret as text and as an
// otpauth:// URI (the QR code's content).
type Enrolment struct {
	Secret string
	URI    string
}

// Begin makes a new secret for an account that does not use two-factor yet (replacing one
// shown before and never confirmed) and returns it.
func (s Service) Begin(ctx context.Context, ownerID int64, account string, now time.Time) (Enrolment, error) {
	if s.Box == nil {
		return Enrolment{}, ErrNoSealer
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: s.issuer(), AccountName: account, Period: period, Digits: digits, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		return Enrolment{}, fmt.Errorf("two-factor secret: %w", err)
	}
	sealed, err := s.Box.Seal(purpose, key.Secret())
	if err != nil {
		return Enrolment{}, fmt.Errorf("seal two-factor secret: %w", err)
	}
	n, err := s.DB.W.BeginOwnerTOTP(ctx, db.BeginOwnerTOTPParams{OwnerID: ownerID, SecretSealed: sealed, CreatedAt: db.Millis(now)})
	if err != nil {
		return Enrolment{}, fmt.Errorf("begin two-factor: %w", err)
	}
	if n == 0 {
		return Enrolment{}, ErrNotEnrolling // already confirmed
	}
	return Enrolment{Secret: key.Secret(), URI: keyURL(s.issuer(), account, key.Secret())}, nil
}

// Pending returns the secret being enrolled, to show it again (a wrong confirmation code).
func (s Service) Pending(ctx context.Context, ownerID int64, account string) (Enrolment, error) {
	row, err := s.DB.R.GetOwnerTOTP(ctx, ownerID)
	if db.IsNotFound(err) || (err == nil && row.ConfirmedAt.Valid) {
		return Enrolment{}, ErrNotEnrolling
	}
	if err != nil {
		return Enrolment{}, fmt.Errorf("two-factor secret: %w", err)
	}
	secret, err := s.open(row.SecretSealed)
	if err != nil {
		return Enrolment{}, err
	}
	return Enrolment{Secret: secret, URI: keyURL(s.issuer(), account, secret)}, nil
}

// keyURL is the otpauth:// URI authenticator apps read (Key Uri Format), as totp.Generate
// writes it.
func keyURL(issuer, account, secret string) string {
	q := url.Values{"secret": {secret}, "issuer": {issuer}, "algorithm": {"SHA1"}, "digits": {"6"}, "period": {"30"}}
	u := url.URL{Scheme: "otpauth", Host: "totp", Path: "/" + issuer + ":" + account, RawQuery: q.Encode()}
	return u.String()
}

// Confirm turns two-factor on once the owner typed a code their app shows for the pending
// secret, and returns the first set of recovery codes (shown once).
func (s Service) Confirm(ctx context.Context, ownerID int64, code string, now time.Time) ([]string, error) {
	row, err := s.DB.R.GetOwnerTOTP(ctx, ownerID)
	if db.IsNotFound(err) || (err == nil && row.ConfirmedAt.Valid) {
		return nil, ErrNotEnrolling
	}
	if err != nil {
		return nil, fmt.Errorf("confirm two-factor: %w", err)
	}
	secret, err := s.open(row.SecretSealed)
	if err != nil {
		return nil, err
	}
	step, ok := matchStep(secret, normalize(code), now)
	if !ok {
		return nil, ErrWrongCode
	}
	var codes []string
	err = s.DB.InTx(ctx, func(q *db.Queries) error {
		n, err := q.ConfirmOwnerTOTP(ctx, db.ConfirmOwnerTOTPParams{ConfirmedAt: sql.NullInt64{Int64: db.Millis(now), Valid: true}, LastStep: step, OwnerID: ownerID})
		if err != nil {
			return err
		}
		if n == 0 {
			return ErrNotEnrolling
		}
		codes, err = replaceCodes(ctx, q, ownerID, now)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("confirm two-factor: %w", err)
	}
	return codes, nil
}

// Verify checks a second factor at sign-in: a current app code (for a step not used before)
// or an unused recovery code, which is then spent.
func (s Service) Verify(ctx context.Context, ownerID int64, code string, now time.Time) error {
	row, err := s.DB.R.GetOwnerTOTP(ctx, ownerID)
	if db.IsNotFound(err) || (err == nil && !row.ConfirmedAt.Valid) {
		return ErrWrongCode
	}
	if err != nil {
		return fmt.Errorf("verify two-factor: %w", err)
	}
	code = normalize(code)
	if len(code) != int(digits) {
		return s.useRecoveryCode(ctx, ownerID, code, now)
	}
	secret, err := s.open(row.SecretSealed)
	if err != nil {
		return err
	}
	step, ok := matchStep(secret, code, now)
	if !ok {
		return ErrWrongCode
	}
	if step <= row.LastStep {
		return ErrReplayed
	}
	// The update refuses a step not after the stored one, so of two requests racing with
	// the same code only one wins.
	n, err := s.DB.W.AdvanceOwnerTOTP(ctx, db.AdvanceOwnerTOTPParams{Step: step, OwnerID: ownerID})
	if err != nil {
		return fmt.Errorf("verify two-factor: %w", err)
	}
	if n == 0 {
		return ErrReplayed
	}
	return nil
}

func (s Service) useRecoveryCode(ctx context.Context, ownerID int64, code string, now time.Time) error {
	if len(code) != codeGroups*4 {
		return ErrWrongCode
	}
	n, err := s.DB.W.UseRecoveryCode(ctx, db.UseRecoveryCodeParams{UsedAt: sql.NullInt64{Int64: db.Millis(now), Valid: true}, OwnerID: ownerID, CodeHash: hashCode(code)})
	if err != nil {
		return fmt.Errorf("recovery code: %w", err)
	}
	if n == 0 {
		return ErrWrongCode
	}
	return nil
}

// RegenerateRecoveryCodes replaces the account's recovery codes with a new set (the old ones
// stop working) and returns it, to be shown once.
func (s Service) RegenerateRecoveryCodes(ctx context.Context, ownerID int64, now time.Time) ([]string, error) {
	var codes []string
	err := s.DB.InTx(ctx, func(q *db.Queries) error {
		row, err := q.GetOwnerTOTP(ctx, ownerID)
		if db.IsNotFound(err) || (err == nil && !row.ConfirmedAt.Valid) {
			return ErrNotEnrolling
		}
		if err != nil {
			return err
		}
		codes, err = replaceCodes(ctx, q, ownerID, now)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("recovery codes: %w", err)
	}
	return codes, nil
}

// Disable turns two-factor off for the account: the secret and the recovery codes go.
func (s Service) Disable(ctx context.Context, ownerID int64) error {
	return s.DB.InTx(ctx, func(q *db.Queries) error {
		if err := q.DeleteRecoveryCodes(ctx, ownerID); err != nil {
			return err
		}
		return q.DeleteOwnerTOTP(ctx, ownerID)
	})
}

// Required reports the installation's rule "owners and managers must use two-factor".
func (s Service) Required(ctx context.Context) (bool, error) {
	req, err := s.DB.R.GetRequireTwoFactor(ctx)
	if err != nil {
		return false, fmt.Errorf("two-factor rule: %w", err)
	}
	return req, nil
}

// SetRequired changes that rule.
func (s Service) SetRequired(ctx context.Context, required bool, now time.Time) error {
	return s.DB.W.SetRequireTwoFactor(ctx, db.SetRequireTwoFactorParams{RequireTwoFactor: required, UpdatedAt: db.Millis(now)})
}

func (s Service) issuer() string {
	if s.Issuer == "" {
		return "frontdesk"
	}
	return s.Issuer
}

func (s Service) open(sealed string) (string, error) {
	if s.Box == nil {
		return "", ErrNoSealer
	}
	secret, err := s.Box.Open(purpose, sealed)
	if err != nil {
		return "", fmt.Errorf("two-factor secret: %w", err)
	}
	return secret, nil
}

// matchStep returns the step within the skew whose code is code.
func matchStep(secret, code string, now time.Time) (int64, bool) {
	if len(code) != int(digits) {
		return 0, false
	}
	cur := now.Unix() / period
	for step := cur - skew; step <= cur+skew; step++ {
		want, err := totp.GenerateCodeCustom(secret, time.Unix(step*period, 0), totp.ValidateOpts{Period: period, Digits: digits, Algorithm: otp.AlgorithmSHA1})
		if err == nil && subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			return step, true
		}
	}
	return 0, false
}

// normalize drops spaces and dashes and upper-cases, so "123 456" and "abcd-efgh-…" match.
func normalize(code string) string {
	return strings.ToUpper(strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' || r == '\t' {
			return -1
		}
		return r
	}, code))
}

// replaceCodes writes a new set of recovery codes for ownerID and returns them, formatted for
// reading ("ABCD-EFGH-IJKL-MNOP").
func replaceCodes(ctx context.Context, q *db.Queries, ownerID int64, now time.Time) ([]string, error) {
	if err := q.DeleteRecoveryCodes(ctx, ownerID); err != nil {
		return nil, err
	}
	codes := make([]string, 0, codeCount)
	for range codeCount {
		raw := make([]byte, codeGroups*4*5/8)
		rand.Read(raw)
		plain := base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(raw)
		if err := q.InsertRecoveryCode(ctx, db.InsertRecoveryCodeParams{OwnerID: ownerID, CodeHash: hashCode(plain), CreatedAt: db.Millis(now)}); err != nil {
			return nil, err
		}
		groups := make([]string, 0, codeGroups)
		for i := 0; i < len(plain); i += 4 {
			groups = append(groups, plain[i:i+4])
		}
		codes = append(codes, strings.Join(groups, "-"))
	}
	return codes, nil
}

// hashCode is how a recovery code is stored: random 80-bit codes need no slow hash.
func hashCode(normalized string) string {
	sum := sha256.Sum256([]byte(normalized))
	return hex.EncodeToString(sum[:])
}
