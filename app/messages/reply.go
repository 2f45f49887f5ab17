package messages

import (
	"context"
	"database/sql"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"frontdesk/db"
)

// Reply is the answer to a client's message (docs/messages.md, "Replies that act"): "… is
// confirmed", the STOP confirmation, a refused cancel's reason. On WhatsApp it is written into
// the outbox in the transaction that recorded what the client's message did (app/replies), so it
// has every message's retries, log and resend. Its words are the received message's reply,
// fixed when it was acted on; it goes to the number that wrote, on the channel it came by, as a
// free-form text — which WhatsApp allows within 24 hours of the client's message. It answers
// something the client just did: the rules for texts do not hold it back (quiet hours, the
// cap, only clients with a booking) and it never falls back to email.
const Reply Kind = "reply"

// ReplyAnswered writes the answer to received message inboundID, to phone on channel, due at
// once, inside the caller's transaction.
func ReplyAnswered(ctx context.Context, q *db.Queries, now time.Time, inboundID int64, channel, phone string) error {
	key, err := newKey()
	if err != nil {
		return err
	}
	ms := db.Millis(now)
	return q.InsertReplyMessage(ctx, db.InsertReplyMessageParams{MessageKey: key, Channel: channel, Phone: phone,
		Now: ms, InboundID: sql.NullInt64{Int64: inboundID, Valid: true}})
}

// readReply reads reply message r.msg: the words, the number, the channel. A channel that is
// not set up keeps it waiting (an error: retried on the schedule), never sent by email.
func (s *Service) readReply(ctx context.Context, q *db.Queries, r reading, t Transport) (reading, error) {
	in, err := q.MessageInbound(ctx, r.msg.InboundID.Int64)
	if db.IsNotFound(err) {
		r.done = &Prepared{Skip: "the message it answers was deleted"}
		return r, nil
	}
	if err != nil {
		return r, fmt.Errorf("message %d: %w", r.msg.ID, err)
	}
	if in.Reply == "" {
		r.done = &Prepared{Skip: "nothing to answer"}
		return r, nil
	}
	if in.Channel != ChannelWhatsApp || !t.WhatsApp.Ready() {
		return r, ErrTextsNotSetUp
	}
	r.channel, r.text = ChannelWhatsApp, in.Reply
	r.facts.phone, r.facts.ClientFirst, r.facts.ClientLast = in.FromPhone, in.FirstName, in.LastName
	r.bizZone = time.UTC
	if tz, err := q.BusinessTimezone(ctx); err == nil {
		if z, err := time.LoadLocation(tz); err == nil {
			r.bizZone = z
		}
	}
	return r, nil
}

// replyEnvelope is reply message r as it leaves: its words as they are, not a template.
func replyEnvelope(r reading, now time.Time) Envelope {
	a := r.facts
	return Envelope{Channel: r.channel, Phone: a.phone, Text: r.text, Date: now, MessageID: r.msg.MessageKey,
		To:       mail.Address{Name: OneLine(strings.TrimSpace(a.ClientFirst + " " + a.ClientLast))},
		WhatsApp: &WhatsAppMessage{Text: r.text}}
}
