package app

import (
	"context"
	"testing"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"frontdesk/app/secrets"
	"frontdesk/app/twofactor"
	"frontdesk/db"
)

// An owner who lost both their phone and their recovery codes gets back in through the
// server: reset-password --two-factor-off turns two-factor off with the new password.
func TestOwnerResetPasswordTurnsTwoFactorOff(t *testing.T) {
	dir := newDataDir(t)
	if code, stderr := ownerCmd(t, "first password\n", "create", "--data", dir, "--email", "ana@example.com"); code != 0 {
		t.Fatalf("create: exit %d, %s", code, stderr)
	}
	ctx := context.Background()
	d, err := db.Open(ctx, db.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	box, err := secrets.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	tf := twofactor.Service{DB: d, Box: box}
	n, err := d.R.CountOwners(ctx)
	if err != nil || n != 1 {
		t.Fatalf("owners: %d, %v", n, err)
	}
	const id = 1
	now := time.Now()
	e, err := tf.Begin(ctx, id, "ana@example.com", now)
	if err != nil {
		t.Fatal(err)
	}
	code, err := totp.GenerateCodeCustom(e.Secret, now, totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tf.Confirm(ctx, id, code, now); err != nil {
		t.Fatal(err)
	}
	d.Close()

	if code, stderr := ownerCmd(t, "", "create", "--data", dir, "--email", "bob@example.com", "--two-factor-off"); code != exitUsage {
		t.Errorf("create --two-factor-off: exit %d, %s; want a usage error", code, stderr)
	}
	if code, stderr := ownerCmd(t, "second password\n", "reset-password", "--data", dir, "--email", "ana@example.com", "--two-factor-off"); code != 0 {
		t.Fatalf("reset-password --two-factor-off: exit %d, %s", code, stderr)
	}
	d, err = db.Open(ctx, db.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if on, err := (twofactor.Service{DB: d}).Enabled(ctx, id); err != nil || on {
		t.Errorf("after reset-password --two-factor-off two-factor is on=%v (%v), want off", on, err)
	}
}
