package app

import (
	"log/slog"
	"net"
	"net/netip"
	"sync"

	"frontdesk/app/middleware"
)

// DefaultMaxConnsPerClient is how many connections one client may hold open at once
// (--max-conns-per-client). A browser opens at most six to one site, so this leaves room for an
// office of people behind one address, and keeps a single client from holding every file
// descriptor the process has.
const DefaultMaxConnsPerClient = 100

// clientLimitListener caps the connections one client holds open at once. A client is an
// address, or an IPv6 /64 (middleware.LimitPrefix); a connection over the cap is closed as soon
// as it is accepted, before it costs more than its descriptor. Connections from trusted proxies
// (--trusted-proxies) are not counted: a reverse proxy carries many clients, and those are
// limited where it stands. It wraps the TCP listener, under any TLS.
type clientLimitListener struct {
	net.Listener
	max     int
	trusted []netip.Prefix
	log     *slog.Logger

	mu   sync.Mutex
	open map[netip.Prefix]*clientConns
}

// clientConns is one client's open connections, and whether a refusal was logged since it
// last had none: one log line per client and spell, however often it tries.
type clientConns struct {
	n      int
	warned bool
}

// limitPerClient wraps ln with the per-client cap; max ≤ 0 leaves it unlimited.
func limitPerClient(ln net.Listener, max int, trusted []netip.Prefix, log *slog.Logger) net.Listener {
	if max <= 0 {
		return ln
	}
	return &clientLimitListener{Listener: ln, max: max, trusted: trusted, log: log, open: map[netip.Prefix]*clientConns{}}
}

func (l *clientLimitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ap, err := netip.ParseAddrPort(c.RemoteAddr().String())
		if err != nil { // not an IP connection: nothing to count it by
			return c, nil
		}
		addr := ap.Addr().Unmap()
		if l.isTrusted(addr) {
			return c, nil
		}
		key := middleware.LimitPrefix(addr)
		if l.take(key) {
			return &limitedConn{Conn: c, release: sync.OnceFunc(func() { l.release(key) })}, nil
		}
		c.Close()
	}
}

func (l *clientLimitListener) isTrusted(a netip.Addr) bool {
	for _, p := range l.trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// take counts a new connection of key, or reports that key is at the cap.
func (l *clientLimitListener) take(key netip.Prefix) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.open[key]
	if c == nil {
		c = &clientConns{}
		l.open[key] = c
	}
	if c.n < l.max {
		c.n++
		return true
	}
	if !c.warned {
		c.warned = true
		l.log.Warn("a client holds the most connections allowed; its new ones are closed until it closes some",
			slog.String("client", key.String()), slog.Int("max_conns_per_client", l.max))
	}
	return false
}

func (l *clientLimitListener) release(key netip.Prefix) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c := l.open[key]; c != nil {
		if c.n--; c.n <= 0 {
			delete(l.open, key)
		}
	}
}

// limitedConn gives its client's place back when it closes, once.
type limitedConn struct {
	net.Conn
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.release()
	return err
}
