// Package replies is what a client's answer to a text does (docs/messages.md, "Replies"): "1",
// "YES", "SÍ" or the Confirm button confirms the booking the last text to that number was
// about; "2", "CANCEL", "CANCELAR" or the Cancel button cancels it under the booking site's
// cancellation policy (the manage link's, through booking.Cancel); "STOP" or "BAJA" stops texts
// to the number; anything else waits in the admin's inbox. A WhatsApp button acts on the
// booking of the message whose button was pressed (the notification's context.id). Every channel's webhook (Twilio's
// SMS, WhatsApp's Cloud API) checks its provider's signature and then calls Handle, so each
// answer does the same whatever it came by. It also reads providers' delivery statuses into
// the message log (Delivery).
package replies

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"frontdesk/app/booking"
	"frontdesk/app/clients"
	"frontdesk/app/locale"
	"frontdesk/app/messages"
	"frontdesk/app/payments"
	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// Actions an answer asks for, mirrored by the CHECK on inbound_messages.action.
const (
	ActionConfirm = "confirm"
	ActionCancel  = "cancel"
	ActionStop    = "stop"
	ActionOther   = "other"
)

// Outcomes, mirrored by the CHECK on inbound_messages.outcome.
const (
	OutcomeDone      = "done"       // confirmed, cancelled or opted out
	OutcomeRefused   = "refused"    // a cancel outside the policy; the note names the rule
	OutcomeNoBooking = "no_booking" // no booking to act on (no text went to that number, or it is over)
	OutcomeInbox     = "inbox"      // not an action: left for the team
)

// Button payloads of the WhatsApp templates' quick-reply buttons (docs/messages.md).
const (
	ButtonConfirm = "CONFIRM"
	ButtonCancel  = "CANCEL"
)

// Inbound is one message from a client, as its webhook read it.
type Inbound struct {
	Channel    string // messages.ChannelSMS or messages.ChannelWhatsApp
	ProviderID string // the provider's id of the message: the same notification twice acts once
	From       string // the sender's number (E.164; a WhatsApp wa_id's digits are read as E.164)
	Text       string // what they wrote, or a button's title
	Button     string // a quick-reply button's payload (ButtonConfirm, ButtonCancel), if one was pressed
	// ReplyTo is the provider's id of our message this one answers (a WhatsApp button's
	// context.id), "" when the provider does not say: then the last text to the number is meant.
	ReplyTo string
}

// Result is what an answer did, and the text to send back ("" for none).
type Result struct {
	ID        int64 // the inbound_messages row
	Action    string
	Outcome   string
	Note      string
	Reply     string
	BookingID int64
	Replayed  bool // the provider delivered this message before: nothing was done again
}

// ErrInvalid is a message that cannot be read: no sender, no id.
var ErrInvalid = errors.New("replies: the message has no sender or no id")

// Intent reads an answer: the button's payload when a button was pressed, else the text,
// trimmed, in any case and with or without accents ("sí", "Si ", "CANCELAR.").
func Intent(text, button string) string {
	switch strings.ToUpper(strings.TrimSpace(button)) {
	case ButtonConfirm:
		return ActionConfirm
	case ButtonCancel:
		return ActionCancel
	}
	switch fold(text) {
	case "1", "YES", "SI", "CONFIRM", "CONFIRMAR":
		return ActionConfirm
	case "2", "CANCEL", "CANCELAR":
		return ActionCancel
	case "STOP", "BAJA":
		return ActionStop
	}
	return ActionOther
}

// fold is s trimmed of spaces and closing punctuation, upper-cased, its accents dropped.
func fold(s string) string {
	s = strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(".!¡?¿,;", r) })
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(unicode.ToUpper(r))
		}
	}
	return b.String()
}

// Engine acts on answers.
type Engine struct {
	db  *db.DB
	now func() time.Time
}

// New is an engine on d with clock now.
func New(d *db.DB, now func() time.Time) *Engine {
	if now == nil {
		now = time.Now
	}
	return &Engine{db: d, now: now}
}

// maxBody bounds what is kept of a message's text.
const maxBody = 1600

