package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
)

// A second serve on a data directory that one is serving refuses to start (it would make the
// first one's deliveries and emails in flight due again and send them a second time), and so
// does migrate; other commands still run beside it, and once the first stops a new serve starts.
func TestSecondServeOnOneDataDirectory(t *testing.T) {
	dir := newDataDir(t)
	first := serveInProcess(t, dir, []string{"--addr", "127.0.0.1:0"})

	code, stderr := serveUntilReady(dir)
	if code != exitFail || !strings.Contains(stderr, "already running on the data directory "+dir) ||
		!strings.Contains(stderr, fmt.Sprintf("(pid %d)", os.Getpid())) {
		t.Fatalf("second serve: exit %d, stderr %q; want %d and a message naming the directory and the first one's pid", code, stderr, exitFail)
	}
	if code, _, stderr := run(t, "", "apikey", "list", "--data", dir); code != exitOK {
		t.Fatalf("apikey list beside serve: exit %d, %s", code, stderr)
	}
	// An upgrade must not change the schema under a running server, which may be older.
	if code, _, stderr := run(t, "", "migrate", "--data", dir); code != exitFail || !strings.Contains(stderr, "already running on the data directory") {
		t.Fatalf("migrate beside serve: exit %d, %s; want %d naming the running server", code, stderr, exitFail)
	}

	if code := first.stop(); code != exitOK {
		t.Fatalf("first serve stopped with %d", code)
	}
	again := serveInProcess(t, dir, []string{"--addr", "127.0.0.1:0"})
	if code := again.stop(); code != exitOK {
		t.Fatalf("serve after the first stopped: exit %d\n%s", code, again.logs)
	}
}

// serveUntilReady runs serve on dir and returns its exit status and standard error, stopping it
// as soon as it is ready (then the status is its graceful stop's, 0).
func serveUntilReady(dir string) (int, string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr lockedBuffer
	code := Run(ctx, Env{
		Args:   []string{"serve", "--data", dir, "--addr", "127.0.0.1:0"},
		Getenv: func(string) string { return "" }, Stdout: io.Discard, Stderr: &stderr,
		Ready: func(string) { cancel() },
	})
	return code, stderr.String()
}
