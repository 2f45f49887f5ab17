package messages

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// Security is how the connection to the mail server is protected, mirrored by the CHECK on
// message_settings.smtp_security.
const (
	SecurityStartTLS      = "starttls"      // STARTTLS required (port 587)
	SecurityOpportunistic = "opportunistic" // STARTTLS when the server offers it
	SecurityTLS           = "tls"           // implicit TLS (smtps, port 465)
	SecurityOff           = "off"           // plain text: only for a relay on this machine or LAN
)

// DefaultTimeout bounds one attempt, from connecting to the server's answer to the message.
const DefaultTimeout = 30 * time.Second

// Transport is how messages leave: the mail server and the sender.
type Transport struct {
	Host     string
	Port     int
	Security string
	Username string
	Password string
	From     mail.Address // the sender the client sees
	ReplyTo  string       // optional
	// ownerCopy is where owner copies go ("" = the first owner account's address).
	ownerCopy string
}

// Ready reports whether t can send: a server and a sender address.
func (t Transport) Ready() bool { return t.Host != "" && t.From.Address != "" }

// Override is what `serve --smtp-url` and `--mail-from` say; set parts win over the stored
// settings (docs/messages.md).
type Override struct {
	Server *Transport    // host, port, security, user and password
	From   *mail.Address // the sender
}

// Active reports whether anything is overridden.
func (o Override) Active() bool { return o.Server != nil || o.From != nil }

// apply lays o over the stored transport.
func (o Override) apply(t Transport) Transport {
	if s := o.Server; s != nil {
		t.Host, t.Port, t.Security, t.Username, t.Password = s.Host, s.Port, s.Security, s.Username, s.Password
	}
	if o.From != nil {
		t.From = *o.From
	}
	return t
}

// ErrBadURL is wrapped by every ParseSMTPURL error.
var ErrBadURL = errors.New("invalid SMTP URL")

// ParseSMTPURL reads --smtp-url: smtp://[user:pass@]host[:port][?starttls=required|opportunistic|off]
// (port 587, STARTTLS required unless said otherwise) or smtps://[user:pass@]host[:port]
// (implicit TLS, port 465). User and password are URL-escaped (an @ in a user name is %40).
func ParseSMTPURL(raw string) (Transport, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return Transport{}, fmt.Errorf("%w: %v", ErrBadURL, redactedError(err))
	}
	t := Transport{Host: u.Hostname()}
	switch u.Scheme {
	case "smtp":
		t.Port, t.Security = 587, SecurityStartTLS
	case "smtps":
		t.Port, t.Security = 465, SecurityTLS
	default:
		return Transport{}, fmt.Errorf("%w: want smtp:// or smtps://, got %q", ErrBadURL, u.Scheme)
	}
	if t.Host == "" || strings.ContainsAny(t.Host, " \r\n") {
		return Transport{}, fmt.Errorf("%w: no host", ErrBadURL)
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return Transport{}, fmt.Errorf("%w: port %q, want 1 to 65535", ErrBadURL, p)
		}
		t.Port = n
	}
	if u.User != nil {
		t.Username = u.User.Username()
		t.Password, _ = u.User.Password()
	}
	if (u.Path != "" && u.Path != "/") || u.Fragment != "" {
		return Transport{}, fmt.Errorf("%w: no path or fragment allowed", ErrBadURL)
	}
	q := u.Query()
	for k := range q {
		if k != "starttls" {
			return Transport{}, fmt.Errorf("%w: unknown parameter %q (only starttls)", ErrBadURL, k)
		}
	}
	if v := q.Get("starttls"); v != "" {
		if u.Scheme == "smtps" {
			return Transport{}, fmt.Errorf("%w: starttls does not apply to smtps:// (already TLS)", ErrBadURL)
		}
		switch v {
		case "required":
			t.Security = SecurityStartTLS
		case "opportunistic":
			t.Security = SecurityOpportunistic
		case "off":
			t.Security = SecurityOff
		default:
			return Transport{}, fmt.Errorf("%w: starttls=%q, want required, opportunistic or off", ErrBadURL, v)
		}
	}
	return t, nil
}

// redactedError keeps a password out of a URL parse error.
func redactedError(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return "malformed"
}

// ErrBadAddress is wrapped by every ParseAddress error.
var ErrBadAddress = errors.New("invalid email address")

