// Package smtptest runs a real SMTP server in process for tests (github.com/emersion/go-smtp):
// it records every message it accepts, can refuse with any reply, and can go down and come
// back on the same port. Parse reads a received message's parts.
package smtptest

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Message is one accepted message.
type Message struct {
	From string
	To   []string
	Data []byte
	At   time.Time
}

// Server is a running SMTP server on 127.0.0.1.
type Server struct {
	t    testing.TB
	mu   sync.Mutex
	msgs []Message
	// Reply, if set, is asked at each stage ("mail", "rcpt", "data") with the count of messages
	// accepted so far; a non-nil *smtp.SMTPError refuses with it.
	reply func(stage string, accepted int) error
	srv   *smtp.Server
	ln    net.Listener
	addr  string
	users map[string]string
	// conns counts the connections ever opened to the server, open those not closed yet.
	conns, open int
}

// Start runs a server until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{t: t}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.addr = ln.Addr().String()
	s.serve(ln)
	t.Cleanup(s.Down)
	return s
}

func (s *Server) serve(ln net.Listener) {
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		s.mu.Lock()
		s.conns++
		s.open++
		s.mu.Unlock()
		return &session{s: s}, nil
	}))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	s.mu.Lock()
	s.srv, s.ln = srv, ln
	s.mu.Unlock()
	go srv.Serve(ln)
}

// Host and Port are where the server listens.
func (s *Server) Host() string { h, _, _ := net.SplitHostPort(s.addr); return h }

// Port is the server's port.
func (s *Server) Port() int { _, p, _ := net.SplitHostPort(s.addr); n, _ := strconv.Atoi(p); return n }

// URL is an --smtp-url for this server (no TLS).
func (s *Server) URL() string { return "smtp://" + s.addr + "?starttls=off" }

// Down stops the server: connections are refused until Up.
func (s *Server) Down() {
	s.mu.Lock()
	srv, ln := s.srv, s.ln
	s.srv, s.ln = nil, nil
	s.mu.Unlock()
	if srv != nil {
		// The listener too: Close may run before Serve has taken it.
		ln.Close()
		srv.Close()
	}
}

// Up starts the server again on the same port.
func (s *Server) Up() {
	s.t.Helper()
	var ln net.Listener
	var err error
	for range 50 { // the port may take a moment to be free again
		if ln, err = net.Listen("tcp", s.addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		s.t.Fatalf("smtptest: listen again on %s: %v", s.addr, err)
	}
	s.serve(ln)
}

// SetReply sets how the server answers (nil: accept everything).
func (s *Server) SetReply(f func(stage string, accepted int) error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reply = f
}

// RequireAuth makes the server accept only user with password (PLAIN).
func (s *Server) RequireAuth(user, password string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users = map[string]string{user: password}
}

// Messages returns what the server accepted so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

// Connections is how many connections were ever opened to the server, and how many of them
// are open now.
func (s *Server) Connections() (opened, open int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns, s.open
}

// Refuse returns an SMTP reply with code, for SetReply.
func Refuse(code int, text string) error {
	return &smtp.SMTPError{Code: code, EnhancedCode: smtp.NoEnhancedCode, Message: text}
}

func (s *Server) ask(stage string) error {
	s.mu.Lock()
	f, n := s.reply, len(s.msgs)
	s.mu.Unlock()
	if f == nil {
		return nil
	}
	return f(stage, n)
}

type session struct {
	s    *Server
	from string
	to   []string
	auth bool
}

func (x *session) AuthMechanisms() []string { return []string{"PLAIN"} }

func (x *session) Auth(mech string) (sasl.Server, error) { return plainServer(x), nil }

func (x *session) Mail(from string, _ *smtp.MailOptions) error {
	x.s.mu.Lock()
	needAuth := x.s.users != nil
	x.s.mu.Unlock()
	if needAuth && !x.auth {
		return smtp.ErrAuthRequired
	}
	x.from = from
	return x.s.ask("mail")
}

func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if err := x.s.ask("rcpt"); err != nil {
		return err
	}
	x.to = append(x.to, to)
	return nil
}

func (x *session) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if err := x.s.ask("data"); err != nil {
		return err
	}
	x.s.mu.Lock()
	x.s.msgs = append(x.s.msgs, Message{From: x.from, To: x.to, Data: data, At: time.Now()})
	x.s.mu.Unlock()
	return nil
}

func (x *session) Reset() { x.from, x.to = "", nil }
func (x *session) Logout() error { // the connection closed (QUIT, or dropped)
	x.s.mu.Lock()
	x.s.open--
	x.s.mu.Unlock()
	return nil
}

// Parsed is a received message taken apart.
type Parsed struct {
	Header mail.Header
	// Subject is the decoded subject.
	Subject string
	Text    string
	HTML    string
	// Attachments by file name, decoded.
	Attachments map[string][]byte
	// RawHeader is the header block exactly as received.
	RawHeader string
}

// Parse takes a message apart: decoded subject, text and HTML parts, attachments.
func Parse(data []byte) (Parsed, error) {
	m, err := mail.ReadMessage(bytes.NewReader(data))
	if err != nil {
		return Parsed{}, err
	}
	p := Parsed{Header: m.Header, Attachments: map[string][]byte{}}
	if i := bytes.Index(data, []byte("\r\n\r\n")); i >= 0 {
		p.RawHeader = string(data[:i])
	}
	dec := new(mime.WordDecoder)
	p.Subject, err = dec.DecodeHeader(m.Header.Get("Subject"))
	if err != nil {
		return p, err
	}
	err = p.walk(m.Header.Get("Content-Type"), m.Header.Get("Content-Transfer-Encoding"), "", m.Body)
	return p, err
}

func (p *Parsed) walk(contentType, encoding, disposition string, body io.Reader) error {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return err
	}
	if strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			part, err := mr.NextRawPart()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			if err := p.walk(part.Header.Get("Content-Type"), part.Header.Get("Content-Transfer-Encoding"),
				part.Header.Get("Content-Disposition"), part); err != nil {
				return err
			}
		}
	}
	switch strings.ToLower(encoding) {
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, body)
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	}
	content, err := io.ReadAll(body)
	if err != nil {
		return err
	}
	if _, dp, err := mime.ParseMediaType(disposition); err == nil && dp["filename"] != "" {
		p.Attachments[dp["filename"]] = content
		return nil
	}
	switch mt {
	case "text/plain":
		p.Text = string(content)
	case "text/html":
		p.HTML = string(content)
	default:
		p.Attachments[params["name"]] = content
	}
	return nil
}