// Handle acts on in once: a message whose provider id was seen before changes nothing and
// answers what it answered then (Replayed). The action, the booking's change and the inbox row
// are one transaction, so a crash keeps both or neither and a redelivery after it acts.
func (e *Engine) Handle(ctx context.Context, in Inbound) (Result, error) {
	in.From = normalizeFrom(in.From)
	if in.From == "" || in.ProviderID == "" || len(in.ProviderID) > 200 {
		return Result{}, ErrInvalid
	}
	if in.Channel != messages.ChannelSMS && in.Channel != messages.ChannelWhatsApp {
		return Result{}, fmt.Errorf("replies: unknown channel %q", in.Channel)
	}
	now := e.now()
	var res Result
	err := e.db.InTx(ctx, func(q *db.Queries) error {
		res = Result{}
		if prev, err := q.InboundByProviderID(ctx, db.InboundByProviderIDParams{Channel: in.Channel, ProviderID: in.ProviderID}); err == nil {
			res = Result{ID: prev.ID, Action: prev.Action, Outcome: prev.Outcome, Note: prev.Note, Reply: prev.Reply,
				BookingID: prev.BookingID.Int64, Replayed: true}
			return nil
		} else if !db.IsNotFound(err) {
			return err
		}
		loc, err := locale.Load(ctx, q)
		if err != nil {
			return err
		}
		p := loc.Printer()
		res.Action = Intent(in.Text, in.Button)
		var clientID sql.NullInt64
		if c, err := q.ClientMatchByPhone(ctx, sql.NullString{String: in.From, Valid: true}); err == nil {
			clientID = sql.NullInt64{Int64: c.ID, Valid: true}
		} else if !db.IsNotFound(err) {
			return err
		}
		switch res.Action {
		case ActionStop:
			if err := q.InsertTextOptout(ctx, db.InsertTextOptoutParams{Phone: in.From, Channel: in.Channel, CreatedAt: db.Millis(now)}); err != nil {
				return err
			}
			res.Outcome, res.Reply = OutcomeDone, p.T("replies.stopped")
		case ActionConfirm, ActionCancel:
			if err := e.act(ctx, q, p, now, in, &res); err != nil {
				return err
			}
		default:
			res.Outcome = OutcomeInbox
		}
		body := in.Text
		if body == "" {
			body = in.Button
		}
		if len(body) > maxBody {
			body = strings.ToValidUTF8(body[:maxBody], "")
		}
		var bookingID sql.NullInt64
		if res.BookingID != 0 {
			bookingID = sql.NullInt64{Int64: res.BookingID, Valid: true}
		}
		res.ID, err = q.InsertInbound(ctx, db.InsertInboundParams{Channel: in.Channel, ProviderID: in.ProviderID,
			FromPhone: in.From, Body: body, ClientID: clientID, BookingID: bookingID, Action: res.Action,
			Outcome: res.Outcome, Note: res.Note, Reply: res.Reply, ReceivedAt: db.Millis(now)})
		if err != nil {
			return err
		}
		if err := messages.ReplyReceived(ctx, q, now, res.ID); err != nil {
			return err
		}
		if res.Reply == "" || in.Channel != messages.ChannelWhatsApp {
			return nil
		}
		// A WhatsApp answer goes through the outbox, written with what the message did: a crash
		// keeps both or neither, and the Cloud API being down delays it, never loses it. (An SMS
		// answer travels in Twilio's response to the webhook: Twilio sends it.)
		return messages.ReplyAnswered(ctx, q, now, res.ID, in.Channel, in.From)
	})
	return res, err
}

// act confirms or cancels the booking of the message in answers (in.ReplyTo), or, when the
// provider does not say which, the booking the last text to in.From was about.
func (e *Engine) act(ctx context.Context, q *db.Queries, p *i18n.Printer, now time.Time, in Inbound, res *Result) error {
	bookingID, err := e.bookingOf(ctx, q, in)
	if db.IsNotFound(err) {
		res.Outcome, res.Reply = OutcomeNoBooking, p.T("replies.no_booking")
		return nil
	}
	if err != nil {
		return err
	}
	v, err := booking.Get(ctx, q, bookingID)
	var nf *booking.NotFoundError
	if errors.As(err, &nf) {
		res.Outcome, res.Reply = OutcomeNoBooking, p.T("replies.no_booking")
		return nil
	}
	if err != nil {
		return err
	}
	b := v.Booking
	res.BookingID = b.ID
	zone, err := time.LoadLocation(v.LocationTimezone)
	if err != nil {
		return fmt.Errorf("booking %d: zone %q: %w", b.ID, v.LocationTimezone, err)
	}
	when := p.DateTimeOnce(db.Time(b.StartAt).In(zone))
	live := b.StatusID == booking.StatusConfirmed || b.StatusID == booking.StatusReserved
	if !live || !db.Time(b.StartAt).After(now) {
		res.Outcome, res.Reply = OutcomeNoBooking, p.T("replies.no_booking")
		return nil
	}
	if res.Action == ActionConfirm {
		if !b.ClientConfirmedAt.Valid {
			if err := q.SetBookingClientConfirmed(ctx, db.SetBookingClientConfirmedParams{At: sql.NullInt64{Int64: db.Millis(now), Valid: true}, ID: b.ID}); err != nil {
				return err
			}
		}
		res.Outcome, res.Reply = OutcomeDone, p.T("replies.confirmed", "service", v.ServiceName, "when", when)
		return nil
	}
	jctx := db.WithTx(ctx, q)
	if b.StatusID == booking.StatusReserved && b.PaymentRequestID.Valid {
		// As the booking site does: a hold for a payment goes with its payment request, so the
		// request cannot be paid afterwards.
		if _, err := payments.Cancel(jctx, e.db, now, b.PaymentRequestID.Int64); err != nil {
			var refused *payments.RefusedError
			if !errors.As(err, &refused) {
				return err
			}
		}
	}
	err = booking.Cancel(jctx, e.db, now, b.ID, booking.SourceOnline)
	var restricted *booking.RestrictedError
	switch {
	case errors.As(err, &restricted):
		res.Outcome, res.Note = OutcomeRefused, restricted.Rule
		res.Reply = p.T("replies.refused", "service", v.ServiceName, "when", when,
			"reason", p.Msg(booking.RestrictedMsg(restricted.Rule)), "contact", contact(ctx, q, b.LocationID, v.LocationName))
		return nil
	case err != nil:
		return err
	}
	res.Outcome, res.Reply = OutcomeDone, p.T("replies.cancelled", "service", v.ServiceName, "when", when)
	return nil
}

