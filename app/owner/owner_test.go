package owner

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"frontdesk/db"
	"frontdesk/db/dbtest"
)

var now = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

func openDB(t *testing.T) *db.DB {
	t.Helper()
	d := dbtest.Open(t, filepath.Join(t.TempDir(), "test.db"))
	return d
}

func TestPasswordHash(t *testing.T) {
	h, err := hashPassword("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Errorf("got hash %q, want PHC argon2id with m=19456,t=2,p=1", h)
	}
	h2, _ := hashPassword("correct horse battery")
	if h == h2 {
		t.Error("two hashes of one password are equal; want distinct salts")
	}
	tests := []struct {
		name    string
		hash    string
		pw      string
		want    bool
		wantErr bool
	}{
		{"right password", h, "correct horse battery", true, false},
		{"wrong password", h, "correct horse batterY", false, false},
		{"empty password", h, "", false, false},
		{"not a PHC string", "plain", "x", false, true},
		{"other algorithm", strings.Replace(h, "argon2id", "argon2i", 1), "correct horse battery", false, true},
		{"bad base64", h[:len(h)-3] + "!!!", "correct horse battery", false, true},
		{"absurd memory", strings.Replace(h, "m=19456", "m=99999999", 1), "x", false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := checkPassword(tc.hash, tc.pw)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("got %v, %v; want %v, error %v", got, err, tc.want, tc.wantErr)
			}
		})
	}
}

func TestValidation(t *testing.T) {
	emails := []struct {
		in, want string
		ok       bool
	}{
		{"  Ana@Example.COM ", "ana@example.com", true},
		{"", "", false},
		{"ana", "", false},
		{"Ana <ana@example.com>", "", false},
		{"ana@example.com, bob@example.com", "", false},
		{strings.Repeat("a", 250) + "@x.io", "", false},
	}
	for _, tc := range emails {
		got, err := NormalizeEmail(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("NormalizeEmail(%q) = %q, %v; want %q, ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
	passwords := []struct {
		name string
		pw   string
		want error
	}{
		{"nine characters", "123456789", ErrPasswordTooShort},
		{"ten characters", "1234567890", nil},
		{"ten runes, more bytes", "ñññññññññññ", nil},
		{"too long", strings.Repeat("x", MaxPasswordLen+1), ErrPasswordTooLong},
	}
	for _, tc := range passwords {
		if got := ValidatePassword(tc.pw); !errors.Is(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestCreateAuthenticateChange(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	o, err := Create(ctx, d, "Ana@Example.com", "first password", now)
	if err != nil {
		t.Fatal(err)
	}
	if o.Email != "ana@example.com" {
		t.Errorf("got email %q, want it lower-cased", o.Email)
	}
	if _, err := Create(ctx, d, "ana@example.com", "another password", now); !errors.Is(err, ErrEmailTaken) {
		t.Errorf("duplicate email: got %v, want ErrEmailTaken", err)
	}
	if _, err := Create(ctx, d, "bob@example.com", "short", now); !errors.Is(err, ErrPasswordTooShort) {
		t.Errorf("short password: got %v, want ErrPasswordTooShort", err)
	}

	auth := []struct {
		name, email, pw string
		want            error
	}{
		{"right", "ana@example.com", "first password", nil},
		{"email case and spaces ignored", " ANA@example.com", "first password", nil},
		{"wrong password", "ana@example.com", "first passwore", ErrInvalidCredentials},
		{"unknown email", "nobody@example.com", "first password", ErrInvalidCredentials},
		{"huge password", "ana@example.com", strings.Repeat("x", 5000), ErrInvalidCredentials},
	}
	for _, tc := range auth {
		got, err := Authenticate(ctx, d, tc.email, tc.pw)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
		if err == nil && got.ID != o.ID {
			t.Errorf("%s: got owner %d, want %d", tc.name, got.ID, o.ID)
		}
	}

	if _, err := ChangePassword(ctx, d, o.ID, "wrong current", "second password", now); !errors.Is(err, ErrInvalidCredentials) {
		t.Errorf("change with wrong current: got %v, want ErrInvalidCredentials", err)
	}
	changed, err := ChangePassword(ctx, d, o.ID, "first password", "second password", now)
	if err != nil {
		t.Fatal(err)
	}
	if changed.Stamp == o.Stamp {
		t.Error("stamp unchanged after a password change; want a new one (it signs out other sessions)")
	}
	if _, err := Authenticate(ctx, d, "ana@example.com", "first password"); !errors.Is(err, ErrInvalidCredentials) {
		t.Errorf("old password after change: got %v, want ErrInvalidCredentials", err)
	}
	if _, err := ResetPassword(ctx, d, "ANA@example.com", "third password", now); err != nil {
		t.Fatal(err)
	}
	if _, err := Authenticate(ctx, d, "ana@example.com", "third password"); err != nil {
		t.Errorf("new password after reset: got %v, want nil", err)
	}
	if _, err := ResetPassword(ctx, d, "nobody@example.com", "third password", now); !errors.Is(err, ErrNotFound) {
		t.Errorf("reset unknown: got %v, want ErrNotFound", err)
	}
}

func TestSetupToken(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	first, needed, err := NewSetupToken(ctx, d, now)
	if err != nil || !needed || len(first) < 40 {
		t.Fatalf("got %q, %v, %v; want a long token", first, needed, err)
	}
	token, _, err := NewSetupToken(ctx, d, now)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		token string
		want  bool
	}{{"current token", token, true}, {"token of an earlier start", first, false}, {"empty", "", false}, {"guess", "x" + token[1:], false}} {
		if got, err := SetupOpen(ctx, d, tc.token); got != tc.want || err != nil {
			t.Errorf("%s: SetupOpen got %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
	if _, err := CreateFirst(ctx, d, first, "ana@example.com", "first password", now); !errors.Is(err, ErrSetupClosed) {
		t.Errorf("old token: got %v, want ErrSetupClosed", err)
	}
	if _, err := CreateFirst(ctx, d, token, "ana@example.com", "first password", now); err != nil {
		t.Fatal(err)
	}
	if _, err := CreateFirst(ctx, d, token, "eve@example.com", "first password", now); !errors.Is(err, ErrSetupClosed) {
		t.Errorf("token reused: got %v, want ErrSetupClosed", err)
	}
	if ok, _ := SetupOpen(ctx, d, token); ok {
		t.Error("setup still open after the first owner; want closed")
	}
	if tok, needed, err := NewSetupToken(ctx, d, now); tok != "" || needed || err != nil {
		t.Errorf("with an owner: got %q, %v, %v; want no token", tok, needed, err)
	}
}

func BenchmarkHashPassword(b *testing.B) {
	for b.Loop() {
		hashPassword("correct horse battery")
	}
}
