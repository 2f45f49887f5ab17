// Package stripetest runs Stripe's official mock server, stripe-mock, for frontdesk's tests,
// and builds on it a small stateful Stripe (Fake) whose Checkout Sessions can be paid and
// expire, plus signed events made with stripe-go's own test helper.
//
// stripe-mock validates every request against Stripe's OpenAPI description and answers with
// fixtures; it keeps no state, so a session it created cannot later be read back as paid. Fake
// keeps that state: creation goes through stripe-mock (so what frontdesk sends is validated),
// and reads and expiries of the sessions it made answer from the state, in the shape stripe-mock
// gave them. Only tests import this package.
//
// stripe-mock is found through $STRIPE_MOCK, then PATH, then $GOPATH/bin; .ci/run installs the
// pinned Version. Without it tests skip — except under CI=true, where they fail.
package stripetest

import (
	"bufio"
	"errors"
	"fmt"
	"go/build"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Version is the stripe-mock release .ci/run installs (go install
// github.com/stripe/stripe-mock@Version).
const Version = "v0.203.0"

// Path finds the stripe-mock binary.
func Path() (string, error) {
	if p := os.Getenv("STRIPE_MOCK"); p != "" {
		return p, nil
	}
	if p, err := exec.LookPath("stripe-mock"); err == nil {
		return p, nil
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		gopath = build.Default.GOPATH
	}
	p := filepath.Join(strings.Split(gopath, string(os.PathListSeparator))[0], "bin", "stripe-mock")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("stripe-mock not found ($STRIPE_MOCK, PATH, %s); install it with go install github.com/stripe/stripe-mock@%s", p, Version)
	}
	return p, nil
}

// server is one running stripe-mock.
type server struct {
	url  string
	cmd  *exec.Cmd
	done chan struct{}
}

// start runs stripe-mock on free loopback ports and waits until it listens.
func start() (*server, error) {
	path, err := Path()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, "-http-addr", "127.0.0.1:", "-https-addr", "127.0.0.1:")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", path, err)
	}
	s := &server{cmd: cmd, done: make(chan struct{})}
	addr := make(chan string, 1)
	go func() {
		defer close(s.done)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "Listening for HTTP at address: "); ok {
				addr <- strings.TrimSpace(a)
			}
		}
		io.Copy(io.Discard, out)
		cmd.Wait()
	}()
	select {
	case a := <-addr:
		s.url = "http://" + a
		return s, nil
	case <-s.done:
		return nil, errors.New("stripe-mock exited before listening")
	case <-time.After(60 * time.Second):
		s.stop()
		return nil, errors.New("stripe-mock not listening after 60 s")
	}
}

func (s *server) stop() {
	s.cmd.Process.Kill()
	<-s.done
}

// need skips the test without stripe-mock, or fails it under CI=true.
func need(t testing.TB, err error) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("stripe-mock is required when CI=true: %v", err)
	}
	t.Skipf("skipping: %v", err)
}

var shared struct {
	once sync.Once
	srv  *server
	err  error
}

// SharedURL is the URL of one stripe-mock for the whole test binary, started by the first
// caller. Call StopShared from TestMain after the tests ran.
func SharedURL(t testing.TB) string {
	t.Helper()
	shared.once.Do(func() { shared.srv, shared.err = start() })
	if shared.err != nil {
		need(t, shared.err)
	}
	return shared.srv.url
}

// StopShared stops the shared stripe-mock, if one was started.
func StopShared() {
	if shared.srv != nil {
		shared.srv.stop()
	}
}

// StartURL runs a stripe-mock for this test only (stopped when it ends).
func StartURL(t testing.TB) string {
	t.Helper()
	s, err := start()
	if err != nil {
		need(t, err)
	}
	t.Cleanup(s.stop)
	return s.url
}
