package messages

import (
	"bytes"
	"net/mail"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// envelope is one email as it leaves: who, what, and the headers that identify it.
type envelope struct {
	From        mail.Address
	ReplyTo     string
	To          mail.Address
	MessageID   string // without angle brackets
	Date        time.Time
	Content     Rendered
	ICS         []byte // attached as booking.ics when set
	Unsubscribe string // List-Unsubscribe URL (reminders)
}

// messageIDDomain is the right part of the Message-IDs we make: the sender's domain, so the
// header is recognisably ours, and stable for a message as long as the sender is.
func messageIDDomain(from mail.Address) string {
	_, domain, ok := strings.Cut(from.Address, "@")
	if !ok || domain == "" {
		return "frontdesk.invalid"
	}
	return strings.ToLower(domain)
}

// compose builds the MIME message. Names and the subject have lost their control characters
// already (fields, render); the library encodes whatever is not plain ASCII (RFC 2047), and
// addresses were parsed by ParseAddress, so no value can start a header of its own.
func compose(e envelope) (*gomail.Msg, error) {
	m := gomail.NewMsg()
	from := e.From
	from.Name = clean(from.Name)
	m.FromMailAddress(&from)
	to := e.To
	to.Name = clean(to.Name)
	m.AddToMailAddress(&to)
	if e.ReplyTo != "" {
		if err := m.ReplyTo(e.ReplyTo); err != nil {
			return nil, err
		}
	}
	m.Subject(clean(e.Content.Subject))
	m.SetMessageIDWithValue(e.MessageID)
	m.SetDateWithValue(e.Date)
	m.SetUserAgent("frontdesk")
	// RFC 3834: an automatic message, so auto-responders do not answer it.
	m.SetGenHeader("Auto-Submitted", "auto-generated")
	if e.Unsubscribe != "" {
		m.SetListUnsubscribe(e.Unsubscribe)
		m.SetListUnsubscribePost()
	}
	m.SetBodyString(gomail.TypeTextPlain, e.Content.Text)
	m.AddAlternativeString(gomail.TypeTextHTML, e.Content.HTML)
	if len(e.ICS) > 0 {
		if err := m.AttachReader("booking.ics", bytes.NewReader(e.ICS),
			gomail.WithFileContentType(`text/calendar; charset=utf-8; method=PUBLISH`)); err != nil {
			return nil, err
		}
	}
	return m, nil
}
