package messages

import (
	"context"
	"database/sql"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"frontdesk/app/activity"
	"frontdesk/app/locale"
	"frontdesk/db"
)

// Reply is the answer to a client's message (docs/messages.md, "Replies that act"): "… is
// confirmed", the STOP confirmation, a refused cancel's reason. On WhatsApp it is written into
// the outbox in the transaction that recorded what the client's message did (app/replies), so it
// has every message's retries, log and resend. Its words are the received message's reply,
// fixed when it was acted on; it goes to the number that wrote, on the channel it came by, as a
// free-form text — which WhatsApp allows within 24 hours of the client's message. It answers
// something the client just did: the rules for texts do not hold it back (quiet hours, the
// cap, only clients with a booking), the cap does not count it, and it never falls back to
// email.
const Reply Kind = "reply"

// ReplyAnswered writes the answer to received message inboundID, to phone on channel, due at
// once, inside the caller's transaction.
func ReplyAnswered(ctx context.Context, q *db.Queries, now time.Time, inboundID int64, channel, phone string) error {
	return insertReply(ctx, q, now, inboundID, ToClient, channel, phone)
}

// ReplyReceived writes the owner's copy of received message inboundID by email, when Settings
// → Messages → Replies asks for copies, inside the caller's transaction.
func ReplyReceived(ctx context.Context, q *db.Queries, now time.Time, inboundID int64) error {
	on, err := q.ReplyCopies(ctx)
	if err != nil || on == 0 {
		return err
	}
	return insertReply(ctx, q, now, inboundID, ToOwner, ChannelEmail, "")
}

func insertReply(ctx context.Context, q *db.Queries, now time.Time, inboundID int64, recipient, channel, phone string) error {
	key, err := newKey()
	if err != nil {
		return err
	}
	return q.InsertReplyMessage(ctx, db.InsertReplyMessageParams{MessageKey: key, Recipient: recipient, Channel: channel,
		Phone: phone, Now: db.Millis(now), InboundID: sql.NullInt64{Int64: inboundID, Valid: true}})
}

// ReplyCopies reports whether every message a client sends is copied to the owner by email.
func (s *Service) ReplyCopies(ctx context.Context) (bool, error) {
	on, err := s.db.R.ReplyCopies(ctx)
	return on != 0, err
}

// SaveReplyCopies switches the owner's copies of clients' messages on or off.
func (s *Service) SaveReplyCopies(ctx context.Context, on bool) error {
	return s.db.InTx(ctx, func(q *db.Queries) error {
		was, err := q.ReplyCopies(ctx)
		if err != nil {
			return err
		}
		next := int64(0)
		if on {
			next = 1
		}
		if was == next {
			return nil
		}
		if err := q.SetReplyCopies(ctx, db.SetReplyCopiesParams{CopyReplies: next, UpdatedAt: db.Millis(s.now())}); err != nil {
			return err
		}
		return recordSettings(ctx, q, s.now(), activity.Changes{"copy_replies": {was != 0, on}})
	})
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
	if r.msg.Recipient == ToOwner {
		return s.readReplyCopy(ctx, q, r, t, in)
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

// readReplyCopy renders the owner's copy of received message in: who wrote, by which channel,
// what they wrote, and the answer sent back, in the business's language.
func (s *Service) readReplyCopy(ctx context.Context, q *db.Queries, r reading, t Transport, in db.MessageInboundRow) (reading, error) {
	if !t.Ready() {
		return r, ErrNotSetUp
	}
	biz, err := q.MessageBusiness(ctx)
	if err != nil {
		return r, err
	}
	to := ownerAddress(t, biz.OwnerEmail)
	if to.Address == "" {
		r.done = &Prepared{Skip: "no email address"}
		return r, nil
	}
	addr, err := ParseAddress(to.Address)
	if err != nil {
		r.done = &Prepared{BadAddress: err.Error(), Envelope: Envelope{To: to}}
		return r, nil
	}
	loc, err := locale.Load(ctx, q)
	if err != nil {
		return r, err
	}
	p := loc.Printer()
	from := in.FromPhone
	if name := OneLine(strings.TrimSpace(in.FirstName + " " + in.LastName)); name != "" {
		from = name + " (" + in.FromPhone + ")"
	}
	channel := p.T("clients.channel.sms")
	if in.Channel == ChannelWhatsApp {
		channel = p.T("clients.channel.whatsapp")
	}
	body := p.T("messages.reply_copy.body", "from", from, "channel", channel, "text", in.Body)
	if in.Reply != "" {
		body += "\n\n" + p.T("messages.reply_copy.answered", "reply", in.Reply)
	}
	html, err := htmlPart(body, biz.Name)
	if err != nil {
		return r, err
	}
	content := Rendered{Subject: OneLine(p.T("messages.reply_copy.subject", "from", from)), Text: body + "\n", HTML: html}
	r.done = &Prepared{Envelope: Envelope{From: t.From, ReplyTo: t.ReplyTo, To: addr, Date: s.now(), Content: content,
		MessageID: r.msg.MessageKey + "@" + messageIDDomain(t.From), Channel: ChannelEmail}}
	return r, nil
}
