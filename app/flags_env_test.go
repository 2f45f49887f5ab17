package app

import (
	"context"
	"io"
	"strings"
	"testing"
)

// A FRONTDESK_* fallback its flag cannot read is a usage error naming the variable, not the
// default in silence (FRONTDESK_HTTPS=yes used to serve plain HTTP). A flag given on the
// command line wins, and its variable is not looked at.
func TestUnreadableEnvironmentRefused(t *testing.T) {
	for _, tc := range []struct{ name, key, value string }{
		{"bool", "FRONTDESK_HTTPS", "yes"},
		{"bool of serve", "FRONTDESK_DEMO", "on"},
		{"int", "FRONTDESK_RATE_LIMIT_PER_MINUTE", "1,000"},
		{"duration without a unit", "FRONTDESK_SHUTDOWN_TIMEOUT", "20"},
		{"duration of healthcheck", "FRONTDESK_HEALTHCHECK_TIMEOUT", "5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"serve", "--data", t.TempDir(), "--addr", "127.0.0.1:0"}
			if strings.Contains(tc.key, "HEALTHCHECK") {
				args = []string{"healthcheck", "--url", "http://127.0.0.1:1/readyz"}
			}
			code, stderr := runWithEnv(t, map[string]string{tc.key: tc.value}, args...)
			if code != exitUsage || !strings.Contains(stderr, tc.key+`="`+tc.value+`"`) {
				t.Fatalf("%s=%s: exit %d, stderr %q; want %d naming the variable", tc.key, tc.value, code, stderr, exitUsage)
			}
		})
	}
	t.Run("the flag wins", func(t *testing.T) {
		code, stderr := runWithEnv(t, map[string]string{"FRONTDESK_RATE_LIMIT_PER_MINUTE": "many"},
			"serve", "--data", t.TempDir(), "--addr", "127.0.0.1:0", "--rate-limit-per-minute", "5")
		if code != exitOK {
			t.Fatalf("exit %d, stderr %s; want serve to start and stop", code, stderr)
		}
	})
}

// runWithEnv runs a command in-process with the given FRONTDESK_* variables; a serve is stopped
// as soon as it is ready.
func runWithEnv(t *testing.T, vars map[string]string, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr lockedBuffer
	code := Run(ctx, Env{
		Args: args, Getenv: func(k string) string { return vars[k] },
		Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr,
		Ready: func(string) { cancel() },
	})
	return code, stderr.String()
}
