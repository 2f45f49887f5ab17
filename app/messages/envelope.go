package messages

import (
	"net/mail"
	"strings"
	"time"
)

// Envelope is one email as it leaves: who, what, and the headers that identify it.
type Envelope struct {
	From        mail.Address
	ReplyTo     string
	To          mail.Address
	MessageID   string // without angle brackets
	Date        time.Time
	Content     Rendered
	ICS         []byte // attached as booking.ics when set
	Unsubscribe string // List-Unsubscribe URL (reminders)
	// Channel is how it leaves: ChannelEmail, or ChannelSMS with Phone (E.164) and Text, the
	// short text, instead of the email's parts.
	Channel string
	Phone   string
	Text    string
	// WhatsApp is the template message when Channel is ChannelWhatsApp (Text is then the short
	// text the log shows).
	WhatsApp *WhatsAppMessage
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
