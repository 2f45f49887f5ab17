package messages

import (
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
)

// Security is how the connection to the mail server is protected, mirrored by the CHECK on
// message_settings.smtp_security.
const (
	SecurityStartTLS      = "starttls"      // STARTTLS required (port 587)
	SecurityOpportunistic = "opportunistic" // STARTTLS when the server offers it
	SecurityTLS           = "tls"           // implicit TLS (smtps, port 465)
	SecurityOff           = "off"           // plain text: only for a relay on this machine or LAN
)

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
	// Text is the SMS provider (docs/messages.md, "Channels").
	Text TextTransport
	// WhatsApp is the WhatsApp Business channel (docs/messages.md, "WhatsApp").
	WhatsApp WhatsAppTransport
}

// Ready reports whether t can send email: a server and a sender address.
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
