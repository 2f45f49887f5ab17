package mailer

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	gomail "github.com/wneessen/go-mail"

	"frontdesk/app/messages"
)

// Connections to the mail server are kept open between messages (docs/messages.md, "Sending").
// A message on a fresh connection costs a TCP (and TLS) handshake, the greeting, EHLO, AUTH and
// QUIT besides its own MAIL, RCPT and DATA: about twice the round trips, and against a relay
// across the internet the handshakes are most of an attempt's time. Each dispatcher worker
// takes an open connection if one is idle and dials only when none is, so there are never more
// connections than workers; a connection goes back to the idle set after a message the server
// took, and is closed after any error, after maxMessagesPerConn messages (relays commonly cap a
// session), or once idle for connIdleTimeout (well inside the five minutes RFC 5321 §4.5.3.2.7
// asks servers to wait, so the server is not the one to drop it).
//
// A kept connection the server has closed meanwhile is found out before any message is given
// to it: go-mail begins every send with a NOOP, and a failed NOOP sends the message on a fresh
// connection instead — nothing was transmitted, so nothing can be duplicated.

const (
	connIdleTimeout    = 30 * time.Second
	maxMessagesPerConn = 100
)

// serverKey is what a connection was opened with: a change of any of these (the owner edits the
// settings) retires the connections opened before it.
type serverKey struct {
	host, security, username, password string
	port                               int
}

func keyOf(t messages.Transport) serverKey {
	return serverKey{host: t.Host, security: t.Security, username: t.Username, password: t.Password, port: t.Port}
}

// openConn is one connection to the mail server, held by a go-mail client.
type openConn struct {
	c         *gomail.Client
	key       serverKey
	sent      int
	idleSince time.Time
}

// smtpConns is the idle set of the dispatcher's connections.
type smtpConns struct {
	idleTimeout time.Duration // wall time, not the service's clock: this is about sockets

	mu     sync.Mutex
	idle   []*openConn // most recently used last
	closed bool        // the dispatcher has stopped: nothing is kept any more
	timer  *time.Timer // closes idle connections past idleTimeout
}

func newSMTPConns() *smtpConns { return &smtpConns{idleTimeout: connIdleTimeout} }

// deliver sends m through t on a kept connection, or a new one, and returns the server's final
// answer.
func (p *smtpConns) deliver(ctx context.Context, t messages.Transport, m *gomail.Msg, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	key := keyOf(t)
	if oc := p.take(key); oc != nil {
		err := oc.c.Send(m)
		if !staleConn(err) {
			return p.finish(oc, m, err)
		}
		go oc.c.Close() // the server let it go while it was idle: the message was not given to it
	}
	c, err := client(t, timeout)
	if err != nil {
		return "", err
	}
	if err := c.DialWithContext(ctx); err != nil {
		return "", fmt.Errorf("dial failed: %w", err) // worded as go-mail's DialAndSend words it
	}
	return p.finish(&openConn{c: c, key: key}, m, c.Send(m))
}

// staleConn reports whether a send failed on the check go-mail makes before it gives the server
// anything (a NOOP): the connection was dead, and the message untouched.
func staleConn(err error) bool {
	var se *gomail.SendError
	return errors.As(err, &se) && se.Reason == gomail.ErrConnCheck
}

// finish keeps oc after a message the server took, or closes it.
func (p *smtpConns) finish(oc *openConn, m *gomail.Msg, err error) (string, error) {
	if err != nil {
		go oc.c.Close()
		return "", fmt.Errorf("send failed: %w", err)
	}
	oc.sent++
	p.put(oc)
	return m.ServerResponse(), nil
}

// take returns the most recently used idle connection opened with key, or nil; idle connections
// opened with other settings are closed.
func (p *smtpConns) take(key serverKey) *openConn {
	p.mu.Lock()
	defer p.mu.Unlock()
	var oc *openConn
	keep := p.idle[:0]
	for _, c := range p.idle {
		if c.key != key {
			go c.c.Close() // QUIT waits for the server's answer: not under the lock
			continue
		}
		keep = append(keep, c)
	}
	clear(p.idle[len(keep):])
	p.idle = keep
	if n := len(p.idle); n > 0 {
		oc, p.idle[n-1] = p.idle[n-1], nil
		p.idle = p.idle[:n-1]
	}
	return oc
}

// put returns oc to the idle set, or closes it when it has carried its share or the dispatcher
// has stopped.
func (p *smtpConns) put(oc *openConn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || oc.sent >= maxMessagesPerConn {
		go oc.c.Close()
		return
	}
	oc.idleSince = time.Now()
	p.idle = append(p.idle, oc)
	if p.timer == nil {
		p.timer = time.AfterFunc(p.idleTimeout, p.closeIdle)
	}
}

// closeIdle closes the connections idle for idleTimeout or longer, and looks again when the
// next one will be.
func (p *smtpConns) closeIdle() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.timer = nil
	now := time.Now()
	keep := p.idle[:0]
	for _, c := range p.idle {
		if now.Sub(c.idleSince) >= p.idleTimeout {
			go c.c.Close()
			continue
		}
		keep = append(keep, c)
	}
	clear(p.idle[len(keep):])
	p.idle = keep
	if len(p.idle) > 0 {
		p.timer = time.AfterFunc(p.idleTimeout-now.Sub(p.idle[0].idleSince), p.closeIdle)
	}
}

// open lets connections be kept again (a dispatcher run begins).
func (p *smtpConns) open() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = false
}

// close closes every idle connection (QUIT) and keeps none from now on: the dispatcher stopped.
func (p *smtpConns) close() {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	if p.timer != nil {
		p.timer.Stop()
		p.timer = nil
	}
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, c := range idle {
		wg.Go(func() { c.c.Close() })
	}
	wg.Wait()
}
