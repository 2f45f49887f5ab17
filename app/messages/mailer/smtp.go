package mailer

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/textproto"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"frontdesk/app/messages"
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
	e := &sendError{category: messages.CategoryOther, text: strings.ToValidUTF8(err.Error(), "\uFFFD")}
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
		e.category, e.permanent = messages.CategoryRejected, true
	case e.code >= 400 && e.code < 500:
		e.category = messages.CategoryTemporary
	case e.code >= 500:
		e.category = messages.CategoryAuth
	case errors.As(err, &ne) && ne.Timeout(), errors.Is(err, context.DeadlineExceeded):
		e.category = messages.CategoryTimeout
	case strings.Contains(e.text, "tls"), strings.Contains(e.text, "TLS"), strings.Contains(e.text, "certificate"):
		e.category = messages.CategoryTLS
	case strings.Contains(e.text, "dial"), strings.Contains(e.text, "connect"):
		e.category = messages.CategoryConnect
	}
	return e
}

// client makes a go-mail client for one attempt.
func client(t messages.Transport, timeout time.Duration) (*gomail.Client, error) {
	opts := []gomail.Option{gomail.WithPort(t.Port), gomail.WithTimeout(timeout)}
	switch t.Security {
	case messages.SecurityTLS:
		opts = append(opts, gomail.WithSSL())
	case messages.SecurityOpportunistic:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	case messages.SecurityOff:
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	default:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	}
	if t.Username != "" {
		// Over TLS the strongest mechanism the server offers; in plain text only PLAIN, which
		// the library allows to a server on this machine alone — a password never crosses a
		// network unencrypted.
		mech := gomail.SMTPAuthAutoDiscover
		if t.Security == messages.SecurityOff {
			mech = gomail.SMTPAuthPlain
		}
		opts = append(opts, gomail.WithSMTPAuth(mech), gomail.WithUsername(t.Username), gomail.WithPassword(t.Password))
	}
	return gomail.NewClient(t.Host, opts...)
}

// deliver sends m through t in one connection of its own and returns the server's final
// answer.
func deliver(ctx context.Context, t messages.Transport, m *gomail.Msg, timeout time.Duration) (string, error) {
	c, err := client(t, timeout)
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
