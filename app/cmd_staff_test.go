package app

import (
	"bytes"
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"frontdesk/app/staff"
	"frontdesk/db"
)

// staffCmd runs `frontdesk staff …` in-process.
func staffCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(context.Background(), Env{
		Args: append([]string{"staff"}, args...), Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut,
		Getenv: func(string) string { return "" },
	})
	return code, out.String(), errOut.String()
}

// The team from the command line: an invitation link that makes the account, the list, a
// role change, disabling and enabling; the last owner is kept; mistakes are usage errors.
func TestStaffCommands(t *testing.T) {
	dir := newDataDir(t)
	if code, stderr := ownerCmd(t, "first password\n", "create", "--data", dir, "--email", "ana@example.com"); code != 0 {
		t.Fatalf("owner create: exit %d, %s", code, stderr)
	}
	code, stdout, stderr := staffCmd(t, "invite", "--data", dir, "--email", "Rita@Example.com", "--role", "reception", "--public-url", "https://book.example.com")
	if code != 0 || !strings.HasPrefix(stdout, "https://book.example.com/join?token=") || !strings.Contains(stderr, "rita@example.com as reception") {
		t.Fatalf("invite: exit %d, %q, %q; want a link under the public URL", code, stdout, stderr)
	}
	u, err := url.Parse(strings.TrimSpace(stdout))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	d, err := db.Open(ctx, db.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := staff.Accept(ctx, d, u.Query().Get("token"), "Rita", "rita password 1", time.Now()); err != nil {
		t.Fatalf("accept the printed link: %v", err)
	}
	d.Close()

	if code, stdout, _ := staffCmd(t, "list", "--data", dir); code != 0 || !strings.Contains(stdout, "rita@example.com") ||
		!strings.Contains(stdout, "Rita") || !strings.Contains(stdout, "reception") || !strings.Contains(stdout, "ana@example.com") {
		t.Errorf("list: exit %d,\n%s", code, stdout)
	}
	if code, _, stderr := staffCmd(t, "role", "--data", dir, "--email", "rita@example.com", "--role", "manager"); code != 0 || !strings.Contains(stderr, "manager") {
		t.Errorf("role: exit %d, %s", code, stderr)
	}
	if code, _, stderr := staffCmd(t, "disable", "--data", dir, "--email", "rita@example.com"); code != 0 || !strings.Contains(stderr, "disabled") {
		t.Errorf("disable: exit %d, %s", code, stderr)
	}
	if err := ownerSignIn(t, dir, "rita@example.com", "rita password 1"); err == nil {
		t.Error("a disabled account signed in")
	}
	if code, _, stderr := staffCmd(t, "enable", "--data", dir, "--email", "rita@example.com"); code != 0 || !strings.Contains(stderr, "active") {
		t.Errorf("enable: exit %d, %s", code, stderr)
	}
	if err := ownerSignIn(t, dir, "rita@example.com", "rita password 1"); err != nil {
		t.Errorf("sign in after enable: %v", err)
	}

	failures := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"last owner disabled", []string{"disable", "--data", dir, "--email", "ana@example.com"}, exitFail, "last owner"},
		{"last owner demoted", []string{"role", "--data", dir, "--email", "ana@example.com", "--role", "manager"}, exitFail, "last owner"},
		{"no subcommand", nil, exitUsage, "missing subcommand"},
		{"unknown subcommand", []string{"remove", "--data", dir}, exitUsage, "unknown subcommand"},
		{"bad role", []string{"invite", "--data", dir, "--email", "x@example.com", "--role", "boss"}, exitUsage, "--role"},
		{"provider without record", []string{"invite", "--data", dir, "--email", "x@example.com", "--role", "provider"}, exitUsage, "--provider"},
		{"no such provider", []string{"invite", "--data", dir, "--email", "x@example.com", "--role", "provider", "--provider", "999"}, exitFail, "no provider"},
		{"taken", []string{"invite", "--data", dir, "--email", "rita@example.com", "--role", "reception"}, exitFail, "already has an account"},
		{"unknown account", []string{"disable", "--data", dir, "--email", "nobody@example.com"}, exitFail, "no account"},
		{"no email", []string{"enable", "--data", dir}, exitUsage, "--email is required"},
	}
	for _, tc := range failures {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := staffCmd(t, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, %q; want exit %d mentioning %q", code, stderr, tc.code, tc.want)
			}
		})
	}
}