// ParseAddress reads one address, optionally with a name ("Salon Ana <hola@example.com>").
// Line breaks and other control characters are refused anywhere: they are how headers are
// injected.
func ParseAddress(s string) (mail.Address, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return mail.Address{}, fmt.Errorf("%w: empty", ErrBadAddress)
	}
	if strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return mail.Address{}, fmt.Errorf("%w: line breaks and control characters are not allowed", ErrBadAddress)
	}
	a, err := mail.ParseAddress(s)
	if err != nil || !strings.Contains(a.Address, "@") {
		return mail.Address{}, fmt.Errorf("%w: %q", ErrBadAddress, s)
	}
	return *a, nil
}

// Attempt categories, shown in the message log.
const (
	CategoryConnect   = "connect"   // the server could not be reached
	CategoryTLS       = "tls"       // the secure connection failed
	CategoryTimeout   = "timeout"   // no answer in time
	CategoryAuth      = "auth"      // the server refused to let us in (user, password, sender)
	CategoryTemporary = "temporary" // a 4xx reply: try again later
	CategoryRejected  = "rejected"  // a 5xx reply to the message: permanent
	CategoryAddress   = "address"   // the recipient address is not usable
	CategoryTemplate  = "template"  // the text could not be made
	CategoryOther     = "other"
)

// sendError is what went wrong with one attempt: the server's reply code (0 for none), a
// category and whether trying again can help.
type sendError struct {
	code      int
	category  string
	permanent bool
	text      string
}

func (e *sendError) Error() string { return e.text }

// classify reads a go-mail error. A 5xx reply to the message itself (MAIL FROM, RCPT TO,
// DATA) is permanent: the server refused this message. Everything else — a 4xx, a timeout, a
// connection or TLS failure, and a refusal while connecting or logging in, which is about the
// settings rather than this message — is tried again on the schedule, so fixing the settings
// delivers what waited.
func classify(err error) *sendError {
	e := &sendError{category: CategoryOther, text: strings.ToValidUTF8(err.Error(), "\uFFFD")}
	var tp *textproto.Error
	if errors.As(err, &tp) {
		e.code = tp.Code
		e.text = fmt.Sprintf("%d %s", tp.Code, tp.Msg)
	}
	var se *gomail.SendError
	isSend := errors.As(err, &se)
	if isSend && e.code == 0 {
		e.code = se.ErrorCode()
	}
	var ne net.Error
	switch {
	case isSend && e.code >= 500:
		e.category, e.permanent = CategoryRejected, true
	case e.code >= 400 && e.code < 500:
		e.category = CategoryTemporary
	case e.code >= 500:
		e.category = CategoryAuth
	case errors.As(err, &ne) && ne.Timeout(), errors.Is(err, context.DeadlineExceeded):
		e.category = CategoryTimeout
	case strings.Contains(e.text, "tls"), strings.Contains(e.text, "TLS"), strings.Contains(e.text, "certificate"):
		e.category = CategoryTLS
	case strings.Contains(e.text, "dial"), strings.Contains(e.text, "connect"):
		e.category = CategoryConnect
	}
	return e
}

// client makes a go-mail client for one attempt.
func (t Transport) client(timeout time.Duration) (*gomail.Client, error) {
	opts := []gomail.Option{gomail.WithPort(t.Port), gomail.WithTimeout(timeout)}
	switch t.Security {
	case SecurityTLS:
		opts = append(opts, gomail.WithSSL())
	case SecurityOpportunistic:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	case SecurityOff:
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	default:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	}
	if t.Username != "" {
		// Over TLS the strongest mechanism the server offers; in plain text only PLAIN, which
		// the library allows to a server on this machine alone — a password never crosses a
		// network unencrypted.
		mech := gomail.SMTPAuthAutoDiscover
		if t.Security == SecurityOff {
			mech = gomail.SMTPAuthPlain
		}
		opts = append(opts, gomail.WithSMTPAuth(mech), gomail.WithUsername(t.Username), gomail.WithPassword(t.Password))
	}
	return gomail.NewClient(t.Host, opts...)
}

// deliver sends m in one connection and returns the server's final answer.
func (t Transport) deliver(ctx context.Context, m *gomail.Msg, timeout time.Duration) (string, error) {
	c, err := t.client(timeout)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := c.DialAndSendWithContext(ctx, m); err != nil {
		return "", err
	}
	return m.ServerResponse(), nil
}
