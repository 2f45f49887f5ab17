package mailer

import (
	"bytes"

	gomail "github.com/wneessen/go-mail"

	"frontdesk/app/messages"
)

// compose builds the MIME message. Names and the subject have lost their control characters
// already (app/messages: fields, render; OneLine again here); the library encodes whatever is
// not plain ASCII (RFC 2047), and addresses were parsed by messages.ParseAddress, so no value
// can start a header of its own.
func compose(e messages.Envelope) (*gomail.Msg, error) {
	m := gomail.NewMsg()
	from := e.From
	from.Name = messages.OneLine(from.Name)
	m.FromMailAddress(&from)
	to := e.To
	to.Name = messages.OneLine(to.Name)
	m.AddToMailAddress(&to)
	if e.ReplyTo != "" {
		if err := m.ReplyTo(e.ReplyTo); err != nil {
			return nil, err
		}
	}
	m.Subject(messages.OneLine(e.Content.Subject))
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
