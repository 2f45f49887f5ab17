package app

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// keepAlive is a keep-alive HTTP/1.1 connection the test drives by hand.
type keepAlive struct {
	c net.Conn
	r *bufio.Reader
}

func dialKeepAlive(t *testing.T, base string) *keepAlive {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &keepAlive{c: c, r: bufio.NewReader(c)}
}

// get asks for /healthz on the connection and returns the status, or the error that ended the
// connection instead.
func (k *keepAlive) get() (int, error) {
	k.c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(k.c, "GET /healthz HTTP/1.1\r\nHost: frontdesk.test\r\n\r\n"); err != nil {
		return 0, err
	}
	res, err := http.ReadResponse(k.r, nil)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, nil
}

const capLogged = "a client holds the most connections allowed; its new ones are closed until it closes some"

// One client could open connections until the process had no file descriptor left. Now one
// address holds at most --max-conns-per-client at once: the next is closed on arrival (logged
// once, not per connection), and a place comes free when one of its connections closes.
func TestConnectionsPerClientCapped(t *testing.T) {
	srv := serveInProcess(t, newDataDir(t), []string{"--addr", "127.0.0.1:0", "--max-conns-per-client", "3"})
	var held []*keepAlive
	for i := range 3 {
		k := dialKeepAlive(t, srv.URL)
		if st, err := k.get(); st != http.StatusOK {
			t.Fatalf("connection %d: %d %v, want 200", i+1, st, err)
		}
		held = append(held, k)
	}
	for i := range 2 {
		if st, err := dialKeepAlive(t, srv.URL).get(); err == nil {
			t.Fatalf("connection %d over the cap answered %d, want it closed", 4+i, st)
		}
	}
	if n := len(srv.logEntries(capLogged)); n != 1 {
		t.Errorf("%d log lines for the refused connections, want one:\n%s", n, srv.logs)
	}
	// The connections held still work, and one closed makes room for another.
	if st, err := held[1].get(); st != http.StatusOK {
		t.Fatalf("a held connection after the refusals: %d %v, want 200", st, err)
	}
	held[0].c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, err := dialKeepAlive(t, srv.URL).get()
		if st == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no room 10 s after a connection closed: %d %v", st, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A reverse proxy carries many clients on its connections: from a trusted proxy they are not
// capped like one client's.
func TestTrustedProxyConnectionsNotCapped(t *testing.T) {
	srv := serveInProcess(t, newDataDir(t), []string{"--addr", "127.0.0.1:0", "--max-conns-per-client", "1",
		"--trusted-proxies", "127.0.0.1"})
	for i := range 4 {
		if st, err := dialKeepAlive(t, srv.URL).get(); st != http.StatusOK {
			t.Fatalf("connection %d from the trusted proxy: %d %v, want 200", i+1, st, err)
		}
	}
	if n := len(srv.logEntries(capLogged)); n != 0 {
		t.Errorf("a trusted proxy's connections were refused:\n%s", srv.logs)
	}
}

// An idle keep-alive connection was kept 120 s, long enough for one client to pile up every
// descriptor. It is closed after --idle-timeout (60 s unless set, as the README says).
func TestIdleConnectionsClosed(t *testing.T) {
	cfg, err := parseServeConfig(Env{Getenv: func(string) string { return "" }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.IdleTimeout != 60*time.Second || cfg.MaxConnsPerClient != 100 {
		t.Errorf("defaults: idle timeout %s, %d connections per client; want 60s and 100 (README)", cfg.IdleTimeout, cfg.MaxConnsPerClient)
	}
	srv := serveInProcess(t, newDataDir(t), []string{"--addr", "127.0.0.1:0", "--idle-timeout", "300ms"})
	k := dialKeepAlive(t, srv.URL)
	if st, err := k.get(); st != http.StatusOK {
		t.Fatalf("%d %v, want 200", st, err)
	}
	start := time.Now()
	k.c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := k.r.ReadByte(); err != io.EOF {
		t.Fatalf("reading an idle connection: %v, want the server to close it (EOF)", err)
	}
	if idle := time.Since(start); idle > 5*time.Second {
		t.Errorf("the idle connection was closed after %s, want about 300ms", idle)
	}
}
