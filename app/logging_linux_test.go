package app

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// openPTY opens a pseudo-terminal and returns its terminal side, what a person's shell gives a
// program as standard error, and what was written to it so far.
func openPTY(t *testing.T) (term *os.File, written func() string) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Fatalf("a pseudo-terminal: %v", err)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Fatalf("TIOCGPTN: %v", e)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatalf("TIOCSPTLCK: %v", e)
	}
	term, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var buf bytes.Buffer
	done := make(chan struct{})
	go func() { // drain it, as a terminal shows what it gets
		defer close(done)
		b := make([]byte, 4096)
		for {
			n, err := master.Read(b)
			mu.Lock()
			buf.Write(b[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { term.Close(); master.Close(); <-done })
	return term, func() string { mu.Lock(); defer mu.Unlock(); return buf.String() }
}

// serveOn runs serve on a new data directory with stderr and the environment vars until it is
// ready, then stops it.
func serveOn(t *testing.T, stderr io.Writer, vars map[string]string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	code := Run(ctx, Env{Args: append([]string{"serve", "--data", newDataDir(t), "--addr", "127.0.0.1:0"}, args...),
		Getenv: func(k string) string { return vars[k] }, Stdout: io.Discard, Stderr: stderr, Ready: func(string) { cancel() }})
	if code != 0 {
		t.Fatalf("serve: exit %d", code)
	}
}

// The log's format follows where it goes: text on a terminal, JSON under systemd (even on a
// terminal) and anywhere else; --log-format (FRONTDESK_LOG_FORMAT) chooses. The start line
// carries the version either way.
func TestLogFormatFollowsTheTerminal(t *testing.T) {
	term, written := openPTY(t)
	serveOn(t, term, nil)
	waitUntil(t, 10*time.Second, "the log on the terminal", func() bool { return strings.Contains(written(), "msg=stopped") })
	if out := written(); !strings.Contains(out, "level=INFO msg=listening addr=127.0.0.1:") || !strings.Contains(out, " version=") || strings.Contains(out, `{"time"`) {
		t.Errorf("on a terminal: want text lines with the version, got\n%s", out)
	}

	term, written = openPTY(t)
	serveOn(t, term, map[string]string{"JOURNAL_STREAM": "8:12345", "INVOCATION_ID": "0123456789abcdef"})
	waitUntil(t, 10*time.Second, "the log under systemd", func() bool { return strings.Contains(written(), `"msg":"stopped"`) })
	if out := written(); !strings.Contains(out, `"msg":"listening"`) || !strings.Contains(out, `"version":"`) || strings.Contains(out, "msg=listening") {
		t.Errorf("under systemd: want JSON with the version, got\n%s", out)
	}

	term, written = openPTY(t)
	serveOn(t, term, map[string]string{"FRONTDESK_LOG_FORMAT": "json"})
	waitUntil(t, 10*time.Second, "the log asked for as JSON", func() bool { return strings.Contains(written(), `"msg":"stopped"`) })

	var buf lockedBuffer
	serveOn(t, &buf, nil, "--log-format", "text")
	if out := buf.String(); !strings.Contains(out, "level=INFO msg=listening") {
		t.Errorf("--log-format text into a pipe: want text, got\n%s", out)
	}
	buf = lockedBuffer{}
	serveOn(t, &buf, nil)
	if out := buf.String(); !strings.Contains(out, `"msg":"listening"`) || !strings.Contains(out, `"version":"`) {
		t.Errorf("into a pipe: want JSON with the version, got\n%s", out)
	}
	if code, _, stderr := run(t, "", "serve", "--log-format", "xml"); code != exitUsage || !strings.Contains(stderr, "want text or json") {
		t.Errorf("--log-format xml: exit %d, %s", code, stderr)
	}
}