// bookingOf is the booking an answer is about: the one of the message it answers, when the
// provider names it and that message went to the sender; else the one the last text to the
// sender was about. A client with two bookings who presses the button of the older one's
// message acts on that one.
func (e *Engine) bookingOf(ctx context.Context, q *db.Queries, in Inbound) (int64, error) {
	if in.ReplyTo != "" {
		id, err := q.TextBookingByProviderID(ctx, db.TextBookingByProviderIDParams{ProviderID: in.ReplyTo, Phone: in.From})
		if err == nil {
			return id.Int64, nil
		}
		if !db.IsNotFound(err) {
			return 0, err
		}
	}
	last, err := q.LastTextBookingTo(ctx, in.From)
	if err != nil {
		return 0, err
	}
	return last.BookingID.Int64, nil
}

// contact is how to reach the business about booking at location id: its phone, else its
// email, else its name.
func contact(ctx context.Context, q *db.Queries, id int64, name string) string {
	row, err := q.GetLocation(ctx, id)
	if err != nil {
		return name
	}
	l := row.Location
	switch {
	case l.Phone.Valid && l.Phone.String != "":
		return name + " " + l.Phone.String
	case l.Email != "":
		return name + " " + l.Email
	}
	return name
}

// normalizeFrom reads a sender as E.164: Twilio's "+56…" (or "whatsapp:+56…"), WhatsApp's
// digits-only wa_id.
func normalizeFrom(s string) string {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "whatsapp:"))
	if s == "" {
		return ""
	}
	if !strings.HasPrefix(s, "+") {
		s = "+" + s
	}
	e164, err := clients.ParsePhone(s, "")
	if err != nil {
		return s // kept as sent: no client has it, so it lands in the inbox
	}
	return e164
}

// OptedOut reports whether number answered STOP (or BAJA): no text goes to it again.
func OptedOut(ctx context.Context, q *db.Queries, number string) (bool, error) {
	return q.TextOptedOut(ctx, number)
}

// Entry is one message received, for the inbox.
type Entry struct {
	ID         int64
	Channel    string
	From       string
	Body       string
	ClientID   int64
	ClientName string
	BookingID  int64
	Action     string
	Outcome    string
	Note       string
	Reply      string
	ReceivedAt time.Time
}

// List returns a page of the messages received, the newest first, and how many there are.
func List(ctx context.Context, q *db.Queries, limit, offset int) ([]Entry, int, error) {
	rows, err := q.ListInbound(ctx, db.ListInboundParams{Limit: int64(limit), Offset: int64(offset)})
	if err != nil {
		return nil, 0, err
	}
	n, err := q.CountInbound(ctx)
	if err != nil {
		return nil, 0, err
	}
	out := make([]Entry, len(rows))
	for i, r := range rows {
		out[i] = Entry{ID: r.ID, Channel: r.Channel, From: r.FromPhone, Body: r.Body, ClientID: r.ClientID.Int64,
			ClientName: strings.TrimSpace(r.ClientName), BookingID: r.BookingID.Int64, Action: r.Action, Outcome: r.Outcome,
			Note: r.Note, Reply: r.Reply, ReceivedAt: db.Time(r.ReceivedAt)}
	}
	return out, int(n), nil
}
