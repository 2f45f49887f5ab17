package app

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"frontdesk/app/owner"
	"frontdesk/app/twofactor"
)

// runOwner is `frontdesk owner create|reset-password --data DIR --email EMAIL`. The password is
// the first line of standard input, never a flag (flags show up in `ps` and shell history):
//
//	printf '%s\n' "$PASSWORD" | frontdesk owner create --email ana@example.com
func runOwner(ctx context.Context, env Env, args []string) error {
	const usage = "Usage: frontdesk owner create|reset-password --data DIR --email EMAIL\n\n" +
		"  create           add an owner account (also closes first-run setup)\n" +
		"  reset-password   set a new password for an owner and sign out their sessions;\n" +
		"                   --two-factor-off also turns off their two-factor sign-in (a lost phone\n" +
		"                   and lost recovery codes)\n\n" +
		"The password is read from the first line of standard input (at least 10 characters)."
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(env.Stdout, usage)
		if len(args) == 0 {
			return usagef("missing subcommand")
		}
		return nil
	}
	sub, args := args[0], args[1:]
	if sub != "create" && sub != "reset-password" {
		return usagef("unknown subcommand %q (want create or reset-password)", sub)
	}
	fs := newFlagSet("owner "+sub, "--data DIR --email EMAIL  (password on standard input)", env)
	data := dataFlag(fs, env)
	email := fs.String("email", "", "the owner's email address (required)")
	twoFactorOff := fs.Bool("two-factor-off", false, "reset-password: also turn off the owner's two-factor sign-in")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q (the password is read from standard input)", fs.Arg(0))
	}
	if *email == "" {
		return usagef("--email is required")
	}
	if *twoFactorOff && sub != "reset-password" {
		return usagef("--two-factor-off goes with reset-password")
	}
	if _, err := owner.NormalizeEmail(*email); err != nil {
		return usagef("--email %q: %v", *email, err)
	}
	password, err := readPassword(env.Stdin)
	if err != nil {
		return err
	}
	d, err := openData(ctx, env, *data)
	if err != nil {
		return err
	}
	defer d.Close()
	if sub == "create" {
		o, err := owner.Create(ctx, d, *email, password, env.Now())
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "owner %s created (id %d)\n", o.Email, o.ID)
		return nil
	}
	o, err := owner.ResetPassword(ctx, d, *email, password, env.Now())
	if errors.Is(err, owner.ErrNotFound) {
		return fmt.Errorf("no owner with email %s", *email)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "password of %s reset; their sessions are signed out\n", o.Email)
	if *twoFactorOff {
		if err := (twofactor.Service{DB: d}).Disable(ctx, o.ID); err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "two-factor sign-in of %s turned off\n", o.Email)
	}
	return nil
}

// readPassword takes the first line of r, without its line ending (other spaces count).
func readPassword(r io.Reader) (string, error) {
	line, err := bufio.NewReader(io.LimitReader(r, owner.MaxPasswordLen+2)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("read password: %w", err)
	}
	password := strings.TrimRight(line, "\r\n")
	if password == "" {
		return "", usagef("no password on standard input (pipe it in: printf '%%s\\n' \"$PASSWORD\" | frontdesk owner …)")
	}
	if err := owner.ValidatePassword(password); err != nil {
		return "", usagef("password: %v", err)
	}
	return password, nil
}
