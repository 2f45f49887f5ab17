package app

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"frontdesk/app/owner"
	"frontdesk/db"
)

// ownerCmd runs `frontdesk owner …` in-process with stdin.
func ownerCmd(t *testing.T, stdin string, args ...string) (code int, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(context.Background(), Env{
		Args: append([]string{"owner"}, args...), Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut,
		Getenv: func(string) string { return "" },
	})
	return code, errOut.String()
}

func ownerSignIn(t *testing.T, dir, email, password string) error {
	t.Helper()
	d, err := db.Open(context.Background(), db.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	_, err = owner.Authenticate(context.Background(), d, email, password)
	return err
}

func TestOwnerCommands(t *testing.T) {
	dir := newDataDir(t)
	if code, stderr := ownerCmd(t, "first password  \r\nignored second line\n", "create", "--data", dir, "--email", "Ana@Example.com"); code != 0 {
		t.Fatalf("create: exit %d, %s", code, stderr)
	}
	if err := ownerSignIn(t, dir, "ana@example.com", "first password  "); err != nil {
		t.Errorf("sign in with the created password (trailing spaces kept, CRLF dropped): %v", err)
	}

	failures := []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"no subcommand", "", nil, exitUsage, "missing subcommand"},
		{"unknown subcommand", "", []string{"delete", "--data", dir}, exitUsage, "unknown subcommand"},
		{"no email", "long enough pw\n", []string{"create", "--data", dir}, exitUsage, "--email is required"},
		{"bad email", "long enough pw\n", []string{"create", "--data", dir, "--email", "ana"}, exitUsage, "valid email"},
		{"empty stdin", "", []string{"create", "--data", dir, "--email", "bob@example.com"}, exitUsage, "no password on standard input"},
		{"empty first line", "\nlong enough pw\n", []string{"create", "--data", dir, "--email", "bob@example.com"}, exitUsage, "no password"},
		{"short password", "short\n", []string{"create", "--data", dir, "--email", "bob@example.com"}, exitUsage, "at least 10"},
		{"password as argument", "", []string{"create", "--data", dir, "--email", "bob@example.com", "secretpassword"}, exitUsage, "unexpected argument"},
		{"duplicate", "another password\n", []string{"create", "--data", dir, "--email", "ANA@example.com"}, exitFail, "already exists"},
		{"reset unknown", "another password\n", []string{"reset-password", "--data", dir, "--email", "zoe@example.com"}, exitFail, "no owner with email"},
	}
	for _, tc := range failures {
		t.Run(tc.name, func(t *testing.T) {
			code, stderr := ownerCmd(t, tc.stdin, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Errorf("got exit %d, stderr %q; want exit %d mentioning %q", code, stderr, tc.code, tc.want)
			}
		})
	}
	if err := ownerSignIn(t, dir, "bob@example.com", "long enough pw"); !errors.Is(err, owner.ErrInvalidCredentials) {
		t.Errorf("a failed create left an account behind: %v", err)
	}

	if code, stderr := ownerCmd(t, "second password\n", "reset-password", "--email", "ana@example.com", "--data", dir); code != 0 {
		t.Fatalf("reset-password: exit %d, %s", code, stderr)
	}
	if err := ownerSignIn(t, dir, "ana@example.com", "second password"); err != nil {
		t.Errorf("new password after reset: %v", err)
	}
	if err := ownerSignIn(t, dir, "ana@example.com", "first password  "); !errors.Is(err, owner.ErrInvalidCredentials) {
		t.Errorf("old password after reset: got %v, want refused", err)
	}
}

// TestServeLogsSetupURLOnlyWithoutOwner: a fresh data directory gets a setup URL in the log;
// once an owner exists (here made by the CLI) it does not.
func TestServeLogsSetupURLOnlyWithoutOwner(t *testing.T) {
	dir := newDataDir(t)
	if logs := serveOnce(t, dir); !strings.Contains(logs, `"setup_url":"http://127.0.0.1:`) || !strings.Contains(logs, "/setup?token=") {
		t.Errorf("fresh start: no setup URL in the log:\n%s", logs)
	}
	if code, stderr := ownerCmd(t, "first password\n", "create", "--data", dir, "--email", "ana@example.com"); code != 0 {
		t.Fatalf("create: exit %d, %s", code, stderr)
	}
	if logs := serveOnce(t, dir); strings.Contains(logs, "setup_url") {
		t.Errorf("with an owner: the log offers setup:\n%s", logs)
	}
}

// serveOnce starts serve on a random port, stops it once it listens, and returns its log.
func serveOnce(t *testing.T, dir string) string {
	t.Helper()
	var mu sync.Mutex
	var logs bytes.Buffer
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, Env{
			Args:   []string{"serve", "--addr", "127.0.0.1:0", "--data", dir},
			Getenv: func(string) string { return "" },
			Stderr: writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return logs.Write(p) }),
			Stdout: &bytes.Buffer{},
			Ready:  func(string) { stop() },
		})
	}()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("serve: exit %d:\n%s", code, logs.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatal("serve did not start and stop within 60 s")
	}
	mu.Lock()
	defer mu.Unlock()
	return logs.String()
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
